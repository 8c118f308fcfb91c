// BENCH_AGAINST=<folder> npm run bench:writes-ab — the write routes of this build against another
// build of the project (a checkout of an earlier commit with `npm ci && npm run build` done in
// it), in one run: both served at once on PostgreSQL, each on a fresh database of its own
// migrations, loaded in turn round by round (the order alternating): WakaTime heartbeats at
// wakatime-cli's bulk of 25 and at bulk 1000, and sync batches of 500 buckets with an
// Idempotency-Key each, 16 clients, pools of 4, through the token admission clients go through.
// Prints the rate of each round, the medians and the paired ratios (this build over the other),
// the service's CPU per request and the write statement's database time per call
// (pg_stat_statements, when the server preloads it). Needs PostgreSQL (BENCH_DATABASE_URL).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { ensureBuild } from '../scripts/build';
import { benchBaseUrl, databaseUrl, machine, median, writeResults } from './common';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const USERS = 64;
/** Heartbeat bulks, then the sync route's batch of 500 buckets (SYNC). */
const SYNC = 500;
const BULKS = [25, 1000, SYNC];
const projects = ['api', 'web', 'cli'];
const ADMIN = 'bench-admin-token-0123456789';
const userAgent = 'wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';
const languages = ['TypeScript', 'Go', 'Rust', 'Python'];

interface Build {
  name: string;
  dir: string;
  port: number;
  db: string;
  child?: ChildProcess;
  keys: string[];
  /** Each user's next heartbeat time (s), 13 days back at first: heartbeats as a plugin sends them. */
  cursor: number[];
  dbid?: number;
}

const envOf = (b: Build) => ({
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  AUTH_SECRET: 'bench-auth-secret-0123456789abcdefghij',
  DATABASE_URL: `${databaseUrl(b.db)}?max=4`,
  PORT: String(b.port),
  ADMIN_TOKEN: ADMIN,
  SYNC_RATE_LIMIT_PER_MINUTE: '100000000',
  SYNC_USER_RATE_LIMIT_PER_MINUTE: '100000000',
});

/** CPU ms a process used so far (/proc). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A fresh database of the build's own migrations, its server, and users with WakaTime keys made through its admin route. */
async function start(b: Build, admin: postgres.Sql): Promise<void> {
  await admin.unsafe(`DROP DATABASE IF EXISTS ${b.db} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${b.db}`);
  execFileSync(process.execPath, [path.join(b.dir, '.next/codetally/migrate.mjs')], { cwd: b.dir, env: envOf(b), stdio: 'ignore' });
  b.child = spawn(process.execPath, [path.join(b.dir, '.next/codetally/serve.mjs')], { cwd: b.dir, env: envOf(b), stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${b.port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/main/api/v1/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (i > 600) throw new Error(`the ${b.name} build did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  for (let u = 0; u < USERS; u++) {
    const res = await fetch(`${url}/main/api/v1/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ handle: `beat${u}`, token: { scopes: ['sync'], format: 'uuid' } }), // a WakaTime key, and a sync token
    });
    if (res.status !== 201) throw new Error(`${b.name}: making a user answered ${res.status}`);
    b.keys.push(((await res.json()) as { token: string }).token);
  }
  b.cursor = b.keys.map(() => Math.floor(Date.now() / 1000) - 13 * 86_400);
  b.dbid = (await admin<{ oid: number }[]>`SELECT oid::int FROM pg_database WHERE datname = ${b.db}`)[0].oid;
}

/** Saturating load of sync batches: 500 buckets of a minute each, over the last 30 days' hours. */
function syncLoad(b: Build, seconds: number) {
  let n = 0;
  const today = Date.now() - (Date.now() % 86_400_000);
  return autocannon({
    url: `http://127.0.0.1:${b.port}/main/api/v1/sync/activities`,
    connections: 16,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const k = n++;
          const activities = Array.from({ length: SYNC }, (_, i) => ({
            date: new Date(today - ((k + i) % 30) * 86_400_000).toISOString().slice(0, 10),
            hour: (k * 7 + i) % 24,
            language: languages[i % languages.length],
            project_name: projects[(k + i) % projects.length],
            ide_name: 'vscode',
            time: 60,
          }));
          return { ...req, headers: { authorization: `Bearer ${b.keys[k % b.keys.length]}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: JSON.stringify({ activities }) };
        },
      },
    ],
  });
}

/** Saturating load of fresh heartbeats, each user's in time order: 30 s apart, 10 s in bulks of 1000. */
function load(b: Build, bulk: number, seconds: number) {
  if (bulk === SYNC) return syncLoad(b, seconds);
  const step = bulk >= 1000 ? 10 : 30;
  let n = 0;
  return autocannon({
    url: `http://127.0.0.1:${b.port}/api/wakatime/v1/users/current/heartbeats.bulk`,
    connections: 16,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const u = n++ % b.keys.length;
          const beats = Array.from({ length: bulk }, (_, i) => ({ entity: `/home/dev/src/module${i % 7}.ts`, type: 'file', time: b.cursor[u] + i * step, category: 'coding', project: `project${u % 3}`, language: languages[i % languages.length] }));
          b.cursor[u] += bulk * step;
          if (b.cursor[u] > Date.now() / 1000) throw new Error('the heartbeats reached the present: fewer rounds or seconds');
          return { ...req, headers: { authorization: `Basic ${Buffer.from(b.keys[u]).toString('base64')}`, 'content-type': 'application/json', 'user-agent': userAgent }, body: JSON.stringify(beats) };
        },
      },
    ],
  });
}

async function main() {
  const against = process.env.BENCH_AGAINST;
  if (!against || !fs.existsSync(path.join(against, '.next/codetally/serve.mjs'))) throw new Error('BENCH_AGAINST must name a folder of the project with a production build (npm ci && npm run build)');
  ensureBuild();
  const admin = postgres(benchBaseUrl, { max: 1, onnotice: () => {} });
  const builds: Build[] = [
    { name: 'other', dir: path.resolve(against), port: 3931, db: 'codetally_bench_ab_other', keys: [], cursor: [] },
    { name: 'this', dir: process.cwd(), port: 3932, db: 'codetally_bench_ab_this', keys: [], cursor: [] },
  ];
  try {
    for (const b of builds) await start(b, admin);
    const statements = (await admin`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_stat_statements'`)[0].n > 0;
    const dbTime = async (b: Build) => {
      if (!statements) return { t: NaN, c: 1 };
      // The heartbeat statement, or the sync route's (which inserts into ide_activity from its JSON parameter).
      const [r] = await admin<{ t: number; c: number }[]>`SELECT coalesce(sum(total_exec_time), 0)::float8 AS t, coalesce(sum(calls), 0)::float8 AS c FROM pg_stat_statements
        WHERE dbid = ${b.dbid!} AND (query LIKE '%INSERT INTO "heartbeats"%' OR (query LIKE '%INSERT INTO "ide_activity"%' AND query NOT LIKE '%"heartbeats"%'))`;
      return r;
    };
    for (const b of builds) for (const bulk of BULKS) await load(b, bulk, 2); // warm-up: JIT, connections, plans
    execFileSync('sync');
    const runs: Record<string, Record<number, { per_s: number[]; cpu_ms: number[]; db_ms: number[] }>> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const bulk of BULKS) {
        for (const b of round % 2 ? [...builds].reverse() : builds) {
          const [c0, d0] = [cpuMs(b.child!.pid!), await dbTime(b)];
          const res = await load(b, bulk, SECONDS);
          const [c1, d1] = [cpuMs(b.child!.pid!), await dbTime(b)];
          if (res.non2xx || res.errors) throw new Error(`${b.name} answered ${res.non2xx} requests with an error status, ${res.errors} failed`);
          const r = ((runs[b.name] ??= {})[bulk] ??= { per_s: [], cpu_ms: [], db_ms: [] });
          r.per_s.push(Math.round((res['2xx'] * bulk) / res.duration)); // heartbeats or buckets a second
          r.cpu_ms.push((c1 - c0) / res['2xx']);
          r.db_ms.push((d1.t - d0.t) / (d1.c - d0.c));
        }
      }
    }
    const results: Record<string, unknown> = { at: new Date().toISOString(), machine: machine(), against: path.basename(against), rounds: ROUNDS, seconds: SECONDS };
    console.log(`write A/B: this build against ${against}, ${ROUNDS} rounds of ${SECONDS} s, ${USERS} users, 16 clients, pools of 4`);
    for (const bulk of BULKS) {
      const [o, t] = [runs.other[bulk], runs.this[bulk]];
      const paired = t.per_s.map((x, i) => Number((x / o.per_s[i]).toFixed(3)));
      const row = {
        per_s: { other: o.per_s, this: t.per_s },
        ratio_of_medians: Number((median(t.per_s) / median(o.per_s)).toFixed(3)),
        paired_ratios: paired,
        median_paired_ratio: median(paired),
        service_cpu_ms_per_request: { other: Number(median(o.cpu_ms).toFixed(2)), this: Number(median(t.cpu_ms).toFixed(2)) },
        statement_ms_per_call: { other: Number(median(o.db_ms).toFixed(2)), this: Number(median(t.db_ms).toFixed(2)) },
      };
      const what = bulk === SYNC ? `sync batches of ${SYNC}` : `heartbeats, bulk ${bulk}`;
      results[bulk === SYNC ? 'sync' : `bulk_${bulk}`] = row;
      console.log(
        `${what}: other ${o.per_s.join('/')} a second; this ${t.per_s.join('/')}; ratio of medians ${row.ratio_of_medians}, median of paired ratios ${row.median_paired_ratio}; ` +
          `service CPU ${row.service_cpu_ms_per_request.other} / ${row.service_cpu_ms_per_request.this} ms a request; statement ${row.statement_ms_per_call.other} / ${row.statement_ms_per_call.this} ms a call`,
      );
    }
    console.log(`\nwritten to ${writeResults('writes-ab', results)}`);
  } finally {
    for (const b of builds) b.child?.kill('SIGTERM');
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
