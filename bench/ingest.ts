// npm run bench:ingest — ingest throughput: raw upsert ceiling vs the whole service over HTTP.
// Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import autocannon from 'autocannon';
import postgres from 'postgres';
import { createUser } from '../lib/accounts/users';
import type { IdeRow } from '../lib/ingest/buckets';
import { writeStatement } from '../lib/ingest/store';
import { openDb, runPrepared } from '../lib/db/client';
import { freshDatabase, machine, median, percentile, pinDatabaseToOwnCore, startServer, writeResults } from './common';

const BATCH = 500;
const CLIENTS = 16;
const USERS = 16;
const BATCHES_PER_USER = 40;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
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
    millis: Math.round(b.time * 1000),
    lines: b.lines,
  }));
}

/**
 * The raw ceiling: the database doing exactly the work of a batch (the service's own write
 * statement, rollups included, prepared as the service prepares it), sent straight through
 * postgres.js: no HTTP, no validation, no authentication, no idempotency record.
 */
async function rawCeiling(url: string, userIds: string[], batches: Bucket[][]) {
  const client = postgres(url, { max: CLIENTS, onnotice: () => {} });
  const rows = batches.map(storedRows);
  const latencies: number[] = [];
  let done = 0;
  const deadline = performance.now() + DURATION_S * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = c; performance.now() < deadline; i += CLIENTS) {
        const t0 = performance.now();
        await runPrepared(client, writeStatement('ide', userIds[i % userIds.length], rows[i % rows.length]));
        latencies.push(performance.now() - t0);
        done++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await client.end();
  latencies.sort((a, b) => a - b);
  return { batches: done, buckets_per_s: Math.round((done * BATCH) / seconds), p50_ms: percentile(latencies, 50), p99_ms: percentile(latencies, 99) };
}

/**
 * The service over HTTP. Without `bucketsPerS`: as fast as 16 clients sending back to back can
 * push it (its ceiling; latency there is only queueing: 16 batches in flight over the rate).
 * With it: batches offered at that steady rate by 64 connections, which is how latency is read
 * at a given load.
 */
async function service(url: string, tokens: string[], batches: Bucket[][], bucketsPerS?: number) {
  const server = await startServer(3900, { DATABASE_URL: url, SYNC_RATE_LIMIT_PER_MINUTE: RATE_LIMIT });
  try {
    const bodies = batches.map((b) => JSON.stringify({ activities: b }));
    let n = 0;
    const result = await autocannon({
      url: `${server.url}/main/api/v1/sync/activities`,
      connections: bucketsPerS ? 64 : CLIENTS,
      ...(bucketsPerS ? { overallRate: Math.round(bucketsPerS / BATCH) } : {}),
      duration: DURATION_S,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => {
            const i = n++;
            return {
              ...req,
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${tokens[i % tokens.length]}`,
                ...(WITH_KEYS ? { 'idempotency-key': `bench-${i}` } : {}),
              },
              body: bodies[i % bodies.length],
            };
          },
        },
      ],
    });
    const ok = result['2xx'];
    return {
      requests: result.requests.total,
      non_2xx: result.non2xx,
      errors: result.errors,
      buckets_per_s: Math.round((ok * BATCH) / result.duration),
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
    };
  } finally {
    await server.stop();
  }
}

/** Runs both layouts and writes bench/results/ingest.json; returns the figures. */
export async function ingestBench() {
  const url = await freshDatabase('codetally_bench_ingest');
  const handle = await openDb({ databaseUrl: url, dataDir: '' }, 2);
  const users: Awaited<ReturnType<typeof createUser>>[] = [];
  for (let u = 0; u < USERS; u++) users.push(await createUser(handle.db, { handle: `bench${u}` }));
  await handle.close();
  const batches = Array.from({ length: BATCHES_PER_USER }, (_, i) => makeBatch(i));

  const truncate = async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    await sql`TRUNCATE ide_activity, idempotency_keys, user_hours, user_days, user_day_languages, user_day_editors`;
    await sql`VACUUM ANALYZE`;
    await sql.end();
  };

  console.log(`ingest bench: ${CLIENTS} concurrent clients, ${BATCH}-bucket batches, ${DURATION_S} s per phase`);
  const phases = async (layout: string) => {
    const raws = [];
    const services = [];
    const paced = [];
    for (let round = 0; round < ROUNDS; round++) {
      await truncate();
      raws.push(await rawCeiling(url, users.map((u) => u.user.id), batches));
      await truncate();
      services.push(await service(url, users.map((u) => u.token), batches));
      await truncate();
      paced.push(await service(url, users.map((u) => u.token), batches, raws[round].buckets_per_s * PACED_SHARE));
    }
    const raw = { buckets_per_s: median(raws.map((r) => r.buckets_per_s)), p50_ms: median(raws.map((r) => r.p50_ms)), p99_ms: median(raws.map((r) => r.p99_ms)) };
    const svc = { buckets_per_s: median(services.map((r) => r.buckets_per_s)), p50_ms: median(services.map((r) => r.p50_ms)), p99_ms: median(services.map((r) => r.p99_ms)) };
    const ratio = svc.buckets_per_s / raw.buckets_per_s;
    console.log(`\n[${layout}] medians of ${ROUNDS} alternating rounds`);
    console.log(`raw write statement    : ${raw.buckets_per_s} buckets/s  p50 ${raw.p50_ms.toFixed(1)} ms  p99 ${raw.p99_ms.toFixed(1)} ms   (rounds: ${raws.map((r) => r.buckets_per_s).join(', ')})`);
    console.log(`service (next start)   : ${svc.buckets_per_s} buckets/s  p50 ${svc.p50_ms} ms  p99 ${svc.p99_ms} ms   (rounds: ${services.map((r) => r.buckets_per_s).join(', ')}; non-2xx ${services.reduce((a, r) => a + r.non_2xx, 0)}, errors ${services.reduce((a, r) => a + r.errors, 0)})`);
    const at = { buckets_per_s: median(paced.map((r) => r.buckets_per_s)), p50_ms: median(paced.map((r) => r.p50_ms)), p99_ms: median(paced.map((r) => r.p99_ms)) };
    const offered = median(raws.map((r) => r.buckets_per_s)) * PACED_SHARE;
    console.log(`ratio service/raw      : ${(ratio * 100).toFixed(1)} %  (goal >= 70 %)`);
    console.log(`service at 70 % of raw : ${at.buckets_per_s} buckets/s served of ${Math.round(offered)} offered  p50 ${at.p50_ms} ms  p99 ${at.p99_ms} ms  (goal p99 < 250 ms; rounds p99: ${paced.map((r) => r.p99_ms).join(', ')}; non-2xx ${paced.reduce((a, r) => a + r.non_2xx, 0)})`);
    return { raw, service: svc, ratio, at_70_percent_of_raw: at, rounds: { raw: raws, service: services, at_70_percent_of_raw: paced } };
  };

  // 1. Everything shares every core: the database, the service and the load generator compete.
  const shared = await phases('all processes share all cores');
  // 2. The database on a core of its own, as on its own host in production.
  let pinned: Awaited<ReturnType<typeof phases>> | null = null;
  const unpin = await pinDatabaseToOwnCore();
  if (unpin) {
    try {
      pinned = await phases('database on its own core; script or service and load generator on the other');
    } finally {
      unpin();
    }
  } else {
    console.log('\n(database-on-its-own-core layout skipped: needs a local PostgreSQL and taskset rights)');
  }
  const results = { at: new Date().toISOString(), machine: machine(), clients: CLIENTS, batch: BATCH, seconds: DURATION_S, with_idempotency_keys: WITH_KEYS, shared, pinned };
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
