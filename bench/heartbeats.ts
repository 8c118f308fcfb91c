// npm run bench:heartbeats — the WakaTime-compatible heartbeat routes through the service (next
// start) on PostgreSQL: heartbeats/s at wakatime-cli's bulk of 25 and at bulk 1000, CPU per
// heartbeat of the service, the database and the load generator, p99 at 50 % of the saturating
// rate (once it settled after the saturating run) with the slowest disk flush meanwhile, and a
// trivial route of the same build for comparison; then the import of a WakaTime data dump of
// BENCH_IMPORT_MB (1024; 0: none) through a fresh server whose V8 heap is capped at
// BENCH_IMPORT_HEAP_MB (256): heartbeats/s read, the server's peak memory, and the same dump
// imported again. Needs PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import autocannon from 'autocannon';
import { createUser } from '../lib/accounts/users';
import { openDb, rows } from '../lib/db/client';
import { issueToken } from '../lib/accounts/tokens';
import { bulkAnswer } from '../lib/wakatime/sending/heartbeat-answers';
import { readHeartbeats } from '../lib/wakatime/sending/heartbeat-check';
import { statementBatch } from '../lib/wakatime/sending/heartbeat-store';
import { LATE_LIMIT_MS } from '../lib/wakatime/sending/heartbeat';
import { writeDump } from './dump';
import { cpuMeter, diskFlushProbe, freshDatabase, localPostgres, machine, median, percentile, startServer, writeResults, type Pids } from './common';

const USERS = 64;
const CLIENTS = 16;
const POOL = Number(process.env.BENCH_POOL ?? 4);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
/** Requests a paced round counts at least (see steady). */
const PACED_REQUESTS = 1000;
/** Seconds of the paced load, after a saturating run, before its latencies count (see steady). */
const SETTLE_S = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BULKS = [25, 1000];
const IMPORT_MB = Number(process.env.BENCH_IMPORT_MB ?? 1024);
/** The V8 heap limit of the server that imports (MB): the import must run within it. */
const IMPORT_HEAP_MB = Number(process.env.BENCH_IMPORT_HEAP_MB ?? 256);
const userAgent = 'wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';
const languages = ['TypeScript', 'Go', 'Rust', 'Python'];

/**
 * Request bodies of fresh heartbeats, each user's in time order (as a plugin sends them), users in
 * turn: 30 s apart, 10 s in bulks of 1000 (whose rounds would otherwise run out of the 13 days).
 */
function heartbeatSource(keys: string[], bulk: number) {
  const step = bulk >= 1000 ? 10 : 30;
  const cursor = keys.map(() => Math.floor(Date.now() / 1000) - 13 * 86_400);
  let n = 0;
  return () => {
    const u = n++ % keys.length;
    // Heartbeats from the future are refused one by one inside a 201: the figures would count them.
    if (cursor[u] + bulk * step > Date.now() / 1000) throw new Error(`the bench's heartbeats reached the present: fewer rounds or seconds (bulk ${bulk})`);
    const beats = Array.from({ length: bulk }, (_, i) => ({
      entity: `/home/dev/src/module${i % 7}.ts`,
      type: 'file',
      time: cursor[u] + i * step,
      category: 'coding',
      project: `project${u % 3}`,
      language: languages[i % languages.length],
    }));
    cursor[u] += bulk * step;
    return {
      headers: { authorization: `Basic ${Buffer.from(keys[u]).toString('base64')}`, 'content-type': 'application/json', 'user-agent': userAgent },
      body: JSON.stringify(beats),
    };
  };
}

type Source = ReturnType<typeof heartbeatSource>;

async function saturated(url: string, path: string, next: Source | null, seconds: number) {
  const result = await autocannon({
    url: `${url}${path}`,
    connections: CLIENTS,
    duration: seconds,
    requests: [next ? { method: 'POST', setupRequest: (req) => ({ ...req, ...next() }) } : { method: 'GET' }],
  });
  return { requests: result['2xx'], non_2xx: result.non2xx, errors: result.errors, per_s: result['2xx'] / result.duration, p50_ms: result.latency.p50, p99_ms: result.latency.p99 };
}

/**
 * An open loop at `perS` requests a second: each sent when due, answered or not. The load runs
 * SETTLE_S longer than `seconds`, first: it follows a saturating run, whose leftovers (the
 * server's garbage, the database's dirty pages and vacuum) are not what this load costs. The
 * p99 of that settling time is reported too.
 */
async function steady(url: string, path: string, next: Source, perS: number, seconds: number) {
  const { hostname, port } = new URL(url);
  const agent = new http.Agent({ keepAlive: true });
  const latencies: number[] = [];
  const settling: number[] = [];
  const settle = Math.round(perS * SETTLE_S);
  /** Requests not answered 201, by what came instead: a status, or the client's error code. */
  const failed: Record<string, number> = {};
  const fail = (why: string) => (failed[why] = (failed[why] ?? 0) + 1);
  const pending: Promise<void>[] = [];
  const probe = diskFlushProbe();
  const started = performance.now();
  for (let k = 0; k < settle + perS * seconds; k++) {
    const wait = started + (k * 1000) / perS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const { headers, body } = next();
    const t0 = performance.now();
    pending.push(
      new Promise<void>((resolve) => {
        const req = http.request({ host: hostname, port, path, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 201) (k < settle ? settling : latencies).push(performance.now() - t0);
            else fail(`status ${res.statusCode}`);
            resolve();
          });
        });
        req.on('error', (err: NodeJS.ErrnoException) => {
          fail(err.code ?? err.message);
          resolve();
        });
        req.end(body);
      }),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  const counted = started + (settle * 1000) / perS;
  const flushes = (await probe.stop()).filter((f) => f.at >= counted).map((f) => f.ms);
  const p = (times: number[], q: number) => Math.round(percentile(times.sort((a, b) => a - b), q) * 10) / 10;
  return { offered_per_s: perS, p50_ms: p(latencies, 50), p99_ms: p(latencies, 99), settling_p99_ms: p(settling, 99), failed, slowest_disk_flush_ms: p(flushes, 100) };
}

/**
 * The conversion alone, in this process, per request: reading the body's heartbeats, checking each,
 * digesting entities, making the statement's batch and the per-heartbeat answer (as bytes): what the route
 * does beyond carrying an HTTP request and a statement. `with_parse_ms` counts JSON.parse of the
 * body; `after_parse_ms` starts from the parsed body: our code only (the medians of 200 requests,
 * after 200 to warm up). Counted in CPU time, as the service's figures are: the database that
 * was just made may still be writing it out on the other core.
 */
async function conversionInProcess(databaseUrl: string, next: Source): Promise<{ with_parse_ms: number; after_parse_ms: number }> {
  const handle = await openDb({ databaseUrl, dataDir: '' }, 1);
  try {
    const bodies = Array.from({ length: 400 }, () => next().body);
    const withParse: number[] = [];
    const afterParse: number[] = [];
    const cpu = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    for (const [i, body] of bodies.entries()) {
      const t0 = cpu();
      const items = JSON.parse(body) as unknown[];
      const t1 = cpu();
      // No placeholder among them: the user is never read.
      const { valid, results } = await readHeartbeats(handle.db, { id: '00000000-0000-4000-8000-000000000000' }, items, { userAgent });
      // As the bytes sent (the statement's parameter and the answer are encoded as they are sent).
      Buffer.from(statementBatch(valid, Date.now() - LATE_LIMIT_MS).beats);
      Buffer.from(JSON.stringify(bulkAnswer(results)));
      const t2 = cpu();
      if (i >= 200) {
        withParse.push(t2 - t0);
        afterParse.push(t2 - t1);
      }
    }
    const ms = (times: number[]) => Math.round(median(times) * 1000) / 1000;
    return { with_parse_ms: ms(withParse), after_parse_ms: ms(afterParse) };
  } finally {
    await handle.close();
  }
}

/** CPU ms per unit of each process group while `run` runs. */
async function metered<T extends { requests: number }>(groups: Record<string, Pids>, units: (r: T) => number, run: () => Promise<T>) {
  const meters = Object.entries(groups).map(([name, pids]) => [name, cpuMeter(pids)] as const);
  const result = await run();
  const cpu: Record<string, number> = {};
  for (const [name, meter] of meters) {
    const ms = meter();
    // Four significant digits: at bulk 1000 a heartbeat costs the service some 0.003 ms.
    if (ms !== null && units(result) > 0) cpu[name] = Number((ms / units(result)).toPrecision(4));
  }
  return { ...result, cpu_ms_per_unit: cpu };
}

/** Runs every phase and writes bench/results/heartbeats.json; returns the figures. */
export async function heartbeatsBench(): Promise<Record<string, unknown>> {
  const url = await freshDatabase('codetally_bench_heartbeats');
  const handle = await openDb({ databaseUrl: url, dataDir: '' }, 2);
  const keys: string[] = [];
  for (let u = 0; u < USERS; u++) keys.push((await createUser(handle.db, { handle: `beat${u}`, token: { format: 'uuid' } })).token);
  await handle.close();
  const database: Pids = (await localPostgres()) ?? (() => []);
  const results: Record<string, unknown> = {};
  // BENCH_IMPORT_ONLY=1: the import alone.
  if (process.env.BENCH_IMPORT_ONLY) {
    results.import = await importBench(url, database);
    console.log(`\nwritten to ${writeResults('heartbeats-import', results)}`);
    return results;
  }
  const server = await startServer(3901, { DATABASE_URL: `${url}?max=${POOL}`, SYNC_RATE_LIMIT_PER_MINUTE: '100000000', SYNC_USER_RATE_LIMIT_PER_MINUTE: '100000000' });
  const groups = { service: () => [server.pid], database, load_generator: () => [process.pid] };
  const path = '/api/wakatime/v1/users/current/heartbeats.bulk';
  console.log(`heartbeat bench: ${USERS} users, ${CLIENTS} concurrent clients, ${DURATION_S} s per phase, ${ROUNDS} alternating rounds, pools of ${POOL}`);
  try {
    const sources = Object.fromEntries(BULKS.map((b) => [b, heartbeatSource(keys, b)]));
    // The conversion in process first, while the database is idle (after a load, its autovacuum
    // shares the machine's cores with this process).
    const inProcess: Record<number, Awaited<ReturnType<typeof conversionInProcess>>> = {};
    for (const b of BULKS) inProcess[b] = await conversionInProcess(url, heartbeatSource(keys, b)); // a source of its own: the load's times stay in the past
    for (const b of BULKS) await saturated(server.url, path, sources[b], 2); // warm-up: JIT, connections, plans
    await saturated(server.url, '/main/api/v1/ping', null, 2);
    // The build just written and the fresh database go to the disk now: the kernel would write
    // them back during the first rounds, and the load's commits would wait behind that.
    execFileSync('sync');
    type Run = Awaited<ReturnType<typeof saturated>> & { cpu_ms_per_unit: Record<string, number> };
    const rounds: Record<string, Run[]> = { ping: [] };
    const paced: Record<string, Awaited<ReturnType<typeof steady>>[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      rounds.ping.push(await metered(groups, (r) => r.requests, () => saturated(server.url, '/main/api/v1/ping', null, DURATION_S)));
      for (const b of BULKS) {
        const run = await metered(groups, (r) => r.requests * b, () => saturated(server.url, path, sources[b], DURATION_S));
        (rounds[b] ??= []).push(run);
        // At least PACED_REQUESTS a round: a p99 of fewer (bulk 1000 at half load is some 35 a
        // second) would be the third-slowest request of the round.
        const perS = run.per_s * 0.5;
        (paced[b] ??= []).push(await steady(server.url, path, sources[b], perS, Math.max(DURATION_S, PACED_REQUESTS / perS)));
      }
    }
    const cpu = (runs: { cpu_ms_per_unit: Record<string, number> }[], name: string) => median(runs.map((r) => r.cpu_ms_per_unit[name] ?? NaN));
    const ping = rounds.ping;
    const pingService = cpu(ping, 'service');
    Object.assign(results, { at: new Date().toISOString(), machine: machine(), users: USERS, clients: CLIENTS, pool: POOL, seconds: DURATION_S, rounds: ROUNDS });
    results.trivial_route = { requests_per_s: Math.round(median(ping.map((r) => r.per_s))), service_cpu_ms_per_request: pingService };
    console.log(`\ntrivial route GET /ping      : ${Math.round(median(ping.map((r) => r.per_s)))} req/s, service CPU ${pingService} ms a request`);
    for (const b of BULKS) {
      const runs = rounds[b];
      const perS = median(runs.map((r) => r.per_s));
      const service = cpu(runs, 'service');
      const db = cpu(runs, 'database');
      const loadGen = cpu(runs, 'load_generator');
      // What converting heartbeats costs the service beyond carrying the request, per request.
      const conversion = service * b - pingService;
      const at50 = {
        p50_ms: median(paced[b].map((r) => r.p50_ms)),
        p99_ms: median(paced[b].map((r) => r.p99_ms)),
        rounds_p99_ms: paced[b].map((r) => r.p99_ms),
        settling_p99_ms: paced[b].map((r) => r.settling_p99_ms),
        slowest_disk_flush_ms: paced[b].map((r) => r.slowest_disk_flush_ms),
        // What came instead of a 201 (a status, or the client's error code), over the rounds.
        failed: paced[b].reduce<Record<string, number>>((all, r) => {
          for (const [why, n] of Object.entries(r.failed)) all[why] = (all[why] ?? 0) + n;
          return all;
        }, {}),
      };
      const row = {
        heartbeats_per_s: Math.round(perS * b),
        requests_per_s: Math.round(perS * 10) / 10,
        saturated_p50_ms: median(runs.map((r) => r.p50_ms)),
        saturated_p99_ms: median(runs.map((r) => r.p99_ms)),
        cpu_ms_per_heartbeat: { service, database: db, load_generator: loadGen },
        service_cpu_ms_per_request: Math.round(service * b * 100) / 100,
        conversion_vs_trivial_request: Math.round((conversion / pingService) * 100) / 100,
        conversion_in_process_ms_per_request: inProcess[b].with_parse_ms,
        conversion_in_process_vs_trivial_request: Math.round((inProcess[b].with_parse_ms / pingService) * 100) / 100,
        conversion_after_parse_ms_per_request: inProcess[b].after_parse_ms,
        conversion_after_parse_vs_trivial_request: Math.round((inProcess[b].after_parse_ms / pingService) * 100) / 100,
        at_50_percent: at50,
        non_2xx: runs.reduce((a, r) => a + r.non_2xx, 0),
      };
      results[`bulk_${b}`] = row;
      console.log(
        `bulk ${String(b).padEnd(4)}: ${row.heartbeats_per_s} heartbeats/s (${row.requests_per_s} req/s), saturated p99 ${row.saturated_p99_ms} ms; ` +
          `CPU per heartbeat: service ${service} ms, database ${db} ms, load generator ${loadGen} ms; ` +
          `service CPU a request ${row.service_cpu_ms_per_request} ms = trivial request + ${row.conversion_vs_trivial_request}x it; ` +
          `the conversion alone (in process) with JSON.parse ${inProcess[b].with_parse_ms} ms = ${row.conversion_in_process_vs_trivial_request}x the trivial request, ` +
          `after it (our code) ${inProcess[b].after_parse_ms} ms = ${row.conversion_after_parse_vs_trivial_request}x; ` +
          `at 50 %: p50 ${at50.p50_ms} ms, p99 ${at50.p99_ms} ms (rounds ${at50.rounds_p99_ms.join(', ')}; the ${SETTLE_S} s settling before each ${at50.settling_p99_ms.join(', ')}; ` +
          `the slowest 8 kB disk flush in each ${at50.slowest_disk_flush_ms.join(', ')} ms; failed ${JSON.stringify(at50.failed)}); non-2xx ${row.non_2xx}`,
      );
    }
  } finally {
    await server.stop();
  }
  if (IMPORT_MB > 0) results.import = await importBench(url, database);
  console.log(`\nwritten to ${writeResults('heartbeats', results)}`);
  return results;
}

/** A process's resident memory now and at its peak since the peak was last reset, in MB (Linux). */
function memory(pid: number): { rss_mb: number; peak_mb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss_mb: Math.round(kb('VmRSS') / 1024), peak_mb: Math.round(kb('VmHWM') / 1024) };
}

/** Uploads a file as the body of POST /me/imports; resolves with the answer. */
function upload(url: string, token: string, file: string): Promise<{ status: number; body: { id: string } }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: hostname, port, path: '/main/api/v1/me/imports', method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': fs.statSync(file).size } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    fs.createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(req);
  });
}

/** The import of a dump of IMPORT_MB through a fresh server, twice (the second counts nothing new). */
async function importBench(databaseUrl: string, database: Pids): Promise<Record<string, unknown>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-import-bench-'));
  const file = path.join(dir, 'dump.json');
  const handle = await openDb({ databaseUrl, dataDir: '' }, 1);
  const { user } = await createUser(handle.db, { handle: 'importer' });
  const { token } = await issueToken(handle.db, user.id, { name: 'import', scopes: ['account'] });
  const total = async () =>
    (await rows<{ ms: number }>(handle.db, sql`SELECT coalesce(sum(millis), 0)::float8 AS ms FROM ide_activity WHERE user_id = ${user.id}::uuid`))[0].ms;
  console.log(`\nwriting a ${IMPORT_MB} MB dump...`);
  const heartbeats = await writeDump(file, IMPORT_MB * 1024 * 1024, 1500, 20);
  const bytes = fs.statSync(file).size;
  const server = await startServer(3902, { DATABASE_URL: `${databaseUrl}?max=${POOL}`, DATA_DIR: dir }, [`--max-old-space-size=${IMPORT_HEAP_MB}`]);
  const results: Record<string, unknown> = { dump_mb: Math.round(bytes / 1024 / 1024), heartbeats, server_heap_limit_mb: IMPORT_HEAP_MB };
  try {
    const runs = [];
    for (const run of ['first', 'again']) {
      const before = memory(server.pid);
      fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5'); // resets the peak to the current size
      const cpu = { service: cpuMeter(() => [server.pid]), database: cpuMeter(database) };
      const t0 = performance.now();
      const answer = await upload(server.url, token, file);
      if (answer.status !== 202) throw new Error(`the import answered ${answer.status}`);
      const uploaded = performance.now();
      const uploadPeak = memory(server.pid).peak_mb;
      fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
      let state: { done: boolean; status: string; heartbeats_read: number; error: string | null };
      do {
        await new Promise((r) => setTimeout(r, 250));
        state = await (await fetch(`${server.url}/main/api/v1/me/imports/${answer.body.id}`, { headers: { authorization: `Bearer ${token}` } })).json();
      } while (!state.done);
      const read = (performance.now() - uploaded) / 1000;
      if (state.status !== 'done') throw new Error(`the import failed: ${state.error}`);
      const after = memory(server.pid);
      const row = {
        run,
        upload_s: Math.round((uploaded - t0) / 100) / 10,
        read_s: Math.round(read * 10) / 10,
        heartbeats_per_s: Math.round(state.heartbeats_read / read),
        end_to_end_heartbeats_per_s: Math.round(state.heartbeats_read / ((performance.now() - t0) / 1000)),
        cpu_ms_per_1000_heartbeats: { service: Math.round(((cpu.service() ?? NaN) / heartbeats) * 1000 * 10) / 10, database: Math.round(((cpu.database() ?? NaN) / heartbeats) * 1000 * 10) / 10 },
        server_rss_mb: { before: before.rss_mb, peak_uploading: uploadPeak, peak_reading: after.peak_mb, after: after.rss_mb },
        ide_hours_stored: Math.round(((await total()) / 3_600_000) * 10) / 10,
      };
      runs.push(row);
      console.log(
        `import ${run.padEnd(5)}: ${results.dump_mb} MB, ${heartbeats} heartbeats, server heap limit ${IMPORT_HEAP_MB} MB: upload ${row.upload_s} s, read ${row.read_s} s = ${row.heartbeats_per_s} heartbeats/s ` +
          `(end to end ${row.end_to_end_heartbeats_per_s}/s); CPU per 1000: service ${row.cpu_ms_per_1000_heartbeats.service} ms, database ${row.cpu_ms_per_1000_heartbeats.database} ms; ` +
          `server memory ${row.server_rss_mb.before} MB before, peak ${row.server_rss_mb.peak_uploading} MB uploading, ${row.server_rss_mb.peak_reading} MB reading; ${row.ide_hours_stored} hours stored`,
      );
    }
    results.runs = runs;
  } finally {
    await server.stop();
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  heartbeatsBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
