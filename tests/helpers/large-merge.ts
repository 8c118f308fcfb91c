import { sql } from 'drizzle-orm';
import { createUser } from '../../lib/accounts/users';
import { rows, type Db } from '../../lib/db/client';

// Two projects about to be merged at the size that once made splitting the merge back out take
// minutes (decision 0028), written straight into the database beside another user's many rows:
// for the split benchmark (bench/split.ts) and the stop test (tests/e2e/stop.test.ts).

export interface LargeMergeSizes {
  /** Buckets of a; b has as many, half of them of a's keys (the merge sums half and adds half). */
  buckets: number;
  /** Stored heartbeats of a, which the merge renames. */
  heartbeats: number;
  /** Buckets, and as many heartbeats, of another user. */
  otherRows: number;
}

/**
 * `count` rows of `project` for `user`: buckets of four languages, an hour each going back from
 * yesterday (from the `offset`-th), and `beats` heartbeats a second apart credited a second each.
 */
async function fill(db: Db, user: string, project: string, count: number, beats: number, offset = 0): Promise<void> {
  const since = Date.now() - 7 * 86_400_000;
  await db.execute(sql`
    INSERT INTO ide_activity (user_id, date, hour, language, project, editor, millis, lines)
    SELECT ${user}::uuid, current_date - 1 - (i / 96), (i / 4) % 24, 'L' || (i % 4), ${project}, 'vscode', 60000 + i % 1000, i % 7
    FROM generate_series(${offset}::int, ${offset + count - 1}::int) AS i`);
  await db.execute(sql`
    INSERT INTO heartbeats (user_id, at, type, entity_digest, category, language, project, editor, os, app, credited_until, zone)
    SELECT ${user}::uuid, ${since}::bigint + i * 1000, 'file', i, 'coding', 'Go', ${project}, 'vscode', 'Linux', '', ${since}::bigint + i * 1000 + 1000, 'UTC'
    FROM generate_series(${offset}::int, ${offset + beats - 1}::int) AS i`);
}

/** A user whose projects a and b are ready to merge (a into b), and another user's rows beside. */
export async function largeMerge(db: Db, sizes: LargeMergeSizes): Promise<{ userId: string }> {
  const suffix = Math.random().toString(36).slice(2, 8);
  const { user: other } = await createUser(db, { handle: `other${suffix}` });
  const { user } = await createUser(db, { handle: `splitter${suffix}` });
  await fill(db, other.id, 'a', sizes.otherRows, sizes.otherRows);
  await fill(db, user.id, 'a', sizes.buckets, sizes.heartbeats);
  await fill(db, user.id, 'b', sizes.buckets, 0, Math.floor(sizes.buckets / 2));
  return { userId: user.id };
}

/** The user's buckets and time by project. */
export function projectTotals(db: Db, userId: string): Promise<{ project: string; buckets: number; millis: number }[]> {
  return rows(
    db,
    sql`SELECT project, count(*)::int AS buckets, sum(millis)::float8 AS millis FROM ide_activity WHERE user_id = ${userId}::uuid GROUP BY 1 ORDER BY 1`,
  );
}
