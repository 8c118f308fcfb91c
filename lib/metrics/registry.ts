import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { cacheTallies, failureTallies } from './tally';

// The process's metrics for operators (GET /metrics, docs/deploy.md, "Operations"). One registry and one
// set of metric objects per process, on globalThis: Next's bundles hold several copies of this
// module (and of prom-client), and a counter moved in one copy must show in the copy that answers
// the scrape. Labels hold only closed sets (a route's pattern, a method, a status class, a
// SQLSTATE class, a cache's name, a bucket kind): never a user, token, project, language or a
// path with an id in it. Ours are named codetally_*; prom-client's process and Node.js metrics
// keep their usual names, which dashboards expect.

/** Request latency, seconds: up to the request bound (20 s, lib/db/deadline.ts). */
const requestBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];
/** Statement and wait durations, seconds: up to a statement's bound (17 s). */
const databaseBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 17];

function make() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const r = [registry];
  return {
    registry,
    requests: new Histogram({
      name: 'codetally_http_request_duration_seconds',
      help: 'API requests by route pattern, method and status class: time until the answer (its headers) was ready; _count is the number of requests.',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: requestBuckets,
      registers: r,
    }),
    statements: new Histogram({
      name: 'codetally_db_statement_duration_seconds',
      help: 'Database statements, from being sent to the client (the wait for a connection included) until their result or failure.',
      buckets: databaseBuckets,
      registers: r,
    }),
    statementsInFlight: new Gauge({
      name: 'codetally_db_statements_in_flight',
      help: 'Statements sent and not yet answered, those waiting for a connection included; above codetally_db_pool_connections, some wait.',
      registers: r,
    }),
    transactionsInFlight: new Gauge({
      name: 'codetally_db_transactions_in_flight',
      help: 'Transactions begun and not yet ended: each holds (or waits for) one connection throughout.',
      registers: r,
    }),
    transactionWait: new Histogram({
      name: 'codetally_db_transaction_wait_seconds',
      help: 'Time from asking for a transaction until its first statement may run: the wait for a connection (the embedded database: for its one session) and BEGIN.',
      buckets: databaseBuckets,
      registers: r,
    }),
    poolConnections: new Gauge({
      name: 'codetally_db_pool_connections',
      help: 'Connections the database pool of this process may open (1 for the embedded database).',
      registers: r,
    }),
    statementFailures: new Counter({
      name: 'codetally_db_statement_failures_total',
      help: "Failed statements by SQLSTATE class (its first two characters), or the driver's code for a connection failure or the service's deadline.",
      labelNames: ['class'] as const,
      registers: r,
      collect() {
        this.reset();
        for (const [klass, count] of failureTallies()) this.inc({ class: klass }, count);
      },
    }),
    buckets: new Counter({
      name: 'codetally_ingest_buckets_total',
      help: 'Buckets received by the sync and activity routes, by kind (ide, desktop) and outcome (stored, rejected), counted once their write committed (or was refused whole).',
      labelNames: ['kind', 'outcome'] as const,
      registers: r,
    }),
    batches: new Counter({
      name: 'codetally_ingest_batches_total',
      help: 'Write requests of buckets that stored something, by kind (replays of an idempotent request not included).',
      labelNames: ['kind'] as const,
      registers: r,
    }),
    heartbeats: new Counter({
      name: 'codetally_heartbeats_total',
      help: 'Heartbeats received by the WakaTime-compatible routes, by outcome (accepted, rejected), counted once their batch was stored.',
      labelNames: ['outcome'] as const,
      registers: r,
    }),
    heartbeatBatches: new Counter({
      name: 'codetally_heartbeat_requests_total',
      help: 'Heartbeat requests stored, by shape (one, bulk).',
      labelNames: ['shape'] as const,
      registers: r,
    }),
    pluginErrors: new Counter({
      name: 'codetally_plugin_errors_total',
      help: "Plugin error reports wakatime-cli sent (POST users/current/plugins/errors): counted, nothing of them kept.",
      registers: r,
    }),
    imports: new Gauge({
      name: 'codetally_import_queue',
      help: 'Data dump imports by status (queued, running), over the whole database, read at each scrape.',
      labelNames: ['status'] as const,
      registers: r,
    }),
    importQueueReadable: new Gauge({
      name: 'codetally_import_queue_readable',
      help: '1 when the last scrape read the import queue, 0 when the database did not answer in time (codetally_import_queue then holds the last figures read).',
      registers: r,
    }),
    cacheLookups: new Counter({
      name: 'codetally_cache_lookups_total',
      help: 'Lookups of the in-process caches, by cache and result (hit, miss).',
      labelNames: ['cache', 'result'] as const,
      registers: r,
      collect() {
        this.reset();
        for (const [cache, tally] of cacheTallies()) {
          this.inc({ cache, result: 'hit' }, tally.hit);
          this.inc({ cache, result: 'miss' }, tally.miss);
        }
      },
    }),
  };
}

export type Metrics = ReturnType<typeof make>;

const slot = globalThis as typeof globalThis & { [key: symbol]: Metrics | undefined };
const key = Symbol.for('codetally.metrics');

/** The process's one set of metrics, made on first use. */
export function metrics(): Metrics {
  return (slot[key] ??= make());
}

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One API request: its route's pattern (never the path it was asked at), method and status. */
export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  const statusClass = status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
  metrics().requests.observe({ route, method: methods.has(method) ? method : 'other', status: statusClass }, seconds);
}

/** A statement in flight until `work` settles, then timed (lib/db: both drivers' clients). */
export function measureStatement<T>(work: PromiseLike<T>): Promise<T> {
  const m = metrics();
  const started = performance.now();
  m.statementsInFlight.inc();
  const end = () => {
    m.statementsInFlight.dec();
    m.statements.observe((performance.now() - started) / 1000);
  };
  return Promise.resolve(work).then(
    (value) => (end(), value),
    (err: unknown) => {
      end();
      throw err;
    },
  );
}

/**
 * A transaction asked for now: `began` when its first statement may run (the wait for a
 * connection is timed), `ended` once it is over, however it ended.
 */
export function transactionAsked(): { began: () => void; ended: () => void } {
  const m = metrics();
  const asked = performance.now();
  let waited = false;
  m.transactionsInFlight.inc();
  return {
    began: () => {
      if (waited) return;
      waited = true;
      m.transactionWait.observe((performance.now() - asked) / 1000);
    },
    ended: () => m.transactionsInFlight.dec(),
  };
}
