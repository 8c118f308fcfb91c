import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

// One account's heavy day against everyone else, on the real server and its embedded database
// (which runs every statement on the thread that serves requests), at the default limits: the
// account writes a big day of heartbeats through the WakaTime bulk route, then asks for four
// heavy reads of it at once (every page of heartbeats?date=, durations, the timeline, its export).
// Meanwhile another user's public profile, the health check and another user's heartbeat are
// answered: each before the heavy reads are all done, and within a few seconds (a bound far
// above what they take, not a measure of speed). Were a heavy read one long statement, or a chain
// of statements that never gave the event loop its turn, the others would be read only after it.

const DAY_BEATS = Number(process.env.E2E_HEAVY_DAY_BEATS ?? 60_000);
const BULK = 1000;
const userAgent = 'wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';
const adminToken = 'e2e-heavy-day-admin-token-0123456789';

let server: TestServer;
let base: string;

async function newUser(settings: Record<string, boolean> = {}) {
  const res = await fetch(`${base}/main/api/v1/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle: `hd${Math.random().toString(36).slice(2, 10)}`, timezone: 'UTC', settings, token: { format: 'uuid', scopes: ['sync', 'stats', 'account'] } }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { user: { id: string; handle: string }; token: string };
}

const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;

function postBeats(key: string, beats: unknown[]) {
  return fetch(`${base}/api/wakatime/v1/users/current/heartbeats.bulk`, {
    method: 'POST',
    headers: { authorization: basic(key), 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify(beats),
  });
}

/** Asks and reads the whole answer; the time from asking to the last byte, and when that was. */
async function timed(what: string, ask: () => Promise<Response>, status = [200]) {
  const asked = performance.now();
  const res = await ask();
  const body = await res.text();
  expect([what, res.status, status.includes(res.status) ? 'ok' : body.slice(0, 300)]).toEqual([what, res.status, 'ok']);
  const done = performance.now();
  return { what, ms: Math.round(done - asked), done, body };
}

beforeAll(async () => {
  // The default limits: no override of the rate limits or anything else the service bounds.
  server = await startTestServer({ ADMIN_TOKEN: adminToken });
  base = server.baseUrl;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  server?.remove();
});

describe('a heavy day of one account', () => {
  it('leaves other visitors answered while four heavy reads of it run at once', async () => {
    const heavy = await newUser();
    const light = await newUser({ profile_public: true, share_languages: true });
    const date = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const first = Date.parse(`${date}T00:05:00Z`) / 1000;
    const step = 80_000 / DAY_BEATS;
    for (let from = 0; from < DAY_BEATS; from += BULK) {
      const beats = Array.from({ length: Math.min(BULK, DAY_BEATS - from) }, (_, k) => {
        const i = from + k;
        return { entity: `/src/m${i % 13}.ts`, type: 'file', time: first + i * step, language: ['TypeScript', 'Go', 'Rust'][Math.floor(i / 50) % 3], project: `p${Math.floor(i / 1000) % 4}` };
      });
      const res = await postBeats(heavy.token, beats);
      expect(res.status).toBe(201);
      await res.arrayBuffer();
    }
    // The light user has a profile worth showing.
    expect((await postBeats(light.token, [{ entity: '/a.go', time: Date.now() / 1000 - 600, language: 'Go', project: 'x' }, { entity: '/a.go', time: Date.now() / 1000 - 300, language: 'Go', project: 'x' }])).status).toBe(201);

    // Each of the others once before: a first answer of a page builds what later ones reuse, which is not what is watched here.
    for (const path of [`/u/${light.user.handle}`, '/main/api/v1/health']) expect((await fetch(`${base}${path}`)).status).toBe(200);

    const auth = { authorization: basic(heavy.token) };
    const everyPage = async () => {
      let after = '';
      let pages = 0;
      let beats = 0;
      for (;;) {
        const res = await fetch(`${base}/api/wakatime/v1/users/current/heartbeats?date=${date}${after && `&after=${encodeURIComponent(after)}`}`, { headers: auth });
        expect(res.status).toBe(200);
        const page = (await res.json()) as { data: unknown[]; next_after: string | null };
        pages++;
        beats += page.data.length;
        if (page.next_after === null) return new Response(JSON.stringify({ pages, beats }));
        after = page.next_after;
      }
    };
    const started = performance.now();
    const heavyReads = Promise.all([
      timed('heartbeats, every page', everyPage),
      timed('durations', () => fetch(`${base}/api/wakatime/v1/users/current/durations?date=${date}`, { headers: auth })),
      timed('timeline', () => fetch(`${base}/main/api/v1/me/timeline?date=${date}`, { headers: { authorization: `Bearer ${heavy.token}` } })),
      timed('export', () => fetch(`${base}/main/api/v1/me/export`, { headers: { authorization: `Bearer ${heavy.token}` } })),
    ]);
    // Once the heavy reads are under way, the others, one after the other.
    await new Promise((r) => setTimeout(r, 300));
    const others = [];
    others.push(await timed('public profile', () => fetch(`${base}/u/${light.user.handle}`)));
    others.push(await timed('health', () => fetch(`${base}/main/api/v1/health`)));
    others.push(await timed('heartbeat', () => postBeats(light.token, [{ entity: '/b.go', time: Date.now() / 1000 - 60, language: 'Go', project: 'x' }]), [201]));
    const heavyDone = await heavyReads;

    const lastHeavy = Math.max(...heavyDone.map((r) => r.done));
    console.log(
      `[heavy day] ${DAY_BEATS} heartbeats; heavy reads at once: ${heavyDone.map((r) => `${r.what} ${r.ms} ms`).join(', ')}; others meanwhile: ${others.map((r) => `${r.what} ${r.ms} ms`).join(', ')}; all heavy done after ${Math.round(lastHeavy - started)} ms`,
    );
    // The day came back whole through the pages.
    expect(JSON.parse(heavyDone[0].body)).toMatchObject({ beats: DAY_BEATS });
    expect(JSON.parse(heavyDone[3].body).heartbeats).toHaveLength(DAY_BEATS);
    for (const other of others) {
      expect([other.what, other.done < lastHeavy]).toEqual([other.what, true]);
      expect([other.what, other.ms < 5000]).toEqual([other.what, true]);
    }
  }, 600_000);
});
