import { sql } from 'drizzle-orm';
import { getDb, rows } from '../db/client';
import { withinDeadline } from '../db/deadline';
import { imports } from '../db/schema';
import { metrics } from './registry';

// What GET /metrics answers: the registry in Prometheus's text format, after one cheap read of the
// import queue (the imports not yet finished, which the partial unique index of one unfinished
// import per user holds). The rest is kept in memory as requests and statements happen.

/** The longest the queue's read may take: a scrape answers with the other figures without it. */
const QUEUE_READ_MS = 1000;
const unfinished = ['receiving', 'queued', 'running'] as const;

async function readImportQueue(): Promise<void> {
  const m = metrics();
  try {
    const counts = await withinDeadline(QUEUE_READ_MS, async () => {
      const db = await getDb();
      const i = imports;
      return rows<{ status: string; n: number }>(
        db,
        sql`SELECT ${i.status} AS status, count(*)::int AS n FROM ${i} WHERE ${i.status} IN ('receiving', 'queued', 'running') GROUP BY ${i.status}`,
      );
    });
    for (const status of unfinished) m.imports.set({ status }, counts.find((c) => c.status === status)?.n ?? 0);
    m.importQueueReadable.set(1);
  } catch {
    // Said by codetally_import_queue_readable; the statement's failure is counted with the others.
    m.importQueueReadable.set(0);
  }
}

/** The metrics of this process, as Prometheus scrapes them; never stored by a cache. */
export async function scrapeResponse(): Promise<Response> {
  await readImportQueue();
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' },
  });
}
