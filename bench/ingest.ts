// npm run bench:ingest — ingest throughput: raw upsert ceiling vs the whole service over HTTP.
// Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import http from 'node:http';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { createUser } from '../lib/accounts/users';
import { NO_DIMENSIONS, NO_LINE_CHANGES, type IdeRow } from '../lib/ingest/rows';
import { writeStatement } from '../lib/ingest/store';
import { openDb, runPrepared } from '../lib/db/client';
import { cpuMeter, freshDatabase, localPostgres, machine, median, percentile, pinDatabaseToOwnCore, startServer, writeResults, type Pids } from './common';

const BATCH = 500;
const CLIENTS = 16;
const USERS = 16;
const BATCHES_PER_USER = 40;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
/** Load before each measured phase (JIT, connections, prepared statements), then the tables are emptied. */
const WARM_UP_S = 2;
// Connections to PostgreSQL, for the service (DATABASE_URL ?max=) and the raw script alike: a
// few per database core, as an operator sizes a pool. More only queue inside PostgreSQL,
// where batches take turns on the CPU and wait on each other's locks.
const POOL = Number(process.env.BENCH_POOL ?? 4);
// Raw and service phases alternate, and medians are compared: this machine's speed drifts.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Plugins send an Idempotency-Key with every batch and the rate limit is on: the service as used.
const WITH_KEYS = process.env.BENCH_IDEMPOTENCY !== '0';
const RATE_LIMIT = process.env.BENCH_RATE_LIMIT ?? '100000000';
/** The steady load, as a share of the raw ceiling, at which latency is read (the goal: >= 70 %). */
const PACED_SHARE = 0.7;
const languages = ['TypeScript', 'Rust', 'Go', 'Python', 'SQL', 'Markdown', 'CSS', 'HTML', 'Shell', 'YAML', 'Java', 'C'];
const projects = ['api', 'web', 'cli'];

interface Bucket {
  language: string;
  time: number;
  date: string;
  hour: number;
  project_name: string;
  ide_name: string;
  lines: number;
}

/** 500 distinct buckets: 24 hours x languages x projects of one day, a different day per batch. */
function makeBatch(n: number): Bucket[] {
  const date = new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
  const out: Bucket[] = [];
  for (let i = 0; out.length < BATCH; i++) {
    out.push({
      language: languages[Math.floor(i / 24) % languages.length],
      project_name: projects[Math.floor(i / (24 * languages.length)) % projects.length],
      hour: i % 24,
      date,
      time: 30 + (i % 90),
      ide_name: 'vscode',
      lines: i % 7,
    });
  }
  return out;
}

/** The stored form of a batch, as the service hands it to its write. */
function storedRows(batch: Bucket[]): IdeRow[] {
  return batch.map((b) => ({
    date: b.date,
    hour: b.hour,
    language: b.language,
    project: b.project_name,
    editor: b.ide_name,
    ...NO_DIMENSIONS,
    millis: Math.round(b.time * 1000),
    lines: b.lines,
    ...NO_LINE_CHANGES,
  }));
}

type Truncate = () => Promise<void>;

/**
 * The raw ceiling: the database doing exactly the work of a batch (the service's own write
 * statement, rollups included, prepared as the service prepares it), sent straight through
 * postgres.js by 16 concurrent callers over a pool of the service's size: no HTTP, no
 * validation, no authentication, no idempotency record. A warm-up (connections opened,
 * statement prepared) precedes the measured phase, which starts from empty tables.
 */
async function rawCeiling(url: string, userIds: string[], batches: Bucket[][], truncate: Truncate, database: Pids) {
  const client = postgres(url, { max: POOL, onnotice: () => {} });
  const rows = batches.map(storedRows);
  const drive = async (seconds: number) => {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = c; performance.now() < deadline; i += CLIENTS) {
          const t0 = performance.now();
          await runPrepared(client, writeStatement('ide', userIds[i % userIds.length], rows[i % rows.length]));
          latencies.push(performance.now() - t0);
        }
      }),
    );
    return { latencies, seconds: (performance.now() - started) / 1000 };
  };
  try {
    await drive(WARM_UP_S);
    await truncate();
    return await metered({ database, client: () => [process.pid] }, async () => {
      const { latencies, seconds } = await drive(DURATION_S);
      return summary(latencies, seconds);
    });
  } finally {
    await client.end();
  }
}

/**
 * Runs a phase and adds the CPU time each group of processes spent on it per batch written
 * (null where /proc cannot be read, or the database is not local). With every process on the
 * same cores, these bound the ratio: (raw database + raw client) / (service's database + service
 * + load generator).
 */
async function metered<T extends { batches: number }>(groups: Record<string, Pids>, run: () => Promise<T>) {
  const meters = Object.entries(groups).map(([name, pids]) => [name, cpuMeter(pids)] as const);
  const result = await run();
  let cpu: Record<string, number> | null = {};
  for (const [name, meter] of meters) {
    const ms = meter();
    if (ms === null || result.batches === 0) cpu = null;
    else if (cpu) cpu[name] = Math.round((ms / result.batches) * 100) / 100;
  }
  return { ...result, cpu_ms_per_batch: cpu };
}

function summary(latencies: number[], seconds: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    batches: sorted.length,
    buckets_per_s: Math.round((sorted.length * BATCH) / seconds),
    p50_ms: Math.round(percentile(sorted, 50) * 10) / 10,
    p99_ms: Math.round(percentile(sorted, 99) * 10) / 10,
  };
}

/**
 * The n-th request of a run: the users' tokens in turn, a new idempotency key each. Bodies are
 * encoded once, as a plugin holds its batch's bytes: the load generator shares the machine's
 * cores with the service, and encoding 56 KB a request would be charged to the service.
 */
function requestMaker(tokens: string[], batches: Bucket[][]) {
  const bodies = batches.map((b) => Buffer.from(JSON.stringify({ activities: b })));
  let n = 0;
  return () => {
    const i = n++;
    return {
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${tokens[i % tokens.length]}`,
        ...(WITH_KEYS ? { 'idempotency-key': `bench-${i}` } : {}),
      } as Record<string, string>,
      body: bodies[i % bodies.length],
    };
  };
}

type RequestSource = ReturnType<typeof requestMaker>;

/** The service at its ceiling: 16 clients sending back to back (latency there is queueing: 16 batches in flight). */
async function saturated(serverUrl: string, next: RequestSource, seconds: number) {
  const result = await autocannon({
    url: `${serverUrl}/main/api/v1/sync/activities`,
    connections: CLIENTS,
    duration: seconds,
    requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, ...next() }) }],
  });
  return {
    requests: result.requests.total,
    batches: result['2xx'],
    non_2xx: result.non2xx,
    errors: result.errors,
    buckets_per_s: Math.round((result['2xx'] * BATCH) / result.duration),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
  };
}

/**
 * The service under a steady load: one batch every 1/rate seconds, each sent when it is due
 * whether or not earlier ones were answered (an open loop, as many independent plugins are).
 * A closed loop or a rate spread over connections sends batches in bursts and measures the bursts.
 */
async function steady(serverUrl: string, next: RequestSource, bucketsPerS: number, seconds: number) {
  const { hostname, port } = new URL(serverUrl);
  const agent = new http.Agent({ keepAlive: true });
  const post = (): Promise<number> => {
    const { headers, body } = next();
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: hostname, port, path: '/main/api/v1/sync/activities', method: 'POST', agent, headers: { ...headers, 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`HTTP ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
  const rate = bucketsPerS / BATCH;
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let failed = 0;
  const started = performance.now();
  for (let k = 0; k < rate * seconds; k++) {
    const wait = started + (k * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(post().then((ms) => void latencies.push(ms), () => void failed++));
  }
  await Promise.all(pending);
  agent.destroy();
  return { ...summary(latencies, seconds), offered_buckets_per_s: Math.round(bucketsPerS), failed };
}

/** Starts next start on a fresh process, warms it up under load, empties the tables, then runs `measure`. */
async function withService<T>(url: string, next: RequestSource, truncate: Truncate, measure: (server: { url: string; pid: number }) => Promise<T>): Promise<T> {
  const server = await startServer(3900, { DATABASE_URL: `${url}?max=${POOL}`, SYNC_RATE_LIMIT_PER_MINUTE: RATE_LIMIT });
  try {
    await saturated(server.url, next, WARM_UP_S);
    await truncate();
    return await measure(server);
  } finally {
    await server.stop();
  }
}

type Metered = { cpu_ms_per_batch: Record<string, number> | null };

/** Median CPU per batch of each process group over the rounds, and the ratio they allow on shared cores. */
function cpuMedians(raws: Metered[], services: Metered[]) {
  const of = (runs: Metered[]) => {
    if (runs.some((r) => !r.cpu_ms_per_batch)) return null;
    const names = Object.keys(runs[0].cpu_ms_per_batch!);
    return Object.fromEntries(names.map((n) => [n, median(runs.map((r) => r.cpu_ms_per_batch![n]))]));
  };
  const raw = of(raws);
  const service = of(services);
  if (!raw || !service) return null;
  const bound = (raw.database + raw.client) / (service.database + service.service + service.load_generator);
  return { raw, service, bound };
}

/** Runs both layouts and writes bench/results/ingest.json; returns the figures. */
export async function ingestBench() {
  const url = await freshDatabase('codetally_bench_ingest');
  const handle = await openDb({ databaseUrl: url, dataDir: '' }, 2);
  const users: Awaited<ReturnType<typeof createUser>>[] = [];
  for (let u = 0; u < USERS; u++) users.push(await createUser(handle.db, { handle: `bench${u}` }));
  await handle.close();
  const batches = Array.from({ length: BATCHES_PER_USER }, (_, i) => makeBatch(i));

  const truncate: Truncate = async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    // Requests of a warm-up still in flight when the load stops are let finish first (the server
    // answers them although their client has gone).
    await new Promise((r) => setTimeout(r, 500));
    await sql`TRUNCATE ide_activity, idempotency_keys, user_hours, user_days, user_day_languages, user_day_editors`;
    await sql`VACUUM ANALYZE`;
    await sql.end();
  };

  console.log(`ingest bench: ${CLIENTS} concurrent clients, ${BATCH}-bucket batches, ${DURATION_S} s per phase after ${WARM_UP_S} s of warm-up, pools of ${POOL} connections`);
  const database: Pids = (await localPostgres()) ?? (() => []);
  const phases = async (layout: string, sharedCores: boolean) => {
    const raws = [];
    const services = [];
    const paced = [];
    const userIds = users.map((u) => u.user.id);
    const next = requestMaker(users.map((u) => u.token), batches);
    for (let round = 0; round < ROUNDS; round++) {
      raws.push(await rawCeiling(url, userIds, batches, truncate, database));
      services.push(
        await withService(url, next, truncate, (server) =>
          metered({ database, service: () => [server.pid], load_generator: () => [process.pid] }, () => saturated(server.url, next, DURATION_S)),
        ),
      );
      const offered = raws[round].buckets_per_s * PACED_SHARE;
      paced.push(await withService(url, next, truncate, (server) => steady(server.url, next, offered, DURATION_S)));
    }
    const medianOf = (runs: { buckets_per_s: number; p50_ms: number; p99_ms: number }[]) => ({
      buckets_per_s: median(runs.map((r) => r.buckets_per_s)),
      p50_ms: median(runs.map((r) => r.p50_ms)),
      p99_ms: median(runs.map((r) => r.p99_ms)),
    });
    const raw = medianOf(raws);
    const svc = medianOf(services);
    const at = medianOf(paced);
    const ratio = svc.buckets_per_s / raw.buckets_per_s;
    console.log(`\n[${layout}] medians of ${ROUNDS} alternating rounds`);
    console.log(`raw write statement    : ${raw.buckets_per_s} buckets/s  p50 ${raw.p50_ms} ms  p99 ${raw.p99_ms} ms   (rounds: ${raws.map((r) => r.buckets_per_s).join(', ')})`);
    console.log(`service (next start)   : ${svc.buckets_per_s} buckets/s  p50 ${svc.p50_ms} ms  p99 ${svc.p99_ms} ms   (rounds: ${services.map((r) => r.buckets_per_s).join(', ')}; p99: ${services.map((r) => r.p99_ms).join(', ')}; non-2xx ${services.reduce((a, r) => a + r.non_2xx, 0)}, errors ${services.reduce((a, r) => a + r.errors, 0)})`);
    console.log(`ratio service/raw      : ${(ratio * 100).toFixed(1)} %  (goal >= 70 %)`);
    console.log(`service at 70 % of raw : ${at.buckets_per_s} buckets/s served of ${median(paced.map((r) => r.offered_buckets_per_s))} offered, steadily  p50 ${at.p50_ms} ms  p99 ${at.p99_ms} ms  (goal p99 < 250 ms; rounds p99: ${paced.map((r) => r.p99_ms).join(', ')}; failed ${paced.reduce((a, r) => a + r.failed, 0)})`);
    const cpu = cpuMedians(raws, services);
    if (cpu) {
      console.log(`CPU per batch (ms)     : raw: database ${cpu.raw.database}, script ${cpu.raw.client}; service: database ${cpu.service.database}, service ${cpu.service.service}, load generator ${cpu.service.load_generator}`);
      if (sharedCores) console.log(`CPU-bound ratio        : ${(cpu.bound * 100).toFixed(1)} %  (what these CPU times allow when every process shares the same cores)`);
    }
    return { raw, service: svc, ratio, at_70_percent_of_raw: at, cpu_ms_per_batch: cpu, rounds: { raw: raws, service: services, at_70_percent_of_raw: paced } };
  };

  // 1. Everything shares every core: the database, the service and the load generator compete.
  const shared = await phases('all processes share all cores', true);
  // 2. The database on a core of its own, as on its own host in production.
  let pinned: Awaited<ReturnType<typeof phases>> | null = null;
  const unpin = await pinDatabaseToOwnCore();
  if (unpin) {
    try {
      pinned = await phases('database on its own core; script or service and load generator on the other', false);
    } finally {
      unpin();
    }
  } else {
    console.log('\n(database-on-its-own-core layout skipped: needs a local PostgreSQL and taskset rights)');
  }
  const results = { at: new Date().toISOString(), machine: machine(), clients: CLIENTS, batch: BATCH, seconds: DURATION_S, warm_up_seconds: WARM_UP_S, pool: POOL, with_idempotency_keys: WITH_KEYS, shared, pinned };
  const file = writeResults('ingest', results);
  console.log(`\nfigures written to ${file}`);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ingestBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
