import http from 'node:http';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, rows, type DbHandle } from '../../lib/db/client';
import { HOUR_CAP_MILLIS } from '../../lib/activity';
import { nameProblem } from '../../lib/text';
import { errorCodes } from '../../lib/http/errors';
import { startTestServer, testHost, type TestServer } from '../helpers/server';

// Generated requests of every kind against every route of the real server: methods, paths,
// query strings, headers and bodies, with text from every class of Unicode (controls, bidi and
// invisible characters, unpaired surrogates, astral characters). Not one may be answered 500 or
// more, and afterwards the stored data must still hold together (rollups equal to what they sum,
// hours in range, no orphans, no name that refuses itself).

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const ADMIN_TOKEN = 'fuzz-admin-token-0123456789';

let server: TestServer;
interface Fixture {
  users: { id: string; handle: string; token: string; account: string }[];
  badges: string[];
}
const fixture: Fixture = { users: [], badges: [] };

async function api(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${server.baseUrl}/main/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

beforeAll(async () => {
  server = await startTestServer({ ADMIN_TOKEN, SYNC_RATE_LIMIT_PER_MINUTE: '0', READ_RATE_LIMIT_PER_MINUTE: '0', LEADERBOARD_MAX_AGE: '0', PUBLIC_CACHE_SECONDS: '0', AUTH_PASSWORD: 'on' });
  const settings = [
    { profile_public: true, share_languages: true, share_editors: true, leaderboard: true },
    { profile_public: false },
    { profile_public: true, leaderboard: true },
  ];
  for (const [i, s] of settings.entries()) {
    const created = await api('POST', '/admin/users', ADMIN_TOKEN, { handle: `fuzz${i}`, settings: s });
    const account = (await api('POST', '/me/tokens', (await api('POST', '/admin/users', ADMIN_TOKEN, { handle: `fuzzacct${i}`, token: { scopes: ['account'] } })).token, { name: 'fuzz', scopes: ['account', 'sync', 'badges'] })).token as string;
    fixture.users.push({ id: created.user.id, handle: created.user.handle, token: created.token, account });
    const badge = await api('POST', '/badges', created.token, { metric: 'total', range: '7d' });
    fixture.badges.push(badge.id);
  }
}, 180_000);

afterAll(async () => {
  await server?.stop();
  server?.remove();
});

// ---- text of every class --------------------------------------------------------------------

const codePoints = {
  ascii: fc.integer({ min: 0x20, max: 0x7e }),
  c0: fc.integer({ min: 0x00, max: 0x1f }),
  del: fc.constant(0x7f),
  c1: fc.integer({ min: 0x80, max: 0x9f }),
  latin1: fc.integer({ min: 0xa0, max: 0xff }),
  bmp: fc.constantFrom(0x4e2d, 0x0627, 0x05d0, 0x0301, 0x0e01, 0x1f600 - 0xf000, 0x2603, 0xfffd, 0xfffe, 0xffff, 0xe000),
  formatting: fc.constantFrom(0x00ad, 0x061c, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202e, 0x2060, 0x2066, 0x2069, 0xfeff, 0xfff9),
  astral: fc.integer({ min: 0x10000, max: 0x10ffff }),
  emoji: fc.constantFrom(0x1f600, 0x1f4bb, 0x1f9d1, 0x1f3f4, 0xe0067),
};
const unpaired = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const char = fc.oneof(
  { weight: 10, arbitrary: codePoints.ascii.map((c) => String.fromCodePoint(c)) },
  ...Object.values(codePoints)
    .slice(1)
    .map((arb) => ({ weight: 2, arbitrary: arb.map((c) => String.fromCodePoint(c)) })),
  { weight: 2, arbitrary: unpaired },
);
/** Text people write: letters of several scripts, marks, emoji. */
const cleanChar = fc.oneof(
  { weight: 10, arbitrary: codePoints.ascii.map((c) => String.fromCodePoint(c)) },
  { weight: 2, arbitrary: codePoints.latin1.map((c) => String.fromCodePoint(c)) },
  { weight: 2, arbitrary: fc.constantFrom(0x4e2d, 0x0627, 0x05d0, 0x0e01, 0x2603, 0x1f600, 0x1f4bb).map((c) => String.fromCodePoint(c)) },
);
/** Any text: mostly what people write, often every other class of character too, unpaired surrogates included. */
const text = (maxLength = 24) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.array(cleanChar, { maxLength }).map((cs) => cs.join('')) },
    { weight: 2, arbitrary: fc.array(char, { maxLength }).map((cs) => cs.join('')) },
  );
const longText = fc.oneof(text(), fc.nat({ max: 5000 }).map((n) => 'x'.repeat(n)));

/**
 * Without the front server (TEST_HOST=next) requests are what a host's edge lets through to Next:
 * well-formed targets and Next's methods. Malformed percent-encoding and methods such as TRACE are
 * the front server's to refuse (docs/hosts.md); Next alone fails some of them with a 500.
 */
const fronted = testHost === 'front';

/** Text as a URL carries it: percent-encoded UTF-8 (unpaired surrogates as the bytes a buggy encoder writes, behind the front server). */
function encode(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff && !fronted) out += '%EF%BF%BD';
    else if (code >= 0xd800 && code <= 0xdfff) out += '%ED%' + (0xa0 + ((code >> 6) & 0x1f)).toString(16).toUpperCase() + '%' + (0x80 + (code & 0x3f)).toString(16).toUpperCase();
    else out += encodeURIComponent(ch);
  }
  return out;
}
/** A path segment or query value: encoded text, or raw (often malformed) percent sequences. */
const urlPart = fc.oneof(
  { weight: 6, arbitrary: text().map(encode) },
  { weight: 1, arbitrary: fronted ? fc.constantFrom('%', '%E0%A4%A', '%FF', '%00', '%C0%AF', '..', '%2e%2e', '%2F', '') : fc.constantFrom('%00', '..', '%2e%2e', '%2F', '') },
);
/** A header value Node will send: visible ASCII and Latin-1 bytes. */
const headerText = fc
  .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 40 })
  .map((cs) => String.fromCharCode(...cs).trim());

// ---- values ---------------------------------------------------------------------------------

const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    text(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(text(8), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const today = new Date().toISOString().slice(0, 10);
const dateValue = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 400 }).map((n) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)) },
  { weight: 2, arbitrary: fc.constantFrom(today, '2000-01-01', '1999-12-31', '0000-01-01', '2026-02-29', '2024-02-29', '9999-12-31', '2026-13-01', '2026-1-5', '') },
  { weight: 1, arbitrary: fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)) },
  { weight: 1, arbitrary: text(12) },
);
const secondsValue = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 3600 }) },
  { weight: 2, arbitrary: fc.constantFrom(0, -1, 0.0001, 0.0005, 0.001, 1, 59.9, 3600, 3600.0001, 1e9, -0) },
  { weight: 2, arbitrary: fc.double({ min: -10, max: 4000, noNaN: true }) },
);
const fieldValue = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: anyJson });
const nameValue = fc.oneof({ weight: 3, arbitrary: fc.constantFrom('TypeScript', 'Go', 'Rust', 'vscode', 'neovim', 'proj') }, { weight: 2, arbitrary: text() }, { weight: 1, arbitrary: longText });

const ideBucket = fc
  .record(
    {
      language: fieldValue(nameValue),
      time: fieldValue(secondsValue),
      lines: fieldValue(fc.oneof({ weight: 4, arbitrary: fc.nat({ max: 10_000_001 }) }, { weight: 1, arbitrary: fc.double({ min: -5, max: 1e7, noNaN: true }) })),
      date: fieldValue(dateValue),
      hour: fieldValue(fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -2, max: 25 }) }, { weight: 1, arbitrary: fc.double({ min: 0, max: 23, noNaN: true }) })),
      path: fieldValue(fc.oneof({ weight: 4, arbitrary: text(40) }, { weight: 1, arbitrary: longText })),
      project_name: fieldValue(nameValue),
      ide_name: fieldValue(nameValue),
      filename: fieldValue(text()),
    },
    { requiredKeys: [] },
  )
  .chain((b) =>
    fc.tuple(fc.boolean(), fc.boolean()).map(([keepLanguage, keepTime]) => ({ language: keepLanguage ? 'TypeScript' : undefined, time: keepTime ? 60 : undefined, ...b })),
  )
  .chain((b) => fc.dictionary(fc.oneof(text(10), fc.constantFrom('content', 'Diff', 'SNIPPET', 'color', '__proto__', 'constructor')), anyJson, { maxKeys: 2 }).map((extra) => ({ ...extra, ...b })));

/** A bucket a plugin would send: valid, with names of any script. */
const plainBucket = fc.record(
  {
    language: fc.constantFrom('TypeScript', 'Go', 'Rust', 'Zig', 'Lean'),
    time: fc.integer({ min: 1, max: 3600 }),
    date: fc.nat({ max: 30 }).map((n) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)),
    hour: fc.integer({ min: 0, max: 23 }),
    project_name: fc.array(cleanChar, { maxLength: 12 }).map((cs) => cs.join('').trim()),
    ide_name: fc.constantFrom('vscode', 'neovim', 'emacs'),
  },
  { requiredKeys: ['language', 'time'] },
);

const desktopBucket = fc
  .record(
    {
      platform: fieldValue(nameValue),
      time: fieldValue(secondsValue),
      date: fieldValue(dateValue),
      hour: fieldValue(fc.integer({ min: -1, max: 24 })),
      path: fieldValue(text()),
      filename: fieldValue(text()),
      program_name: fieldValue(nameValue),
    },
    { requiredKeys: [] },
  )
  .map((b) => b as Record<string, unknown>);

/** A heartbeat as a WakaTime plugin sends it, or nearly: fields of any kind, times near now or far off. */
const heartbeat = fc
  .record(
    {
      entity: fieldValue(fc.oneof(text(40), fc.constant('/home/dev/src/main.go'))),
      type: fieldValue(fc.constantFrom('file', 'app', 'domain', 'url', 'event', 'folder')),
      time: fieldValue(
        fc.oneof(
          fc.integer({ min: -3600, max: 3600 }).map((s) => Date.now() / 1000 + s),
          fc.constantFrom(0, -1, 1e12, Number.MAX_SAFE_INTEGER, Date.now() / 1000 - 15 * 86_400),
        ),
      ),
      category: fieldValue(fc.constantFrom('coding', 'debugging', 'building', 'x')),
      language: fieldValue(nameValue),
      project: fieldValue(nameValue),
      branch: fieldValue(text()),
      lineno: fieldValue(fc.integer()),
      user_agent: fieldValue(fc.oneof(text(60), fc.constant('wakatime/v1.98.0 (linux-6.5.0) go1.22.1 vim/9.1 vim-wakatime/11.0.0'))),
    },
    { requiredKeys: [] },
  )
  .chain((b) => fc.dictionary(fc.oneof(text(10), fc.constantFrom('content', 'Diff', 'dependencies', '__proto__')), anyJson, { maxKeys: 2 }).map((extra) => ({ ...extra, ...b })));

// ---- requests -------------------------------------------------------------------------------

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const uuid = fc.uuid();
const someUser = () => fc.constantFrom(...fixture.users);
const segment = (valid: fc.Arbitrary<string>) => fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: urlPart });

type BodyKind = 'ide' | 'desktop' | 'ide-one' | 'desktop-one' | 'heartbeats' | 'heartbeat' | 'object' | 'none';
/** Route templates: the path, and the body a write there carries. */
const paths = (): fc.Arbitrary<{ path: string; body: BodyKind }> =>
  fc.oneof(
    { weight: 24, arbitrary: fc.constant({ path: '/main/api/v1/sync/activities', body: 'ide' as const }) },
    { weight: 9, arbitrary: fc.constant({ path: '/main/api/v1/sync/activities/desktop', body: 'desktop' as const }) },
    { weight: 9, arbitrary: fc.constant({ path: '/main/api/v1/activities', body: 'ide-one' as const }) },
    { weight: 6, arbitrary: fc.constant({ path: '/main/api/v1/activities/desktop', body: 'desktop-one' as const }) },
    {
      weight: 8,
      arbitrary: fc.constantFrom('time', 'language', 'hitmaps', 'weekly').map((c) => ({ path: `/main/api/v1/get/public/${c}`, body: 'none' as const })),
    },
    { weight: 9, arbitrary: fc.constant({ path: '/main/api/v1/leaderboard/api/get/public', body: 'none' as const }) },
    { weight: 3, arbitrary: fc.constantFrom('/main/api/v1/get/list/plans', '/main/api/v1/health', '/main/api/v1/ping', '/main/api/v1/openapi.json').map((path) => ({ path, body: 'none' as const })) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(segment(fc.constantFrom('github', 'gitlab')), fc.constantFrom('svg', 'shields'), segment(fc.oneof(someUser().map((u) => u.id), uuid)))
        .map(([site, kind, owner]) => ({ path: `/main/api/v1/public/${site}/${kind}/${owner}`, body: 'none' as const })),
    },
    {
      weight: 4,
      arbitrary: fc
        .oneof(
          fc.constant('/main/api/v1/badges'),
          segment(fc.oneof(fc.constantFrom(...fixture.badges), uuid)).map((id) => `/main/api/v1/badges/${id}`),
          segment(fc.oneof(fc.constantFrom(...fixture.badges), uuid)).map((id) => `/main/api/v1/badges/${id}/refresh`),
        )
        .map((path) => ({ path, body: 'object' as const })),
    },
    {
      weight: 4,
      arbitrary: fc
        .oneof(fc.constantFrom('/main/api/v1/me', '/main/api/v1/me/export', '/main/api/v1/me/tokens'), segment(uuid).map((id) => `/main/api/v1/me/tokens/${id}`))
        .map((path) => ({ path, body: 'object' as const })),
    },
    { weight: 6, arbitrary: fc.constant({ path: '/main/api/v1/admin/users', body: 'object' as const }) },
    {
      weight: 8,
      arbitrary: fc
        .tuple(segment(fc.oneof(fc.constant('current'), someUser().map((u) => u.handle))), fc.constantFrom('heartbeats.bulk', 'heartbeats', 'statusbar/today'))
        .map(([user, route]) => ({
          path: `/api/wakatime/v1/users/${user}/${route}`,
          body: route === 'heartbeats.bulk' ? ('heartbeats' as const) : route === 'heartbeats' ? ('heartbeat' as const) : ('none' as const),
        })),
    },
    { weight: 6, arbitrary: urlPart.map((p) => ({ path: `/main/api/v1/${p}`, body: 'object' as const })) },
    {
      weight: 3,
      arbitrary: fc
        .oneof(
          fc.constantFrom('/', '/leaderboard', '/pricing', '/docs', '/docs/errors', '/signin', '/signup', '/dashboard', '/dashboard/badge-preview'),
          segment(someUser().map((u) => u.handle)).map((h) => `/u/${h}`),
          fc.constantFrom('/auth/session', '/auth/csrf', '/auth/providers', '/auth/signout', '/auth/callback/credentials'),
          urlPart.map((p) => `/auth/${p}`),
          urlPart.map((p) => `/${p}`),
        )
        .map((path) => ({ path, body: 'object' as const })),
    },
    { weight: 1, arbitrary: segment(someUser().map((u) => u.handle)).map((h) => ({ path: `/u/${h}/opengraph-image`, body: 'none' as const })) },
  );

const queryNames = fc.constantFrom('user', 'range', 'from', 'to', 'weeks', 'language', 'page', 'limit', 'badge', 'style', 'metric', 'callbackUrl', 'error', 'signedUp', 'welcome');
const queryValue = () =>
  fc.oneof(
  fc.constantFrom('7d', '30d', '365d', 'all', 'today', '90d', 'constructor', '__proto__', '0', '1', '104', '105', '-1', '1e3', 'Go', 'flat', 'social'),
  someUser().map((u) => u.handle),
  someUser().map((u) => u.id),
  dateValue.map(encode),
  urlPart,
);
const query = () =>
  fc
  .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: queryNames }, { weight: 1, arbitrary: urlPart }), queryValue()), { maxLength: 4 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

const authorization = () =>
  fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 14, arbitrary: someUser().map((u) => `Bearer ${u.token}`) },
  { weight: 4, arbitrary: someUser().map((u) => `Bearer ${u.account}`) },
  { weight: 3, arbitrary: someUser().map((u) => `Basic ${Buffer.from(u.token).toString('base64')}`) },
  { weight: 1, arbitrary: fc.constant(`Bearer ${ADMIN_TOKEN}`) },
  { weight: 1, arbitrary: headerText.map((t) => `Bearer ${t}`) },
  { weight: 1, arbitrary: headerText },
  { weight: 1, arbitrary: fc.constantFrom('Bearer', 'Basic dXNlcjpwYXNz', 'Bearer ct_' + 'A'.repeat(43), 'bearer  ' + 'x'.repeat(300)) },
);

/** Each optional header is sent now and then (one request in five), so most carry a few. */
const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
const headers = () =>
  fc.record({
    authorization: authorization(),
    'content-type': fc.oneof(
      { weight: 8, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/merge-patch+json', '') },
      { weight: 1, arbitrary: headerText },
    ),
    'idempotency-key': sometimes(fc.oneof(headerText, fc.nat({ max: 300 }).map((n) => 'k'.repeat(n)))),
    cookie: sometimes(
      fc.oneof(
        headerText.map((t) => `authjs.session-token=${t}`),
        headerText.map((t) => `authjs.callback-url=${t}`),
        fc.constantFrom('authjs.session-token=%E0%A4%A', '__Secure-authjs.session-token=', 'a=b; authjs.session-token=eyJhbGciOiJkaXIifQ..x.y.z'),
      ),
    ),
    'if-none-match': sometimes(fc.oneof(headerText, fc.constantFrom('*', 'W/"x"', '"x", W/"y"'))),
    'x-forwarded-for': sometimes(headerText),
    'x-forwarded-host': sometimes(headerText),
    'x-forwarded-proto': sometimes(fc.constantFrom('https', 'http', 'gopher')),
    origin: sometimes(fc.oneof(headerText, fc.constantFrom('http://127.0.0.1', 'null', 'https://evil.example'))),
    'sec-fetch-site': sometimes(fc.constantFrom('same-origin', 'cross-site', 'none')),
    'next-action': sometimes(fc.stringMatching(/^[0-9a-f]{40,42}$/)),
    range: sometimes(fc.constantFrom('bytes=0-10', 'bytes=-1')),
  });

const methodArbs = new Map<BodyKind, fc.Arbitrary<string>>();
/** Mostly the method the route is for (writes are POSTed, reads are GETs), else any. */
const methodFor = (body: BodyKind) => {
  let arb = methodArbs.get(body);
  if (!arb) methodArbs.set(body, (arb = makeMethod(body)));
  return arb;
};
const makeMethod = (body: BodyKind) =>
  fc.oneof(
    { weight: 12, arbitrary: body === 'none' ? fc.constant('GET') : body === 'object' ? fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE') : fc.constant('POST') },
    { weight: 3, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
    { weight: 1, arbitrary: fronted ? fc.constantFrom('TRACE', 'PROPFIND', 'MKCOL', 'PURGE', 'REPORT') : fc.constantFrom('PUT', 'OPTIONS') },
  );

const bodies = new Map<string, fc.Arbitrary<string | Buffer | undefined>>();
/** The body arbitrary of a kind of route, built once (building one costs more than drawing from it). */
function bodyFor(kind: string): fc.Arbitrary<string | Buffer | undefined> {
  let arb = bodies.get(kind);
  if (!arb) bodies.set(kind, (arb = makeBody(kind)));
  return arb;
}

function makeBody(kind: string): fc.Arbitrary<string | Buffer | undefined> {
  const json = (arb: fc.Arbitrary<unknown>) => arb.map((v) => JSON.stringify(v));
  const raw = fc.oneof(
    fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
    fc.constantFrom('{"activities": [', '{"activities": [{"language": "Go", "time": 1e400}]}', 'null', '[]', '"x"', '{"a":' + '['.repeat(2000)),
  );
  const structured: Record<string, fc.Arbitrary<unknown>> = {
    ide: fc.oneof(
      { weight: 10, arbitrary: fc.record({ activities: fc.array(fc.oneof(plainBucket, ideBucket), { maxLength: 12 }) }) },
      { weight: 1, arbitrary: anyJson },
    ),
    desktop: fc.oneof({ weight: 5, arbitrary: fc.record({ activities: fc.array(desktopBucket, { maxLength: 8 }) }) }, { weight: 1, arbitrary: anyJson }),
    'ide-one': fc.oneof(plainBucket, ideBucket),
    'desktop-one': desktopBucket,
    heartbeats: fc.oneof({ weight: 10, arbitrary: fc.array(heartbeat, { maxLength: 12 }) }, { weight: 1, arbitrary: anyJson }),
    heartbeat,
    object: fc.oneof(
      fc.record(
        {
          handle: fieldValue(fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_-]{0,20}$/), text())),
          display_name: fieldValue(text()),
          timezone: fieldValue(fc.constantFrom('UTC', 'Europe/Berlin', 'Mars/Olympus', '')),
          settings: fieldValue(fc.dictionary(fc.constantFrom('profile_public', 'share_languages', 'leaderboard', 'community_stats', 'x'), anyJson)),
          name: fieldValue(text()),
          scopes: fieldValue(fc.array(fc.constantFrom('sync', 'badges', 'account', 'stats', 'root'), { maxLength: 3 })),
          format: fieldValue(fc.constantFrom('ct', 'uuid', 'x')),
          token: fieldValue(fc.record({ scopes: fc.array(fc.constantFrom('sync', 'badges', 'account'), { maxLength: 2 }), format: fc.constantFrom('ct', 'uuid') })),
          metric: fieldValue(fc.constantFrom('total', 'daily_average', 'language')),
          range: fieldValue(fc.constantFrom('7d', '30d', '365d', 'all', '1y')),
          language: fieldValue(nameValue),
          label: fieldValue(text()),
          color: fieldValue(fc.constantFrom('blue', '#abc', 'ff0000', 'url(x)')),
          style: fieldValue(fc.constantFrom('flat', 'social', 'x')),
        },
        { requiredKeys: [] },
      ),
      anyJson,
    ),
    none: fc.constant(undefined),
  };
  return fc.oneof({ weight: 8, arbitrary: kind === 'none' ? fc.constant(undefined) : json(structured[kind]) }, { weight: 1, arbitrary: raw });
}

const requests: () => fc.Arbitrary<FuzzRequest> = () =>
  fc
    .tuple(paths(), query(), headers())
    .chain(([target, q, h]) =>
      fc.tuple(methodFor(target.body), bodyFor(target.body)).map(([method, body]) => {
        const hdrs = Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>;
        const sendsBody = !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method) && body !== undefined;
        return { method, path: target.path + q, headers: hdrs, body: sendsBody ? body : undefined };
      }),
    );

function send(req: FuzzRequest): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(server.baseUrl);
  const headers = req.body === undefined ? req.headers : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) };
  return new Promise((resolve, reject) => {
    const r = http.request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, timeout: 30_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += body.length < 4096 ? d : ''));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    r.on('timeout', () => r.destroy(new Error('no answer within 30 s')));
    r.on('error', reject);
    r.end(req.body);
  });
}

// Every code of the catalog but `internal`, which only a 5xx carries.
const knownCodes = new Set(errorCodes.filter((code) => code !== 'internal'));

describe('generated requests against every route', () => {
  const statuses = new Map<number, number>();
  const slowest = new Map<string, number>();
  const byRoute = new Map<string, number>();

  it(`answers ${RUNS} of them, never with a 5xx; API errors are problem+json with a known code`, async () => {
    await fc.assert(
      fc.asyncProperty(requests(), async (req) => {
        const started = performance.now();
        const res = await send(req);
        const kind = req.path.split('?')[0].split('/').slice(0, 5).join('/');
        slowest.set(kind, (slowest.get(kind) ?? 0) + performance.now() - started);
        if (process.env.FUZZ_DEBUG) byRoute.set(`${req.method} ${kind} ${res.status}`, (byRoute.get(`${req.method} ${kind} ${res.status}`) ?? 0) + 1);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const where = `${req.method} ${req.path} -> ${res.status} ${res.body.slice(0, 300)}`;
        expect(res.status, where).toBeLessThan(500);
        // A badge embed's 404 is an image or shields.io JSON, by contract; every other API error is a problem.
        const embed404 = res.status === 404 && /\/(svg|shields)\//.test(req.path);
        if (req.path.startsWith('/main/api/') && res.status >= 400 && req.method !== 'HEAD' && !embed404) {
          expect(res.headers['content-type'], where).toMatch(/^application\/problem\+json/);
          const problem = JSON.parse(res.body);
          expect(knownCodes.has(problem.code), where).toBe(true);
          expect(problem.status, where).toBe(res.status);
        }
        // The WakaTime-compatible routes answer their errors in WakaTime's shape ({"error": ...});
        // a path that names no route (404), a method none takes (405) and what never reaches a
        // route (a forged form action) are the server's.
        const wakatimeError = req.path.startsWith('/api/wakatime/') && res.status >= 400 && ![404, 405].includes(res.status);
        if (wakatimeError && req.method !== 'HEAD' && /^application\/json/.test(res.headers['content-type'] ?? '')) {
          expect(typeof JSON.parse(res.body).error, where).toBe('string');
        }
        if (res.status === 405) expect(res.headers.allow, where).toBeTruthy();
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: 12 * 60_000 },
    );
    const summary = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    console.log(`fuzz: ${[...statuses.values()].reduce((a, b) => a + b, 0)} requests, answers ${summary.join(', ')}`);
    if (process.env.FUZZ_DEBUG) console.log([...byRoute].sort(([, a], [, b]) => b - a).slice(0, 40).map(([k, n]) => `${k}: ${n}`).join('\n'));
    console.log(`fuzz time in requests: ${Math.round([...slowest.values()].reduce((a, b) => a + b, 0))} ms`);
    console.log(`fuzz time by route: ${[...slowest].sort(([, a], [, b]) => b - a).slice(0, 12).map(([k, ms]) => `${k} ${Math.round(ms)} ms`).join(', ')}`);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(RUNS);
    // Not vacuous: writes were accepted, and refused for reasons.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 20);
    expect((statuses.get(400) ?? 0) + (statuses.get(422) ?? 0)).toBeGreaterThan(RUNS / 20);
  }, 15 * 60_000);

  it('leaves the stored data whole: rollups equal their sums, values in range, no orphans, every name clean', async () => {
    await server.stop();
    const handle: DbHandle = await openDb({ dataDir: server.dataDir });
    try {
      const db = handle.db;
      const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (${query}) AS q`))[0].n;
      const [{ n: stored }] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ide_activity`);
      expect(stored).toBeGreaterThan(10);
      // A key with no rollup row holds no time: buckets of line changes only have none.
      const broken = {
        hours: await count(sql`SELECT 1 FROM (SELECT user_id, date, hour, sum(millis) AS m FROM ide_activity GROUP BY 1, 2, 3) a
          FULL JOIN user_hours h USING (user_id, date, hour) WHERE coalesce(a.m, 0) <> coalesce(h.millis, 0)`),
        days: await count(sql`SELECT 1 FROM (SELECT user_id, date, sum(least(millis, ${HOUR_CAP_MILLIS})) AS m FROM user_hours GROUP BY 1, 2) a
          FULL JOIN user_days d USING (user_id, date) WHERE coalesce(a.m, 0) <> coalesce(d.millis, 0)`),
        languages: await count(sql`SELECT 1 FROM (SELECT user_id, date, language, sum(millis) AS m FROM ide_activity GROUP BY 1, 2, 3) a
          FULL JOIN user_day_languages l USING (user_id, date, language) WHERE coalesce(a.m, 0) <> coalesce(l.millis, 0)`),
        editors: await count(sql`SELECT 1 FROM (SELECT user_id, date, editor, sum(millis) AS m FROM ide_activity GROUP BY 1, 2, 3) a
          FULL JOIN user_day_editors e USING (user_id, date, editor) WHERE coalesce(a.m, 0) <> coalesce(e.millis, 0)`),
        ranges: await count(sql`SELECT 1 FROM ide_activity WHERE hour NOT BETWEEN 0 AND 23 OR millis < 0 OR lines < 0
          OR date < '2000-01-01' OR date > current_date + 2 OR language = ''`),
        desktop: await count(sql`SELECT 1 FROM desktop_activity WHERE hour NOT BETWEEN 0 AND 23 OR millis < 0 OR platform = '' OR app = ''`),
        orphans: await count(sql`SELECT 1 FROM ide_activity a WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = a.user_id)`),
        tokens: await count(sql`SELECT user_id FROM api_tokens WHERE revoked_at IS NULL GROUP BY 1 HAVING count(*) > 20`),
        community: await count(sql`SELECT 1 FROM community_days WHERE millis < 0 OR users < 0 OR released < 0`),
      };
      expect(broken).toEqual({ hours: 0, days: 0, languages: 0, editors: 0, ranges: 0, desktop: 0, orphans: 0, tokens: 0, community: 0 });

      const names = await rows<{ name: string }>(
        db,
        sql`SELECT language AS name FROM ide_activity UNION SELECT project FROM ide_activity UNION SELECT editor FROM ide_activity
            UNION SELECT display_name FROM users UNION SELECT platform FROM desktop_activity UNION SELECT app FROM desktop_activity
            UNION SELECT name FROM api_tokens UNION SELECT label FROM badges`,
      );
      expect(names.filter((n) => nameProblem(n.name) !== null)).toEqual([]);
      const answers = await rows<{ response: string }>(db, sql`SELECT response FROM idempotency_keys`);
      for (const a of answers) expect(() => JSON.parse(a.response)).not.toThrow();
    } finally {
      await handle.close();
    }
  }, 120_000);
});
