import fs from 'node:fs';
import path from 'node:path';

// The requests real WakaTime clients send, recorded from their source (tests/fixtures/wakatime-clients/,
// each file naming the source files it follows), replayed as they were sent: the same method,
// path, query, headers and body encoding, with only the key filled in and the heartbeats' times
// moved to the recent past (in the form each was sent: a number stays a number, a string with
// three decimals stays one).

export interface ClientFixture {
  client: string;
  source: string[];
  request: {
    method: 'POST';
    /** The base a user of this client sets (`api_url`), before `path`. */
    base: string;
    path: string;
    query: Record<string, string>;
    headers: Record<string, string>;
    /** `json`: the body is the heartbeats' JSON; `json-twice`: a JSON string holding it. */
    encoding: 'json' | 'json-twice';
    body: string;
  };
}

const dir = path.resolve('tests/fixtures/wakatime-clients');

export const clientFixtureNames = ['browser-extension', 'claude-code-wakatime', 'vscode-dev', 'wakatime-cli-ai'] as const;
export type ClientFixtureName = (typeof clientFixtureNames)[number];

export function clientFixture(name: ClientFixtureName): ClientFixture {
  return JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')) as ClientFixture;
}

type Beat = Record<string, unknown> & { time: number | string };

/** The heartbeats of a fixture's body, decoded as the server must decode them. */
export function fixtureBeats(fixture: ClientFixture): Beat[] {
  const once = JSON.parse(fixture.request.body) as unknown;
  return (fixture.request.encoding === 'json-twice' ? JSON.parse(once as string) : once) as Beat[];
}

/** A time moved by `shift` seconds, in the form it was sent. */
function moved(time: number | string, shift: number): number | string {
  if (typeof time === 'number') return time + shift;
  const decimals = time.split('.')[1]?.length ?? 0;
  return (Number(time) + shift).toFixed(decimals);
}

/** The whole seconds that bring a fixture's last heartbeat to `endsAt` (epoch seconds). */
export function fixtureShift(fixture: ClientFixture, endsAt: number): number {
  return Math.floor(endsAt - Math.max(...fixtureBeats(fixture).map((b) => Number(b.time))));
}

/**
 * The fixture's request for `origin` (`http://localhost` for route handlers, the server's origin
 * for the black-box suite), its last heartbeat at `endsAt`; `base` overrides the fixture's.
 */
export function replayRequest(fixture: ClientFixture, key: string, origin: string, endsAt: number, base = fixture.request.base): Request {
  const { method, path: route, query, headers, encoding } = fixture.request;
  const shift = fixtureShift(fixture, endsAt);
  const beats = fixtureBeats(fixture).map((b) => ({ ...b, time: moved(b.time, shift) }));
  const json = JSON.stringify(beats);
  const fill = (value: string) => value.replaceAll('{key64}', Buffer.from(key).toString('base64')).replaceAll('{key}', key);
  const url = new URL(`${origin}${base}${route}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, fill(value));
  return new Request(url, {
    method,
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, fill(value)])),
    body: encoding === 'json-twice' ? JSON.stringify(json) : json,
  });
}
