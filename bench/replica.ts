// npm run bench:replica — public reads a second on the primary alone against primary plus a
// streaming replica (DATABASE_REPLICA_URL), in one run, on PostgreSQL servers of the bench's own: a
// primary and a standby made by pg_basebackup -R (Debian's programs, as the tests use them).
//
// Each request asks a question no cache has answered (a public user's time chart over a span that
// differs by user and start date), so each one reads the rollups: what a crowd of first visits
// and image proxies costs the database. Rounds alternate the two set-ups (a fresh server each, so
// no cache carries over); the figure is the median of each, and their ratio. The standby's own
// counters (scans of the application's tables, beside the primary's) show how much it served.
//
// What it can show on one machine: whether reads go to the replica and what the choice costs the
// service (the fence check, the second pool). What it cannot: the gain of a replica on hardware of
// its own. Here the primary, the standby, the server and the load generator share the same cores,
// so work moved to the standby is still done on them.
import autocannon from 'autocannon';
import postgres from 'postgres';
import { startCluster, startStandby, streaming } from '../tests/helpers/postgres-cluster';
import { openDb } from '../lib/db/client';
import { migrateDb } from '../lib/db/migrate';
import { machine, median, startServer, writeResults } from './common';

const USERS = Number(process.env.BENCH_USERS ?? 100);
const DAYS = 120;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ADMIN_TOKEN = 'bench-replica-admin-token-0123456789';

const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

async function seed(base: string): Promise<string[]> {
  const handles: string[] = [];
  for (let u = 0; u < USERS; u++) {
    const handle = `reader${u}`;
    const created = await fetch(`${base}/main/api/v1/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ handle, settings: { profile_public: true, share_languages: true }, token: { scopes: ['sync'] } }),
    });
    if (created.status !== 201) throw new Error(`creating ${handle}: ${created.status}`);
    const { token } = (await created.json()) as { token: string };
    const activities = Array.from({ length: DAYS }, (_, n) => [
      { language: 'TypeScript', time: 1200 + ((n * 7 + u) % 13) * 120, date: day(n + 1), hour: 9 + (n % 5), project_name: 'web' },
      { language: 'Go', time: 600 + ((n + u) % 5) * 60, date: day(n + 1), hour: 15, project_name: 'api' },
    ]).flat();
    for (let i = 0; i < activities.length; i += 100) {
      const res = await fetch(`${base}/main/api/v1/sync/activities`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ activities: activities.slice(i, i + 100) }),
      });
      if (res.status !== 200) throw new Error(`syncing ${handle}: ${res.status}`);
    }
    handles.push(handle);
  }
  return handles;
}

/** Public reads a second, each a question not asked before in this server. */
async function load(base: string, handles: string[]) {
  let n = 0;
  const to = day(0);
  const r = await autocannon({
    url: base,
    connections: 16,
    duration: SECONDS,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const i = n++;
          return { ...req, path: `/main/api/v1/get/public/time?user=${handles[i % handles.length]}&from=${day(1 + (Math.floor(i / handles.length) % 360))}&to=${to}` };
        },
      },
    ],
  });
  return { req_per_s: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non_2xx: r.non2xx, errors: r.errors };
}

/** Scans of the application's tables a server has made (its own counters): each read statement makes at least one. */
async function tableScans(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [{ n }] = await sql`SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)::float8 AS n FROM pg_stat_user_tables`;
  await sql.end();
  return Number(n);
}

async function main() {
  const settings = { max_connections: '200' };
  const primary = await startCluster({ ...streaming, ...settings });
  const standby = await startStandby(primary, { settings });
  try {
    const migration = await openDb({ databaseUrl: primary.url(), dataDir: '' }, 1, { migrations: true });
    await migrateDb(migration);
    await migration.close();
    const env = { DATABASE_URL: `${primary.url()}?max=8`, ADMIN_TOKEN, SYNC_RATE_LIMIT_PER_MINUTE: '0', READ_RATE_LIMIT_PER_MINUTE: '0' };
    const seeding = await startServer(3941, env);
    const handles = await seed(seeding.url);
    await seeding.stop();
    // The standby replays what was seeded before the runs start.
    const onPrimary = postgres(primary.url(), { max: 1, onnotice: () => {} });
    const onStandby = postgres(standby.url(), { max: 1, onnotice: () => {} });
    const [{ lsn }] = await onPrimary`SELECT pg_current_wal_lsn()::text AS lsn`;
    while ((await onStandby`SELECT pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn AS done`)[0].done !== true) await new Promise((r) => setTimeout(r, 100));
    await Promise.all([onPrimary.end(), onStandby.end()]);

    const setups = {
      primary_alone: env,
      primary_and_replica: { ...env, DATABASE_REPLICA_URL: standby.url() },
    };
    const runs: Record<keyof typeof setups, Awaited<ReturnType<typeof load>>[]> = { primary_alone: [], primary_and_replica: [] };
    const scans: Record<keyof typeof setups, { primary: number; standby: number }[]> = { primary_alone: [], primary_and_replica: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of Object.keys(setups) as (keyof typeof setups)[]) {
        const server = await startServer(3942, setups[name]);
        await new Promise((r) => setTimeout(r, 1000)); // the replica's first polls
        const before = { primary: await tableScans(primary.url()), standby: await tableScans(standby.url()) };
        runs[name].push(await load(server.url, handles));
        await server.stop();
        await new Promise((r) => setTimeout(r, 1500)); // the servers' counters are flushed
        scans[name].push({ primary: (await tableScans(primary.url())) - before.primary, standby: (await tableScans(standby.url())) - before.standby });
        console.log(name, round + 1, JSON.stringify(runs[name].at(-1)), 'table scans:', JSON.stringify(scans[name].at(-1)));
      }
    }
    const alone = median(runs.primary_alone.map((r) => r.req_per_s));
    const replicated = median(runs.primary_and_replica.map((r) => r.req_per_s));
    const results = {
      machine: machine(),
      users: USERS,
      days: DAYS,
      seconds: SECONDS,
      rounds: ROUNDS,
      req_per_s: { primary_alone: alone, primary_and_replica: replicated, ratio: Math.round((replicated / alone) * 100) / 100 },
      // The share of the runs' table scans the standby made.
      standby_share_of_scans: {
        primary_alone: median(scans.primary_alone.map((s) => s.standby / (s.standby + s.primary))),
        primary_and_replica: median(scans.primary_and_replica.map((s) => s.standby / (s.standby + s.primary))),
      },
      scans,
      runs,
    };
    console.log(JSON.stringify(results.req_per_s), JSON.stringify(results.standby_share_of_scans));
    console.log('written to', writeResults('replica', results));
  } finally {
    await standby.remove();
    await primary.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
