import { sql, type SQL } from 'drizzle-orm';
import { config } from '../../config';
import { addDays, daysBetween, eachDay } from '../../dates';
import { rows, type Db } from '../../db/client';
import { detached, withStatementBound } from '../../db/deadline';
import { addExcluded, col, cols } from '../../db/names';
import { leaderboardEntries, leaderboardLanguages, leaderboardSnapshots, plans, userDays, users } from '../../db/schema';
import { localDateHour } from '../../local-time';
import { historyFloorSql } from '../../plans/limits';
import { listedOnLeaderboard, sharesLanguages } from '../../sharing/gate';
import { cappedPerUserDay, type Dates } from '../queries';
import type { LeaderboardRange } from './query';

// The leaderboard's snapshot per range: rebuilt when older than LEADERBOARD_MAX_AGE, by one
// process at a time, incrementally; and kept in step with the owners' settings.

export interface Snapshot {
  generatedAt: string;
  from: string;
  to: string;
  /** Moves when a user's settings or account changed since the rebuild: pages made before are stale. */
  revision: number;
}

const ls = leaderboardSnapshots;

/** The range's snapshot as `db` holds it (the primary, or a replica asked whether it has replayed it). */
export async function readSnapshot(db: Db, range: LeaderboardRange): Promise<Snapshot | undefined> {
  const [row] = await rows<{ generated_at: string | Date; from_date: string; to_date: string; revision: number }>(
    db,
    sql`SELECT ${ls.generatedAt} AS generated_at, to_char(${ls.fromDate}, 'YYYY-MM-DD') AS from_date,
               to_char(${ls.toDate}, 'YYYY-MM-DD') AS to_date, ${ls.revision} AS revision
        FROM ${ls} WHERE ${ls.range} = ${range}`,
  );
  return row && { generatedAt: new Date(row.generated_at).toISOString(), from: row.from_date, to: row.to_date, revision: row.revision };
}

const isFresh = (s: Snapshot | undefined, now = Date.now()): s is Snapshot =>
  !!s && now - Date.parse(s.generatedAt) <= config().LEADERBOARD_MAX_AGE * 1000;

/**
 * Brings one range's entries to the dates ending `to`, in one statement (one snapshot of the data):
 * - a user whose stats version moved since their entry (any write does that), or who is newly
 *   listed, is summed afresh from user_days over the whole range;
 * - every other entry is still right for the previous dates, so it only gains the dates that
 *   entered the range and loses those that left it (nothing when the date has not changed).
 * With no previous snapshot, or one too old to shift, every listed user is summed afresh.
 * Entries of users who left the leaderboard are kept up to date (cheap) and hidden when read.
 * An entry whose listing no longer matches (a hide that ended with no write) is summed afresh.
 * A day's capped time fits in an int, whose sum PostgreSQL adds far faster than a bigint's.
 * The same statement keeps the per-language totals (leaderboard_languages) of the listed users
 * who share languages, the same way: afresh for those, shifted by the edge dates for the rest.
 * No day before the window of history a user's plan shows counts: a user whose window starts
 * after the range's first date is summed afresh every time, from their window's first date.
 */
async function rebuild(tx: Db, range: LeaderboardRange, previous: Snapshot | undefined, to: string): Promise<void> {
  const days = Number(range.slice(0, -1));
  const from = addDays(to, 1 - days);
  const shift = previous ? daysBetween(previous.to, to) : days;
  const startOver = shift < 0 || shift >= days;
  const [d, u, e, l, p] = [userDays, users, leaderboardEntries, leaderboardLanguages, plans];
  const edges =
    previous && !startOver && shift > 0
      ? sql`SELECT ${d.userId} AS user_id, sum(CASE WHEN ${d.date} > ${previous.to} THEN ${d.millis}::int ELSE -${d.millis}::int END) AS delta
            FROM ${d} WHERE (${d.date} >= ${previous.from} AND ${d.date} < ${from}) OR (${d.date} > ${previous.to} AND ${d.date} <= ${to})
            GROUP BY 1`
      : sql`SELECT NULL::uuid AS user_id, 0::bigint AS delta WHERE false`;
  // Summing everyone: one pass over the range's dates. Summing a few: each one's own days.
  const summed = startOver
    ? sql`SELECT p.id, coalesce(t.total, 0) AS total FROM people p LEFT JOIN (
            SELECT ${d.userId} AS user_id, sum(${d.millis}::int) AS total FROM ${d} JOIN people w ON w.id = ${d.userId}
            WHERE ${d.date} BETWEEN ${from} AND ${to} AND ${d.date} >= w.floor GROUP BY 1
          ) t ON t.user_id = p.id`
    : sql`SELECT p.id, s.total FROM people p CROSS JOIN LATERAL (
            SELECT coalesce(sum(${d.millis}::int), 0) AS total FROM ${d} WHERE ${d.userId} = p.id AND ${d.date} BETWEEN ${from} AND ${to} AND ${d.date} >= p.floor
          ) s WHERE p.afresh`;
  const edgeDates = previous && !startOver && shift > 0 ? [...eachDay(previous.from, addDays(from, -1)), ...eachDay(addDays(previous.to, 1), to)].filter((d) => d >= previous.from && d <= to) : [];
  const language = (people: SQL, dates: Dates) => cappedPerUserDay('language', (column) => sql`${column} IN (${people})`, dates);
  await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
  // A rebuild reads every listed user: past a request's statement timeout on a large install.
  await tx.execute(sql.raw(`SET LOCAL statement_timeout = '${REBUILD_TIMEOUT_S}s'`));
  await tx.execute(sql`SET LOCAL jit = off`); // compiling costs more than it saves here
  await tx.execute(sql`
    WITH people AS (
      SELECT id, stats_version, kept, listed, shows_languages, floor, afresh OR floor > ${from}::date AS afresh FROM (
        SELECT ${u.id} AS id, ${u.statsVersion} AS stats_version, ${e.totalMillis} AS kept, ${listedOnLeaderboard(u)} AS listed,
               (${startOver} OR ${e.userId} IS NULL OR ${e.statsVersion} <> ${u.statsVersion} OR ${e.listed} <> ${listedOnLeaderboard(u)}) AS afresh,
               ${listedOnLeaderboard(u)} AND ${sharesLanguages(u)} AS shows_languages, ${historyFloorSql(p.limits, u.timezone)} AS floor
        FROM ${u} JOIN ${p} ON ${p.id} = ${u.planId} LEFT JOIN ${e} ON ${e.range} = ${range} AND ${e.userId} = ${u.id}
        WHERE ${listedOnLeaderboard(u)} OR ${e.userId} IS NOT NULL
      ) AS q
    ),
    summed AS (${summed}),
    edges AS (${edges}),
    next AS (
      SELECT p.id, p.stats_version, p.listed, p.kept IS NOT NULL AS kept, coalesce(s.total, p.kept + e.delta) AS total
      FROM people p LEFT JOIN summed s ON s.id = p.id LEFT JOIN edges e ON e.user_id = p.id
      WHERE p.afresh OR e.delta <> 0
    ),
    updated AS (
      UPDATE ${e} SET ${col(e.totalMillis)} = n.total, ${col(e.statsVersion)} = n.stats_version, ${col(e.listed)} = n.listed
      FROM next n WHERE n.kept AND ${e.range} = ${range} AND ${e.userId} = n.id
    ),
    added AS (
      INSERT INTO ${e} (${cols(e.range, e.userId, e.totalMillis, e.statsVersion, e.listed)})
      SELECT ${range}, id, total, stats_version, listed FROM next WHERE NOT kept
    ),
    languages_afresh AS (
      SELECT c.user_id, c.name AS language, sum(c.millis) AS millis
      FROM (${language(sql`SELECT id FROM people WHERE afresh AND shows_languages`, { from, to })}) AS c
      JOIN people w ON w.id = c.user_id AND c.date >= w.floor
      GROUP BY 1, 2 HAVING sum(c.millis) >= 1
    ),
    -- One statement may not delete and insert the same row: what is summed afresh replaces the
    -- stored row, and only what it does not hold is deleted. (Rows of users who stopped sharing
    -- or left were deleted when they did: leaderboardUserChanged.)
    languages_gone AS (
      DELETE FROM ${l} WHERE ${l.range} = ${range}
        AND (${startOver} OR ${l.userId} IN (SELECT id FROM people WHERE afresh))
        AND NOT EXISTS (SELECT 1 FROM languages_afresh f WHERE f.user_id = ${l.userId} AND f.language = ${l.language})
    ),
    languages_summed AS (
      INSERT INTO ${l} (${cols(l.range, l.userId, l.language, l.millis)})
      SELECT ${range}, user_id, language, millis FROM languages_afresh ORDER BY 2, 3
      ON CONFLICT (${cols(l.range, l.userId, l.language)}) DO UPDATE SET ${col(l.millis)} = excluded.${col(l.millis)}
    )
    INSERT INTO ${l} (${cols(l.range, l.userId, l.language, l.millis)})
    SELECT ${range}, c.user_id, c.name, sum(CASE WHEN c.date > ${previous?.to ?? to} THEN c.millis ELSE -c.millis END)
    FROM (${language(sql`SELECT id FROM people WHERE NOT afresh AND shows_languages`, { anyOf: edgeDates })}) AS c
    GROUP BY c.user_id, c.name HAVING sum(CASE WHEN c.date > ${previous?.to ?? to} THEN c.millis ELSE -c.millis END) <> 0 ORDER BY 2, 3
    ON CONFLICT (${cols(l.range, l.userId, l.language)}) DO UPDATE SET ${addExcluded(l.millis)}`);
  // What shifted to nothing (a language no longer in the range; sums of floats leave crumbs).
  await tx.execute(sql`DELETE FROM ${l} WHERE ${l.range} = ${range} AND ${l.millis} < 1`);
  await tx.execute(sql`
    INSERT INTO ${ls} (${cols(ls.range, ls.generatedAt, ls.fromDate, ls.toDate)}) VALUES (${range}, now(), ${from}, ${to})
    ON CONFLICT (${col(ls.range)}) DO UPDATE
      SET ${col(ls.generatedAt)} = now(), ${col(ls.fromDate)} = excluded.${col(ls.fromDate)}, ${col(ls.toDate)} = excluded.${col(ls.toDate)}`);
}

/** PostgreSQL's limit on a rebuild's statements; the service's own bound is a round trip more. */
const REBUILD_TIMEOUT_S = 120;
/**
 * A rebuild's work: outside the deadline of the request that asked for it (other requests share
 * it, and a first build on a large install takes longer than a request may), its statements
 * bounded by the rebuild's own limit.
 */
const asRebuild = <T>(work: () => Promise<T>): Promise<T> => detached(() => withStatementBound(REBUILD_TIMEOUT_S * 1000 + 2_000, work));

const lockKey = (range: LeaderboardRange) => sql`hashtextextended(${'codetally:leaderboard:' + range}, 0)`;
const utcToday = () => localDateHour('UTC').date;

/** Rebuilds one range for the dates ending `to`, after any rebuild another process is making. */
export async function rebuildLeaderboard(db: Db, range: LeaderboardRange, to = utcToday()): Promise<void> {
  await asRebuild(() =>
    db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${lockKey(range)})`);
      await rebuild(tx, range, await readSnapshot(tx, range), to);
    }),
  );
}

const rebuilding = new Map<LeaderboardRange, Promise<Snapshot>>();

/**
 * A snapshot no older than LEADERBOARD_MAX_AGE, if one can be had without a crowd: in this
 * process concurrent callers share one rebuild; across processes an advisory lock lets one
 * rebuild while the others keep serving the previous snapshot (they wait only when none exists).
 * A snapshot in the last fifth of its life is served at once while its successor is built, so
 * with steady visits nobody waits for a rebuild (the daily one, which shifts every entry by a
 * date, takes seconds on a large install).
 */
export async function freshSnapshot(db: Db, range: LeaderboardRange): Promise<Snapshot> {
  const current = await readSnapshot(db, range);
  if (isFresh(current)) {
    const maxAge = config().LEADERBOARD_MAX_AGE * 1000;
    if (Date.now() - Date.parse(current.generatedAt) > 0.8 * maxAge && !rebuilding.has(range)) {
      rebuildSnapshot(db, range, current).catch((err) => console.error('[codetally] leaderboard rebuild failed:', (err as Error).message));
    }
    return current;
  }
  return rebuildSnapshot(db, range, current);
}

/** The one rebuild of a range in this process (see freshSnapshot); resolves to the new snapshot. */
function rebuildSnapshot(db: Db, range: LeaderboardRange, current: Snapshot | undefined): Promise<Snapshot> {
  let pending = rebuilding.get(range);
  if (!pending) {
    pending = asRebuild(async () => {
      await db.transaction(async (tx) => {
        const [{ locked }] = await rows<{ locked: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${lockKey(range)}) AS locked`);
        if (!locked) {
          if (current) return; // another process is rebuilding: the previous snapshot will do
          await tx.execute(sql`SELECT pg_advisory_xact_lock(${lockKey(range)})`);
          return;
        }
        const previous = await readSnapshot(tx, range);
        if (previous && previous.generatedAt !== current?.generatedAt && isFresh(previous)) return; // rebuilt while we asked for the lock
        await rebuild(tx, range, previous, utcToday());
      });
      return (await readSnapshot(db, range))!;
    }).finally(() => rebuilding.delete(range));
    rebuilding.set(range, pending);
  }
  return pending;
}

/**
 * A user's settings or account changed (call it in the same transaction). Leaving the leaderboard
 * takes their entries out of the ranking at once, and leaving it or no longer sharing languages
 * their per-language totals; joining or sharing again has the next rebuild sum them afresh (their
 * entries forget the stats version they were summed at). Either way the snapshots' revision
 * moves, so no process serves a page it cached before the change.
 */
export async function leaderboardUserChanged(db: Db, userId: string, settings: { leaderboard?: boolean; share_languages?: boolean } = {}): Promise<void> {
  const [e, l] = [leaderboardEntries, leaderboardLanguages];
  if (settings.leaderboard === false) await db.execute(sql`UPDATE ${e} SET ${col(e.listed)} = false WHERE ${e.userId} = ${userId}::uuid`);
  if (settings.leaderboard === false || settings.share_languages === false) {
    await db.execute(sql`DELETE FROM ${l} WHERE ${l.userId} = ${userId}::uuid`);
  }
  if (settings.leaderboard === true || settings.share_languages === true) {
    await db.execute(sql`UPDATE ${e} SET ${col(e.statsVersion)} = -1 WHERE ${e.userId} = ${userId}::uuid`);
  }
  await db.execute(sql`UPDATE ${ls} SET ${col(ls.revision)} = ${ls.revision} + 1`);
}
