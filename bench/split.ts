// npm run bench:split — splitting a merge back out (lib/projects/merges.ts) at the size the review
// found freezing the server: BENCH_SPLIT_BUCKETS (35 000) buckets and as many stored heartbeats
// merged into a project that already had buckets of the same keys, on a database where another user
// holds BENCH_SPLIT_OTHER_ROWS (175 000) buckets and as many heartbeats. On the embedded database
// (a fresh directory) and on PostgreSQL (BENCH_DATABASE_URL's server, a fresh database; skipped
// when it cannot be reached). It prints the merge (a rename that moves the same rows once, the
// reference beside it) and the split, each timed, and their ratio: the ratio, not the seconds,
// says whether the split is linear (machines here differ 2-3x).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb, type DbHandle } from '../lib/db/client';
import { migrateDb } from '../lib/db/migrate';
import { splitMerge } from '../lib/projects/merges';
import { renameProject } from '../lib/projects/rename';
import { largeMerge, projectTotals } from '../tests/helpers/large-merge';
import { freshDatabase, machine, writeResults } from './common';

const BUCKETS = Number(process.env.BENCH_SPLIT_BUCKETS ?? 35_000);
const HEARTBEATS = Number(process.env.BENCH_SPLIT_HEARTBEATS ?? BUCKETS);
const OTHER_ROWS = Number(process.env.BENCH_SPLIT_OTHER_ROWS ?? 175_000);
/** Which databases: `pglite`, `postgres`, or both (comma-separated). */
const ON = (process.env.BENCH_SPLIT_ON ?? 'pglite,postgres').split(',');

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await work();
  return Math.round(performance.now() - t) / 1000;
}

async function run(handle: DbHandle) {
  const db = handle.db;
  const building = performance.now();
  const { userId } = await largeMerge(db, { buckets: BUCKETS, heartbeats: HEARTBEATS, otherRows: OTHER_ROWS });
  const built = Math.round(performance.now() - building) / 1000;
  const before = await projectTotals(db, userId);
  const merge_s = await seconds(() => renameProject(db, userId, 'a', 'b'));
  const split_s = await seconds(() => splitMerge(db, userId, 'b', 'a'));
  const after = await projectTotals(db, userId);
  if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`the split did not give back what was merged: ${JSON.stringify({ before, after })}`);
  return { database: handle.kind, build_s: built, merge_s, split_s, split_per_merge: Math.round((split_s / merge_s) * 100) / 100 };
}

async function main() {
  const results: Record<string, unknown> = { at: new Date().toISOString(), machine: machine(), buckets: BUCKETS, heartbeats: HEARTBEATS, other_rows: OTHER_ROWS };
  if (ON.includes('pglite')) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-bench-split-'));
    const handle = await openDb({ dataDir: dir });
    try {
      await migrateDb(handle);
      results.pglite = await run(handle);
      console.log('embedded:', JSON.stringify(results.pglite));
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  if (ON.includes('postgres')) {
    const url = await freshDatabase('codetally_bench_split').catch((err) => (console.warn('PostgreSQL skipped:', (err as Error).message), null));
    if (url) {
      const handle = await openDb({ databaseUrl: url, dataDir: '' }, 2);
      try {
        results.postgres = await run(handle);
        console.log('PostgreSQL:', JSON.stringify(results.postgres));
      } finally {
        await handle.close();
      }
    }
  }
  console.log(`results in ${writeResults('split', results)}`);
}

await main();
process.exit(0);
