import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { HOUR_CAP_MILLIS } from '../ingest/store';
import { communityMembers } from '../sharing/gate';
import { cappedPerUserDay } from './queries';

// Site-wide rollups. A write appends the dates it touched to community_dirty; a refresh
// recomputes the rollup rows of exactly those dates from the per-user rollups of community
// members, in ONE statement: the marks it deletes and the data it reads come from the same
// snapshot, so a write committed meanwhile keeps its mark for the next refresh (nothing lost),
// and recomputing replaces rather than adds (nothing counted twice). An advisory lock lets one
// refresh run at a time across processes.

const members = (column: SQL) => sql`${column} IN (${communityMembers})`;
const marked = sql`SELECT date FROM dates`;

/** Replaces the rollup rows of the marked dates with `fresh` (columns: the key, millis, users). */
function replace(table: SQL, key: SQL, fresh: string): SQL {
  return sql`
    DELETE FROM ${table} t WHERE t.date IN (${marked})
      AND NOT EXISTS (SELECT 1 FROM ${sql.raw(fresh)} f WHERE (f.date, f.${key}) IS NOT DISTINCT FROM (t.date, t.${key}))`;
}

function upsert(table: SQL, key: SQL, fresh: string): SQL {
  return sql`
    INSERT INTO ${table} (date, ${key}, millis, users) SELECT date, ${key}, millis, users FROM ${sql.raw(fresh)} ORDER BY 1, 2
    ON CONFLICT (date, ${key}) DO UPDATE SET millis = excluded.millis, users = excluded.users`;
}

const perDimension = (dimension: 'language' | 'editor') => sql`
  SELECT date, name AS ${sql.raw(dimension)}, sum(millis)::float8 AS millis, count(DISTINCT user_id) FILTER (WHERE millis > 0)::int AS users
  FROM (${cappedPerUserDay(dimension, members, { in: marked })}) AS c
  GROUP BY 1, 2 HAVING sum(millis) > 0`;

const refreshStatement = sql`
  WITH marks AS (DELETE FROM community_dirty RETURNING date),
  dates AS MATERIALIZED (SELECT DISTINCT date FROM marks),
  fresh_days AS MATERIALIZED (
    SELECT date, sum(millis)::float8 AS millis, count(*) FILTER (WHERE millis > 0)::int AS users
    FROM user_days WHERE date IN (${marked}) AND ${members(sql`user_id`)}
    GROUP BY date HAVING sum(millis) > 0
  ),
  fresh_languages AS MATERIALIZED (${perDimension('language')}),
  fresh_editors AS MATERIALIZED (${perDimension('editor')}),
  fresh_hours AS MATERIALIZED (
    SELECT date, hour, sum(least(millis, ${HOUR_CAP_MILLIS}))::float8 AS millis, count(*) FILTER (WHERE millis > 0)::int AS users
    FROM user_hours WHERE date IN (${marked}) AND ${members(sql`user_id`)}
    GROUP BY date, hour HAVING sum(millis) > 0
  ),
  d1 AS (DELETE FROM community_days t WHERE t.date IN (${marked}) AND t.date NOT IN (SELECT date FROM fresh_days)),
  u1 AS (
    INSERT INTO community_days (date, millis, users) SELECT date, millis, users FROM fresh_days ORDER BY date
    ON CONFLICT (date) DO UPDATE SET millis = excluded.millis, users = excluded.users
  ),
  d2 AS (${replace(sql`community_day_languages`, sql`language`, 'fresh_languages')}),
  u2 AS (${upsert(sql`community_day_languages`, sql`language`, 'fresh_languages')}),
  d3 AS (${replace(sql`community_day_editors`, sql`editor`, 'fresh_editors')}),
  u3 AS (${upsert(sql`community_day_editors`, sql`editor`, 'fresh_editors')}),
  d4 AS (${replace(sql`community_hours`, sql`hour`, 'fresh_hours')}),
  u4 AS (${upsert(sql`community_hours`, sql`hour`, 'fresh_hours')})
  SELECT count(*)::int AS dates FROM dates`;

let running: Promise<number> | undefined;

/** Brings the site-wide rollups up to date; returns how many dates it recomputed. */
export function refreshCommunity(db: Db): Promise<number> {
  running ??= db
    .transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('codetally:community', 0))`);
      // The statement's snapshot is taken after the lock: it sees what a previous refresh did.
      const [{ dates }] = await rows<{ dates: number }>(tx, refreshStatement);
      return dates;
    })
    .finally(() => {
      running = undefined;
    });
  return running;
}

/** Marks every date of a user's history, when their data joins or leaves the community figures. */
export async function markUserDates(db: Db, userId: string): Promise<void> {
  await db.execute(sql`INSERT INTO community_dirty (date) SELECT date FROM user_days WHERE user_id = ${userId}::uuid`);
}
