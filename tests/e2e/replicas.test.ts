import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresBin, startCluster, startStandby, streaming, type Cluster } from '../helpers/postgres-cluster';
import { startTestServer, type TestServer } from '../helpers/server';

// Public reads on a real streaming replica (DATABASE_REPLICA_URL): a primary and a standby made by
// pg_basebackup -R that applies the primary's changes 5 seconds late (recovery_min_apply_delay),
// under two server processes. The standby serves public reads (its own table counters rise);
// while it is provably behind (it still holds the old row, read on it directly), every change of
// what is public (a write, read back on the JSON routes, Wakapi's badge URLs and the year page;
// the leaderboard left, languages unshared, an operator's hide, a project hidden, the profile
// made private, an account deleted) shows at once on both processes; with its replay paused past
// REPLICA_MAX_LAG_SECONDS, and stopped, every read is answered with fresh figures, never a 5xx,
// and /health says how the replica is.

const ADMIN_TOKEN = 'replica-admin-token-0123456789';
const AUTH_SECRET = 'replica-auth-secret-0123456789abcdef012';
const MAX_LAG = 8;

const installed = Boolean(postgresBin());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

interface Account {
  id: string;
  handle: string;
  token: string;
}

let primary: Cluster;
let standby: Cluster;
let onPrimary: postgres.Sql;
let onStandby: postgres.Sql;
const servers: TestServer[] = [];
/** Every status any request of the test got: none may be a 5xx. */
const statuses: number[] = [];

async function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${base}/main/api/v1${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  statuses.push(res.status);
  return res;
}

const both = <T>(read: (base: string) => Promise<T>): Promise<T[]> => Promise.all(servers.map((s) => read(s.baseUrl)));

async function timeTotal(base: string, who: string, range = '7d'): Promise<number | 404> {
  const res = await call(base, 'GET', `/get/public/time?user=${who}&range=${range}`);
  if (res.status === 404) return 404;
  expect(res.status).toBe(200);
  return ((await res.json()) as { total_seconds: number }).total_seconds;
}

async function leaderboardHandles(base: string): Promise<string[]> {
  const res = await call(base, 'GET', '/leaderboard/api/get/public?range=7d');
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: { user: { handle: string } }[] }).entries.map((e) => e.user.handle);
}

/** Time sent for yesterday, in `hour` (no hour counts more than 3 600 s). */
async function sync(account: Account, seconds: number, project = 'api', hour = 10): Promise<void> {
  const res = await call(servers[0].baseUrl, 'POST', '/sync/activities', account.token, { activities: [{ language: 'Go', time: seconds, date: yesterday, hour, project_name: project }] });
  expect(res.status).toBe(200);
}

async function createUser(handle: string): Promise<Account> {
  const res = await call(servers[0].baseUrl, 'POST', '/admin/users', ADMIN_TOKEN, {
    handle,
    settings: { profile_public: true, share_languages: true, leaderboard: true },
    token: { scopes: ['sync', 'account'] },
  });
  expect(res.status).toBe(201);
  const { user, token } = (await res.json()) as { user: { id: string }; token: string };
  return { id: user.id, handle, token };
}

/** Waits (at most `seconds`) until `check` holds; fails the test otherwise. */
async function until(what: string, check: () => Promise<boolean>, seconds = 30): Promise<void> {
  for (const end = Date.now() + seconds * 1000; ; await sleep(200)) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`${what}: not within ${seconds} s`);
  }
}

/** The standby has replayed everything the primary has written. */
const caughtUp = async () => {
  const [{ lsn }] = await onPrimary`SELECT pg_current_wal_lsn() AS lsn`;
  const [{ behind }] = await onStandby`SELECT pg_last_wal_replay_lsn() < ${lsn}::pg_lsn AS behind`;
  return !behind;
};

async function replicasOf(base: string): Promise<{ ok: boolean; lag_seconds: number | null }[]> {
  const res = await call(base, 'GET', '/health');
  expect(res.status).toBe(200);
  const body = (await res.json()) as { status: string; replicas?: { ok: boolean; lag_seconds: number | null }[] };
  expect(body.status).toBe('ok');
  return body.replicas!;
}

/** Rows read from the application's tables on the standby, by its own counters. */
async function standbyReads(): Promise<number> {
  const [{ n }] = await onStandby`SELECT pg_stat_clear_snapshot(), (SELECT coalesce(sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)), 0)::float8 FROM pg_stat_user_tables) AS n`;
  return Number(n);
}

let alice: Account;
let bob: Account;
let carol: Account;

describe.skipIf(!installed && !process.env.CI)('public reads on a streaming replica', () => {
  beforeAll(async () => {
    primary = await startCluster(streaming);
    standby = await startStandby(primary, { applyDelay: '5s' });
    onPrimary = postgres(primary.url(), { max: 1, onnotice: () => {} });
    onStandby = postgres(standby.url(), { max: 1, onnotice: () => {} });
    const env = {
      DATABASE_URL: `${primary.url()}?max=4`,
      DATABASE_REPLICA_URL: standby.url(),
      REPLICA_MAX_LAG_SECONDS: String(MAX_LAG),
      ADMIN_TOKEN,
      AUTH_SECRET,
      PUBLIC_MIN_USERS: '1',
      SYNC_RATE_LIMIT_PER_MINUTE: '0',
      READ_RATE_LIMIT_PER_MINUTE: '0',
    };
    servers.push(await startTestServer(env));
    servers.push(await startTestServer(env));
    [alice, bob, carol] = [await createUser('alice'), await createUser('bob'), await createUser('carol')];
    for (const a of [alice, bob, carol]) await sync(a, 1200);
    // Warm: the leaderboard's snapshot is built (with all three), then the standby replays it all.
    await until('all three on the leaderboard', async () => (await leaderboardHandles(servers[0].baseUrl)).length === 3);
    await until('the standby caught up', caughtUp);
    await until('both processes find the replica well', async () => (await both(replicasOf)).every((r) => r.length === 1 && r[0].ok));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await onPrimary?.end();
    await onStandby?.end().catch(() => {});
    await standby?.remove();
    await primary?.remove();
    for (const s of servers) s.remove();
  });

  it('serves public reads from the standby: its own counters rise', async () => {
    const before = await standbyReads();
    // Questions no cache holds yet, on both processes.
    for (const range of ['7d', '30d', '90d', '365d']) {
      expect(await both((base) => timeTotal(base, 'bob', range))).toEqual([1200, 1200]);
    }
    await until('the standby counted the reads', async () => (await standbyReads()) > before, 15);
  });

  it("answers Wakapi's badge URLs and the public year page from the standby, and with an owner's new figures at once", async () => {
    const get = async (base: string, path: string) => {
      const res = await fetch(`${base}${path}`);
      statuses.push(res.status);
      expect(res.status).toBe(200);
      return res;
    };
    const shields = async (base: string) => ((await (await get(base, '/api/compat/shields/v1/dave/interval:30_days')).json()) as { message: string }).message;
    const yearText = async (base: string) => (await (await get(base, `/u/dave/year/${yesterday.slice(0, 4)}`)).text()).match(/coded ([\w ]+?) on \d+ days?/)?.[1];
    const dave = await createUser('dave');
    await sync(dave, 1200);
    await until('the standby caught up', caughtUp);
    const before = await standbyReads();
    expect(await both(shields)).toEqual(['0 hrs 20 mins', '0 hrs 20 mins']);
    expect(await both(yearText)).toEqual(['20 mins', '20 mins']);
    await until('the standby counted the reads', async () => (await standbyReads()) > before, 15);
    await sync(dave, 600);
    expect(await both(shields)).toEqual(['0 hrs 30 mins', '0 hrs 30 mins']);
    expect(await both(yearText)).toEqual(['30 mins', '30 mins']);
    const [{ seconds }] = await onStandby`SELECT sum(millis)::float8 / 1000 AS seconds FROM user_days WHERE user_id = ${dave.id}`;
    expect(Number(seconds)).toBe(1200); // the standby is provably behind
  });

  it("reads an owner's new figures back at once on both processes while the standby still holds the old ones", async () => {
    expect(await both((base) => timeTotal(base, 'alice'))).toEqual([1200, 1200]);
    await sync(alice, 600);
    expect(await both((base) => timeTotal(base, 'alice'))).toEqual([1800, 1800]);
    const [{ seconds }] = await onStandby`SELECT sum(millis)::float8 / 1000 AS seconds FROM user_days WHERE user_id = ${alice.id}`;
    expect(Number(seconds)).toBe(1200); // the standby is provably behind
  });

  it('takes a user off the leaderboard, and their languages off, at once on both processes', async () => {
    expect(await both(leaderboardHandles)).toEqual([expect.arrayContaining(['alice']), expect.arrayContaining(['alice'])]);
    expect((await call(servers[1].baseUrl, 'PATCH', '/me', alice.token, { settings: { leaderboard: false, share_languages: false } })).status).toBe(200);
    for (const handles of await both(leaderboardHandles)) expect(handles).not.toContain('alice');
    for (const res of await both((base) => call(base, 'GET', '/get/public/language?user=alice&range=30d'))) {
      expect(((await res.json()) as { languages: unknown[] }).languages).toEqual([]);
    }
    const [row] = await onStandby`SELECT leaderboard, share_languages FROM users WHERE id = ${alice.id}`;
    expect(row).toEqual({ leaderboard: true, share_languages: true }); // still the old settings there
  });

  it('takes an account an operator hides off the leaderboard at once on both processes, its own figures kept', async () => {
    expect(await both(leaderboardHandles)).toEqual([expect.arrayContaining(['bob']), expect.arrayContaining(['bob'])]);
    expect((await call(servers[1].baseUrl, 'POST', '/admin/users/bob/hide', ADMIN_TOKEN, { reason: 'checking' })).status).toBe(200);
    for (const handles of await both(leaderboardHandles)) expect(handles).not.toContain('bob');
    expect(await both((base) => timeTotal(base, 'bob'))).toEqual([1200, 1200]);
    const [row] = await onStandby`SELECT hidden_reason FROM users WHERE id = ${bob.id}`;
    expect(row.hidden_reason).toBeNull(); // not hidden there yet
    expect((await call(servers[0].baseUrl, 'DELETE', '/admin/users/bob/hide', ADMIN_TOKEN)).status).toBe(204);
    await until('bob back on both boards', async () => (await both(leaderboardHandles)).every((handles) => handles.includes('bob')), 10);
  });

  it('hides a project from its owner’s public figures at once, and shows the owner their change', async () => {
    await sync(bob, 300, 'secret-project', 11);
    await until('the standby caught up', caughtUp);
    expect((await call(servers[0].baseUrl, 'PUT', `/me/projects/secret-project/hidden`, bob.token, { hidden: true })).status).toBe(200);
    for (const res of await both((base) => call(base, 'GET', '/me/projects?range=7d', bob.token))) {
      expect(((await res.json()) as { hidden: string[] }).hidden).toEqual(['secret-project']);
    }
    // The public figures of the owner are read where the change has been replayed: the new version.
    expect(await both((base) => timeTotal(base, 'bob', '30d'))).toEqual([1500, 1500]);
    const [{ n }] = await onStandby`SELECT count(*)::int AS n FROM hidden_projects WHERE user_id = ${bob.id}`;
    expect(n).toBe(0);
  });

  it('turns a private profile away at once on both processes', async () => {
    expect(await both((base) => timeTotal(base, 'alice', '30d'))).toEqual([1800, 1800]);
    expect((await call(servers[0].baseUrl, 'PATCH', '/me', alice.token, { settings: { profile_public: false } })).status).toBe(200);
    expect(await both((base) => timeTotal(base, 'alice', '30d'))).toEqual([404, 404]);
    const [row] = await onStandby`SELECT profile_public FROM users WHERE id = ${alice.id}`;
    expect(row.profile_public).toBe(true);
  });

  it('forgets a deleted account at once on both processes', async () => {
    expect(await both(leaderboardHandles)).toEqual([expect.arrayContaining(['carol']), expect.arrayContaining(['carol'])]);
    expect((await call(servers[1].baseUrl, 'DELETE', '/me', carol.token)).status).toBe(204);
    expect(await both((base) => timeTotal(base, 'carol'))).toEqual([404, 404]);
    for (const handles of await both(leaderboardHandles)) expect(handles).not.toContain('carol');
    const [{ n }] = await onStandby`SELECT count(*)::int AS n FROM users WHERE id = ${carol.id}`;
    expect(n).toBe(1);
  });

  it('leaves out a replica whose replay is paused past the limit, answering fresh figures from the primary', async () => {
    await until('the standby caught up', caughtUp);
    await onStandby`SELECT pg_wal_replay_pause()`;
    let expected = 1500;
    let writes = 0;
    try {
      await until(
        'both processes leave the paused replica out',
        async () => {
          await sync(bob, 60, 'api', writes++ % 24);
          expected += 60;
          expect(await both((base) => timeTotal(base, 'bob', '30d'))).toEqual([expected, expected]);
          const states = (await both(replicasOf)).map((r) => r[0]);
          return states.every((s) => !s.ok && s.lag_seconds! > MAX_LAG);
        },
        MAX_LAG * 4,
      );
      // Reads of users with no change pending go to the primary too: nothing is older than the limit.
      expect(await both((base) => timeTotal(base, 'bob', '365d'))).toEqual([expected, expected]);
    } finally {
      await onStandby`SELECT pg_wal_replay_resume()`;
    }
    await until('both processes use the replica again', async () => (await both(replicasOf)).every((r) => r[0].ok), 30);
  });

  it('reads from the primary while the standby is stopped, and comes back to it', async () => {
    standby.signal('SIGINT'); // a fast shutdown
    await onStandby.end({ timeout: 1 }).catch(() => {});
    await until('both processes find the replica down', async () => (await both(replicasOf)).every((r) => !r[0].ok && r[0].lag_seconds === null), 15);
    await sync(bob, 60, 'api', 23);
    const total = (await timeTotal(servers[0].baseUrl, 'bob', '30d')) as number;
    expect(await both((base) => timeTotal(base, 'bob', '7d'))).toEqual([total, total]);
    expect(await both((base) => timeTotal(base, 'bob', '90d'))).toEqual([total, total]);
    await standby.start();
    onStandby = postgres(standby.url(), { max: 1, onnotice: () => {} });
    await until('both processes use the replica again', async () => (await both(replicasOf)).every((r) => r[0].ok), 30);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
