import { randomUUID } from 'node:crypto';
import { readJson, writeDurably } from './files';
import { notConfigured, type Home } from './home';
import { tryLock } from './lock';
import { Queue, type Batch } from './queue';
import { sendBatch } from './send';

// The sender: commits the recorded events (./queue.ts) and delivers the outbox in order. A batch
// the service has stored leaves the outbox; one it refused for good is dropped and logged; one it
// could not take now stays, and the sender waits (exponential back-off with jitter, at least what
// Retry-After asks) before trying again.

export interface Status {
  last_error: string | null;
  last_error_at: string | null;
  last_delivered_at: string | null;
  failures: number;
  /** Epoch ms before which a background flush does not try. */
  next_attempt_at: number;
  delivered_batches: number;
  dropped_buckets: number;
}

const emptyStatus: Status = { last_error: null, last_error_at: null, last_delivered_at: null, failures: 0, next_attempt_at: 0, delivered_batches: 0, dropped_buckets: 0 };

export const readStatus = (home: Home): Status => ({ ...emptyStatus, ...readJson<Partial<Status>>(home.file('status.json'), {}) });

/** The wait before attempt `failures + 1`: 1 s doubling to 10 minutes, each with jitter (half to all of it), and never less than Retry-After. */
export function backoff(failures: number, retryAfterMs: number | null, random = Math.random): number {
  const ceiling = Math.min(600_000, 1000 * 2 ** Math.max(0, failures - 1));
  return Math.max(Math.round(ceiling * (0.5 + random() / 2)), retryAfterMs ?? 0);
}

export interface FlushOptions {
  /** Keep trying (waiting out each back-off) for this long; 0: one attempt. */
  retryForMs?: number;
  /** Try now even when the last failure's back-off has not run out. */
  force?: boolean;
  /** Wait this long for another process that is sending from the queue. */
  waitForLockMs?: number;
  fetch?: typeof fetch;
}

export interface FlushResult {
  /** Another process is sending from this queue. */
  busy: boolean;
  delivered: number;
  dropped: number;
  /** Batches still queued. */
  queued: number;
  error: string | null;
}

const halves = (batch: Batch): Batch[] => {
  const middle = Math.ceil(batch.buckets.length / 2);
  return [batch.buckets.slice(0, middle), batch.buckets.slice(middle)].map((buckets) => ({ key: randomUUID(), stream: batch.stream, buckets }));
};

/**
 * Commits what was recorded and delivers the outbox. The send lock is held while sending, never
 * while waiting out a back-off, so an explicit flush can always go ahead; `waitForLockMs`: how long
 * to wait for another sender to finish.
 */
export async function flush(home: Home, options: FlushOptions = {}): Promise<FlushResult> {
  const deadline = Date.now() + (options.retryForMs ?? 0);
  const lockDeadline = Date.now() + (options.waitForLockMs ?? 0);
  for (let force = options.force ?? false; ; force = true) {
    const attempt = await attemptFlush(home, force, options.fetch);
    if (attempt.busy && Date.now() < lockDeadline) {
      await sleep(100);
      continue;
    }
    if (attempt.busy || attempt.retryInMs === null || Date.now() + attempt.retryInMs > deadline) return attempt;
    await sleep(attempt.retryInMs);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One pass: commit, then send until the outbox is empty or the service cannot take a batch now. */
async function attemptFlush(home: Home, force: boolean, fetchImpl?: typeof fetch): Promise<FlushResult & { retryInMs: number | null }> {
  const result = { busy: false, delivered: 0, dropped: 0, queued: 0, error: null as string | null, retryInMs: null as number | null };
  const lock = await tryLock(home);
  if (!lock) return { ...result, busy: true };
  const queue = new Queue(home);
  try {
    queue.recover();
    const committed = queue.commit();
    if (committed.late > 0) home.log(`${committed.late} event(s) came after later ones were already counted; their time was counted then`);
    if (committed.invalid > 0) home.log(`${committed.invalid} file(s) in events/ were not events; removed`);
    const config = home.config();
    const status = readStatus(home);
    const save = () => writeDurably(home.file('status.json'), JSON.stringify(status));
    if (!config) {
      result.error = notConfigured;
    } else if (force || Date.now() >= status.next_attempt_at) {
      for (let next = queue.next(); next; next = queue.next()) {
        const outcome = await sendBatch(config, next.batch, fetchImpl);
        if (outcome.kind === 'retry') {
          status.failures++;
          result.retryInMs = backoff(status.failures, outcome.retryAfterMs);
          Object.assign(status, { last_error: outcome.reason, last_error_at: new Date().toISOString(), next_attempt_at: Date.now() + result.retryInMs });
          save();
          result.error = outcome.reason;
          break;
        }
        if (outcome.kind === 'split' && next.batch.buckets.length > 1) {
          queue.replaceFirst(next.name, halves(next.batch));
          continue;
        }
        queue.replaceFirst(next.name);
        if (outcome.kind === 'delivered') {
          result.delivered++;
          status.delivered_batches++;
          Object.assign(status, { failures: 0, next_attempt_at: 0, last_delivered_at: new Date().toISOString() });
          if (outcome.rejected.length > 0) {
            status.dropped_buckets += outcome.rejected.length;
            home.log(`the service refused ${outcome.rejected.length} bucket(s) of batch ${next.batch.key}: ${JSON.stringify(outcome.rejected).slice(0, 2000)}`);
          }
        } else {
          const reason = outcome.kind === 'split' ? '413 a single bucket is too large' : outcome.reason;
          result.dropped++;
          status.dropped_buckets += next.batch.buckets.length;
          Object.assign(status, { last_error: reason, last_error_at: new Date().toISOString() });
          home.log(`dropped batch ${next.batch.key} (${next.batch.buckets.length} buckets): ${reason}`);
        }
        save();
      }
    }
    result.queued = queue.size().batches;
    return result;
  } finally {
    await lock.release();
  }
}
