import { encode } from '@auth/core/jwt';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { GET as getMe } from '@/app/main/api/v1/me/route';
import { GET as listBadges } from '@/app/main/api/v1/badges/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { POST as postHeartbeat } from '@/app/api/wakatime/v1/users/[user]/heartbeats/route';
import { GET as getAllTime } from '@/app/api/wakatime/v1/users/[user]/all_time_since_today/route';
import { GET as getMachines } from '@/app/api/wakatime/v1/users/[user]/machine_names/route';
import { GET as getRangedStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { GET as getStatusBar } from '@/app/api/wakatime/v1/users/[user]/status_bar/today/route';
import { GET as getUserAgents } from '@/app/api/wakatime/v1/users/[user]/user_agents/route';
import { issueToken } from '@/lib/accounts/tokens';
import { authSecret } from '@/lib/auth/secret';
import { sessionVersion } from '@/lib/auth/sessions';
import { findPrincipal } from '@/lib/auth/principal';
import { hashToken } from '@/lib/auth/tokens';
import { config, readLimits, resetConfig } from '@/lib/config';
import { getDb, openDb, rows } from '@/lib/db/client';
import { cacheTally } from '@/lib/metrics/tally';
import { allTimeSinceToday, stats } from '@/lib/wakatime/reading/reads';
import { MAX_USER_AGENTS } from '@/lib/wakatime/sending/user-agents';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { documented } from '../helpers/contract';
import { withinOneWindow } from '../helpers/clock';

// Reads are budgeted as writes are (lib/http/rate-limit.ts): per token and per user, in counters
// of their own. What a client relies on: a 429 with Retry-After and the read policy named, one
// budget for all of an account's keys (and its sessions), and a status bar that reads never
// stopping a plugin from writing (nor the other way round). Then what keeps one account's reads
// bounded: the User-Agent list capped, and the owner's long-range figures computed once per change.

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

function setLimits(limits: Record<string, number | undefined>) {
  for (const [name, value] of Object.entries(limits)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = String(value);
  }
  resetConfig();
}

afterEach(() => setLimits({ READ_RATE_LIMIT_PER_MINUTE: undefined, READ_USER_RATE_LIMIT_PER_MINUTE: undefined, SYNC_RATE_LIMIT_PER_MINUTE: 0 }));

const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;

/** A GET of a WakaTime-compatible route under users/current with `key` (Basic, as wakatime-cli sends it), as documented. */
async function waka(handler: Handler, route: string, key: string, params: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const url = `http://localhost/api/wakatime/v1/users/current/${route}`;
  const request = new Request(url, { headers: { authorization: basic(key), ...headers } });
  return documented(request, await handler(request, { params: Promise.resolve({ user: 'current', ...params }) }));
}

/** A GET of an account or badge route with a token or a session cookie. */
async function own(handler: (request: Request) => Promise<Response>, path: string, auth: { token?: string; cookie?: string }) {
  const headers: Record<string, string> = { host: 'localhost' };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (auth.cookie) headers.cookie = auth.cookie;
  const request = new Request(`http://localhost/main/api/v1${path}`, { headers });
  return documented(request, await handler(request));
}

async function sessionCookie(userId: string): Promise<string> {
  const name = 'authjs.session-token';
  const sv = await sessionVersion(await getDb(), userId);
  return `${name}=${await encode({ token: { sub: userId, sv }, salt: name, secret: authSecret() })}`;
}

/** A user and a WakaTime key of theirs (scopes sync and stats, as wakatime-cli's). */
async function keyed() {
  const made = await newUser({ timezone: 'UTC' });
  const { token: key } = await issueToken(await getDb(), made.user.id, { name: 'cli', format: 'uuid' });
  return { ...made, key };
}

const activity = (time: number) => ({ activities: [{ language: 'Go', time, date: daysFromToday(-1), hour: 10, project_name: 'api' }] });

describe('read budgets', () => {
  it('answer a key past its budget 429 with Retry-After, naming the read policy', () =>
    withinOneWindow(async () => {
      setLimits({ READ_RATE_LIMIT_PER_MINUTE: 3 });
      const { key } = await keyed();
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await waka(getStatusBar, 'status_bar/today', key));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      // The per-user budget is twice the per-key one unless set.
      expect(answers[0].headers.get('ratelimit-policy')).toBe('"read";q=3;w=60, "read-user";q=6;w=60');
      expect(answers[0].headers.get('ratelimit')).toMatch(/^"read";r=2;t=\d+$/);
      const limited = answers[3];
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(limited.headers.get('ratelimit')).toMatch(/^"read";r=0;t=\d+$/);
      expect(limited.headers.get('ratelimit-policy')).toBe('"read";q=3;w=60, "read-user";q=6;w=60');
      // In WakaTime's shape, as every error of these routes.
      expect((await limited.json()).error).toMatch(/More than 3 requests other than activity writes a minute with this token/);
      // Every way of sending the key is the same key.
      const query = new Request(`http://localhost/api/wakatime/v1/users/current/status_bar/today?api_key=${key}`);
      expect((await getStatusBar(query, { params: Promise.resolve({ user: 'current' }) })).status).toBe(429);

      // Another user's key has its own budget.
      const other = await keyed();
      expect((await waka(getStatusBar, 'status_bar/today', other.key)).status).toBe(200);
    }));

  it('are one budget per user over all their keys, tokens and sessions', () =>
    withinOneWindow(async () => {
      setLimits({ READ_RATE_LIMIT_PER_MINUTE: 3, READ_USER_RATE_LIMIT_PER_MINUTE: 5 });
      const { user, key, token: plugin } = await keyed();
      const account = await tokenWithScopes(user.id, ['account']);
      // Three keys, five reads: the user's budget is spent though no key's is.
      expect((await waka(getStatusBar, 'status_bar/today', key)).status).toBe(200);
      expect((await waka(getStatusBar, 'status_bar/today', key)).status).toBe(200);
      const asAccount = await own(getMe, '/me', { token: account });
      expect(asAccount.status).toBe(200);
      expect(asAccount.headers.get('ratelimit')).toMatch(/^"read";r=2;/);
      expect((await own(listBadges, '/badges', { token: plugin })).status).toBe(200);
      const last = await own(listBadges, '/badges', { token: plugin });
      expect(last.status).toBe(200);
      expect(last.headers.get('ratelimit')).toMatch(/^"read-user";r=0;/);

      for (const refused of [await own(getMe, '/me', { token: account }), await waka(getStatusBar, 'status_bar/today', key)]) {
        expect(refused.status).toBe(429);
        expect(refused.headers.get('ratelimit')).toMatch(/^"read-user";r=0;t=\d+$/);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // The dashboard's session is the same account: past the user's budget too, and its policy is the user's alone.
      const session = await own(getMe, '/me', { cookie: await sessionCookie(user.id) });
      expect(session.status).toBe(429);
      expect(session.headers.get('ratelimit-policy')).toBe('"read-user";q=5;w=60');
      expect((await session.json()).code).toBe('rate_limited');
    }));

  it('count a session\'s reads against its user', () =>
    withinOneWindow(async () => {
      setLimits({ READ_RATE_LIMIT_PER_MINUTE: 10, READ_USER_RATE_LIMIT_PER_MINUTE: 2 });
      const { user, key } = await keyed();
      const cookie = await sessionCookie(user.id);
      const first = await own(getMe, '/me', { cookie });
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit')).toMatch(/^"read-user";r=1;/);
      expect((await own(getMe, '/me', { cookie })).status).toBe(200);
      expect((await own(getMe, '/me', { cookie })).status).toBe(429);
      expect((await waka(getStatusBar, 'status_bar/today', key)).status).toBe(429);
    }));

  // The embedded database belongs to one process by design; several processes mean PostgreSQL.
  it.skipIf(process.env.TEST_DB === 'pglite')('are one budget for every connection to the database (as for several server processes)', () =>
    withinOneWindow(async () => {
      setLimits({ READ_RATE_LIMIT_PER_MINUTE: 4 });
      const { key } = await keyed();
      // A second, independent pool stands for a second server process on the same PostgreSQL.
      const second = await openDb({ databaseUrl: config().DATABASE_URL, dataDir: '', pooler: config().DATABASE_POOLER }, 4);
      try {
        const there = await Promise.all(Array.from({ length: 3 }, () => findPrincipal(second.db, hashToken(key), { scope: 'stats', limits: readLimits() })));
        expect(there.map((f) => f!.rate!.exceeded)).toEqual([false, false, false]);
        const here = await Promise.all(Array.from({ length: 3 }, () => waka(getStatusBar, 'status_bar/today', key)));
        expect(here.map((r) => r.status).sort()).toEqual([200, 429, 429]);
      } finally {
        await second.close();
      }
    }));

  it('are apart from the write budgets: reads never spend the writes\' and writes never the reads\'', () =>
    withinOneWindow(async () => {
      setLimits({ READ_RATE_LIMIT_PER_MINUTE: 2, SYNC_RATE_LIMIT_PER_MINUTE: 2 });
      // Reads spent: the same token still writes, counted against the write policy.
      const reader = await newUser({ timezone: 'UTC' });
      const both = await tokenWithScopes(reader.user.id, ['sync', 'stats']);
      for (const status of [200, 200, 429]) expect((await waka(getStatusBar, 'status_bar/today', both)).status).toBe(status);
      const written = await call(postBatch, '/sync/activities', { token: both, body: activity(60) });
      expect(written.status).toBe(200);
      expect(written.headers.get('ratelimit')).toMatch(/^"sync";r=1;/);
      expect((await call(postBatch, '/sync/activities', { token: both, body: activity(60) })).status).toBe(200);
      expect((await call(postBatch, '/sync/activities', { token: both, body: activity(60) })).status).toBe(429);

      // Writes spent: the same token still reads.
      const writer = await newUser({ timezone: 'UTC' });
      const token = await tokenWithScopes(writer.user.id, ['sync', 'stats']);
      for (const status of [200, 200, 429]) expect((await call(postBatch, '/sync/activities', { token, body: activity(60) })).status).toBe(status);
      const read = await waka(getStatusBar, 'status_bar/today', token);
      expect(read.status).toBe(200);
      expect(read.headers.get('ratelimit')).toMatch(/^"read";r=1;/);
    }));
});

describe('the User-Agent list', () => {
  it(`keeps the ${MAX_USER_AGENTS} most recently seen, however many a client sends`, async () => {
    const { user, key } = await keyed();
    const sent = Array.from({ length: MAX_USER_AGENTS + 15 }, (_, i) => `wakatime/v1.${i}.0 (linux-6.8.0) go1.24.4 vim/9.1 vim-wakatime/11.${i}.0`);
    const at = Math.floor(Date.now() / 1000) - 3600;
    for (const [i, agent] of sent.entries()) {
      const request = new Request('http://localhost/api/wakatime/v1/users/current/heartbeats', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic(key), 'user-agent': agent },
        body: JSON.stringify({ entity: 'a.ts', type: 'file', time: at + i, language: 'TypeScript', project: 'app' }),
      });
      expect((await postHeartbeat(request, { params: Promise.resolve({ user: 'current' }) })).status).toBe(201);
    }
    const stored = await rows<{ n: number }>(await getDb(), sql`SELECT count(*)::int AS n FROM user_agents WHERE user_id = ${user.id}::uuid`);
    expect(stored[0].n).toBe(MAX_USER_AGENTS);
    const listed = await waka(getUserAgents, 'user_agents', key);
    expect(listed.status).toBe(200);
    const { data } = (await listed.json()) as { data: { value: string; editor: string }[] };
    // The newest ones, the most recent first; each still knows its editor.
    expect(data.map((a) => a.value)).toEqual(sent.slice(-MAX_USER_AGENTS).reverse());
    expect(data.every((a) => a.editor === data[0].editor && a.editor !== null)).toBe(true);
  });
});

describe('the owner\'s long-range figures', () => {
  it('are computed once per change of the owner\'s data: served from memory until a write, fresh after it', async () => {
    const { user, key, token } = await keyed();
    const db = await getDb();
    const owner = { id: user.id, handle: user.handle, timezone: 'UTC' };
    expect((await call(postBatch, '/sync/activities', { token, body: activity(3600) })).status).toBe(200);
    const read = async (handler: Handler, route: string, params: Record<string, string> = {}) => {
      const res = await waka(handler, route, key, params);
      expect(res.status).toBe(200);
      return res.json();
    };
    const allTime = () => read(getRangedStats, 'stats/all_time', { range: 'all_time' });
    const sinceToday = () => read(getAllTime, 'all_time_since_today');

    const first = await allTime();
    expect(first.data.total_seconds).toBe(3600);
    const firstSince = await sinceToday();
    expect(firstSince.data.total_seconds).toBe(3600);

    // A change behind the service's back (no write through it, so the owner's data version stays):
    // the figures computed afresh differ, the answers do not: they come from memory.
    await db.execute(sql`UPDATE user_days SET millis = millis / 2 WHERE user_id = ${user.id}::uuid`);
    await db.execute(sql`UPDATE ide_activity SET millis = millis / 2 WHERE user_id = ${user.id}::uuid`);
    expect((await stats(db, owner, 'all_time')).data.total_seconds).toBe(1800);
    expect((await allTimeSinceToday(db, owner)).data.total_seconds).toBe(1800);
    expect(await allTime()).toEqual(first);
    expect(await sinceToday()).toEqual(firstSince);

    // A write through the API: the next answers are the figures as they are now.
    expect((await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'Rust', time: 600, date: daysFromToday(-2), hour: 9 }] } })).status).toBe(200);
    const fresh = await allTime();
    expect(fresh.data.total_seconds).toBe(2400);
    expect(fresh).toEqual(JSON.parse(JSON.stringify(await stats(db, owner, 'all_time'))));
    expect((await sinceToday()).data.total_seconds).toBe(2400);
  });

  it('asked at once, are computed once', async () => {
    const { key, token } = await keyed();
    expect((await call(postBatch, '/sync/activities', { token, body: activity(3600) })).status).toBe(200);
    const tally = cacheTally('own-figures');
    const [hits, misses] = [tally.hit, tally.miss];
    const answers = await Promise.all(Array.from({ length: 4 }, () => waka(getRangedStats, 'stats/last_year', key, { range: 'last_year' })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect([tally.hit - hits, tally.miss - misses]).toEqual([3, 1]);
    // machine_names, read over all of the owner's history, is kept the same way.
    expect((await waka(getMachines, 'machine_names', key)).status).toBe(200);
    expect((await waka(getMachines, 'machine_names', key)).status).toBe(200);
    expect([tally.hit - hits, tally.miss - misses]).toEqual([4, 2]);
  });
});
