import type { SQL } from 'drizzle-orm';
import { rows, type Db } from './client';
import { checkDeadline } from './deadline';

// Reading a list that grows with use (a day of heartbeats, an account's buckets) in pages along
// an index, each page starting after the last row of the one before (keyset paging): every
// statement reads at most `size` rows however long the list, and only one page is in memory at a
// time. An OFFSET would read every row before the page again, making a long list quadratic.
//
// The embedded database runs each statement on the thread that serves requests, and a chain of
// its statements never lets that thread take other work: its answers come back without waiting
// for anything outside the process, so the next statement starts before any other request is
// read (measured: bench/day-reads.ts, docs/decisions/0029-a-day-read-a-page-at-a-time.md). Between
// two pages the event loop is given its turn, so other visitors are answered between them; and a
// read whose request's deadline has passed stops there.

/** Rows a statement of a paged read answers: on the embedded database some tens of milliseconds of work (bench/day-reads.ts). */
export const PAGE_ROWS = 2000;

/** Gives the event loop its turn: the requests, timers and sockets waiting run before the caller goes on. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How far a page read: the row the next begins after (null: none), and how many rows it read. */
export interface PageProgress<C> {
  last: C | null;
  rows: number;
}

/**
 * The pages of `statement(after, size)`: a statement that reads at most `size` rows in its index's
 * order, each after `after` (`from` for the first page; null for the list's start), and answers
 * them, or what it made of them when `progress` tells from its answer where it got (its last row
 * and how many it read). Ends after a page that read fewer than asked, or once `most` rows are read.
 */
export async function* keysetPages<T, C = T>(
  db: Db,
  statement: (after: C | null, size: number) => SQL,
  options: { from?: C | null; size?: number; most?: number; progress?: (page: T[]) => PageProgress<C> } = {},
): AsyncGenerator<T[]> {
  const size = options.size ?? PAGE_ROWS;
  // `most`: the rows wanted in all; the last statement asks for no more than are left.
  let left = options.most ?? Infinity;
  // Without `progress` the rows are the page itself (T is then C).
  const progress = options.progress ?? ((page: T[]) => ({ last: (page.at(-1) ?? null) as C | null, rows: page.length }));
  let after: C | null = options.from ?? null;
  for (let first = true; ; first = false) {
    if (!first) {
      await yieldToLoop();
      checkDeadline('a paged read');
    }
    const asked = Math.min(size, left);
    const page: T[] = await rows<T>(db, statement(after, asked));
    if (page.length > 0) yield page;
    const { last, rows: read } = progress(page);
    left -= read;
    if (read < asked || last === null || left <= 0) return;
    after = last;
  }
}
