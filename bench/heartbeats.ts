// npm run bench:heartbeats — the WakaTime-compatible heartbeat routes through the service (next
// start) on PostgreSQL: heartbeats/s at wakatime-cli's bulk of 25 and at bulk 1000, CPU per
// heartbeat of the service, the database and the load generator, p99 at 50 % of the saturating
// rate, and a trivial route of the same build for comparison. Needs PostgreSQL
// (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import http from 'node:http';
import autocannon from 'autocannon';
import { createUser } from '../lib/accounts/users';
import { openDb } from '../lib/db/client';
import { cpuMeter, freshDatabase, localPostgres, machine, median, percentile, startServer, writeResults, type Pids } from './common';

const USERS = 64;
const CLIENTS = 16;
const POOL = Number(process.env.BENCH_POOL ?? 4);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BULKS = [25, 1000];
const userAgent = 'wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';
const languages = ['TypeScript', 'Go', 'Rust', 'Python'];

/** Request bodies of fresh heartbeats, 30 s apart, each user's in time order (as a plugin sends them), users in turn. */
function heartbeatSource(keys: string[], bulk: number) {
  const cursor = keys.map(() => Math.floor(Date.now() / 1000) - 13 * 86_400);
  let n = 0;
  return () => {
    const u = n++ % keys.length;
    const beats = Array.from({ length: bulk }, (_, i) => ({
      entity: `/home/dev/src/module${i % 7}.ts`,
      type: 'file',
      time: cursor[u] + i * 30,
      category: 'coding',
      project: `project${u % 3}`,
      language: languages[i % languages.length],
    }));
    cursor[u] += bulk * 30;
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

/** An open loop at `perS` requests a second: each sent when due, answered or not. */
async function steady(url: string, path: string, next: Source, perS: number, seconds: number) {
  const { hostname, port } = new URL(url);
  const agent = new http.Agent({ keepAlive: true });
  const latencies: number[] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  const started = performance.now();
  for (let k = 0; k < perS * seconds; k++) {
    const wait = started + (k * 1000) / perS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const { headers, body } = next();
    const t0 = performance.now();
    pending.push(
      new Promise<void>((resolve) => {
        const req = http.request({ host: hostname, port, path, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 201) latencies.push(performance.now() - t0);
            else failed++;
            resolve();
          });
        });
        req.on('error', () => {
          failed++;
          resolve();
        });
        req.end(body);
      }),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  return { offered_per_s: perS, p50_ms: Math.round(percentile(sorted, 50) * 10) / 10, p99_ms: Math.round(percentile(sorted, 99) * 10) / 10, failed };
}

/** CPU ms per unit of each process group while `run` runs. */
async function metered<T extends { requests: number }>(groups: Record<string, Pids>, units: (r: T) => number, run: () => Promise<T>) {
  const meters = Object.entries(groups).map(([name, pids]) => [name, cpuMeter(pids)] as const);
  const result = await run();
  const cpu: Record<string, number> = {};
  for (const [name, meter] of meters) {
    const ms = meter();
    if (ms !== null && units(result) > 0) cpu[name] = Math.round((ms / units(result)) * 1000) / 1000;
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
  const server = await startServer(3901, { DATABASE_URL: `${url}?max=${POOL}`, SYNC_RATE_LIMIT_PER_MINUTE: '100000000', SYNC_USER_RATE_LIMIT_PER_MINUTE: '100000000' });
  const groups = { service: () => [server.pid], database, load_generator: () => [process.pid] };
  const path = '/api/wakatime/v1/users/current/heartbeats.bulk';
  console.log(`heartbeat bench: ${USERS} users, ${CLIENTS} concurrent clients, ${DURATION_S} s per phase, ${ROUNDS} alternating rounds, pools of ${POOL}`);
  try {
    const sources = Object.fromEntries(BULKS.map((b) => [b, heartbeatSource(keys, b)]));
    for (const b of BULKS) await saturated(server.url, path, sources[b], 2); // warm-up: JIT, connections, plans
    await saturated(server.url, '/main/api/v1/ping', null, 2);
    type Run = Awaited<ReturnType<typeof saturated>> & { cpu_ms_per_unit: Record<string, number> };
    const rounds: Record<string, Run[]> = { ping: [] };
    const paced: Record<string, Awaited<ReturnType<typeof steady>>[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      rounds.ping.push(await metered(groups, (r) => r.requests, () => saturated(server.url, '/main/api/v1/ping', null, DURATION_S)));
      for (const b of BULKS) {
        const run = await metered(groups, (r) => r.requests * b, () => saturated(server.url, path, sources[b], DURATION_S));
        (rounds[b] ??= []).push(run);
        (paced[b] ??= []).push(await steady(server.url, path, sources[b], run.per_s * 0.5, DURATION_S));
      }
    }
    const cpu = (runs: { cpu_ms_per_unit: Record<string, number> }[], name: string) => median(runs.map((r) => r.cpu_ms_per_unit[name] ?? NaN));
    const ping = rounds.ping;
    const pingService = cpu(ping, 'service');
    const results: Record<string, unknown> = { at: new Date().toISOString(), machine: machine(), users: USERS, clients: CLIENTS, pool: POOL, seconds: DURATION_S, rounds: ROUNDS };
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
      const at50 = { p50_ms: median(paced[b].map((r) => r.p50_ms)), p99_ms: median(paced[b].map((r) => r.p99_ms)), failed: paced[b].reduce((a, r) => a + r.failed, 0) };
      const row = {
        heartbeats_per_s: Math.round(perS * b),
        requests_per_s: Math.round(perS * 10) / 10,
        saturated_p50_ms: median(runs.map((r) => r.p50_ms)),
        saturated_p99_ms: median(runs.map((r) => r.p99_ms)),
        cpu_ms_per_heartbeat: { service, database: db, load_generator: loadGen },
        service_cpu_ms_per_request: Math.round(service * b * 100) / 100,
        conversion_vs_trivial_request: Math.round((conversion / pingService) * 100) / 100,
        at_50_percent: at50,
        non_2xx: runs.reduce((a, r) => a + r.non_2xx, 0),
      };
      results[`bulk_${b}`] = row;
      console.log(
        `bulk ${String(b).padEnd(4)}: ${row.heartbeats_per_s} heartbeats/s (${row.requests_per_s} req/s), saturated p99 ${row.saturated_p99_ms} ms; ` +
          `CPU per heartbeat: service ${service} ms, database ${db} ms, load generator ${loadGen} ms; ` +
          `service CPU a request ${row.service_cpu_ms_per_request} ms = trivial request + ${row.conversion_vs_trivial_request}x it; ` +
          `at 50 %: p50 ${at50.p50_ms} ms, p99 ${at50.p99_ms} ms (failed ${at50.failed}); non-2xx ${row.non_2xx}`,
      );
    }
    console.log(`\nwritten to ${writeResults('heartbeats', results)}`);
    return results;
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  heartbeatsBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
