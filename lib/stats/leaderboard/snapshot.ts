import { sql, type SQL } from 'drizzle-orm';
import { config } from '../../config';
import { addDays, daysBetween, eachDay } from '../../dates';
import { rows, type Db } from '../../db/client';
import { leaderboardLanguages } from '../../db/schema';
import { localDateHour } from '../../local-time';
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

async function readSnapshot(db: Db, range: LeaderboardRange): Promise<Snapshot | undefined> {
  const [row] = await rows<{ generated_at: string | Date; from_date: string; to_date: string; revision: number }>(
    db,
    sql`SELECT generated_at, to_char(from_date, 'YYYY-MM-DD') AS from_date, to_char(to_date, 'YYYY-MM-DD') AS to_date, revision
        FROM leaderboard_snapshots WHERE range = ${range}`,
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
 * A day's capped time fits in an int, whose sum PostgreSQL adds far faster than a bigint's.
 * The same statement keeps the per-language totals (leaderboard_languages) of the listed users
 * who share languages, the same way: afresh for those, shifted by the edge dates for the rest.
 */
async function rebuild(tx: Db, range: LeaderboardRange, previous: Snapshot | undefined, to: string): Promise<void> {
  const days = Number(range.slice(0, -1));
  const from = addDays(to, 1 - days);
  const shift = previous ? daysBetween(previous.to, to) : days;
  const startOver = shift < 0 || shift >= days;
  const edges =
    previous && !startOver && shift > 0
      ? sql`SELECT user_id, sum(CASE WHEN date > ${previous.to} THEN millis::int ELSE -millis::int END) AS delta
            FROM user_days WHERE (date >= ${previous.from} AND date < ${from}) OR (date > ${previous.to} AND date <= ${to})
            GROUP BY user_id`
      : sql`SELECT NULL::uuid AS user_id, 0::bigint AS delta WHERE false`;
  // Summing everyone: one pass over the range's dates. Summing a few: each one's own days.
  const summed = startOver
    ? sql`SELECT p.id, coalesce(t.total, 0) AS total FROM people p LEFT JOIN (
            SELECT user_id, sum(millis::int) AS total FROM user_days WHERE date BETWEEN ${from} AND ${to} GROUP BY user_id
          ) t ON t.user_id = p.id`
    : sql`SELECT p.id, s.total FROM people p CROSS JOIN LATERAL (
            SELECT coalesce(sum(d.millis::int), 0) AS total FROM user_days d WHERE d.user_id = p.id AND d.date BETWEEN ${from} AND ${to}
          ) s WHERE p.afresh`;
  const edgeDates = previous && !startOver && shift > 0 ? [...eachDay(previous.from, addDays(from, -1)), ...eachDay(addDays(previous.to, 1), to)].filter((d) => d >= previous.from && d <= to) : [];
  const language = (users: SQL, dates: Dates) => cappedPerUserDay('language', (col) => sql`${col} IN (${users})`, dates);
  await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
  // A rebuild reads every listed user: past the request's statement timeout on a large install.
  await tx.execute(sql`SET LOCAL statement_timeout = '120s'`);
  await tx.execute(sql`SET LOCAL jit = off`); // compiling costs more than it saves here
  await tx.execute(sql`
    WITH people AS (
      SELECT u.id, u.stats_version, e.total_millis AS kept, ${listedOnLeaderboard(sql`u`)} AS listed,
             (${startOver} OR e.user_id IS NULL OR e.stats_version <> u.stats_version) AS afresh,
             ${listedOnLeaderboard(sql`u`)} AND ${sharesLanguages(sql`u`)} AS shows_languages
      FROM users u LEFT JOIN leaderboard_entries e ON e.range = ${range} AND e.user_id = u.id
      WHERE ${listedOnLeaderboard(sql`u`)} OR e.user_id IS NOT NULL
    ),
    summed AS (${summed}),
    edges AS (${edges}),
    next AS (
      SELECT p.id, p.stats_version, p.listed, p.kept IS NOT NULL AS kept, coalesce(s.total, p.kept + e.delta) AS total
      FROM people p LEFT JOIN summed s ON s.id = p.id LEFT JOIN edges e ON e.user_id = p.id
      WHERE p.afresh OR e.delta <> 0
    ),
    updated AS (
      UPDATE leaderboard_entries le SET total_millis = n.total, stats_version = n.stats_version, listed = n.listed
      FROM next n WHERE n.kept AND le.range = ${range} AND le.user_id = n.id
    ),
    added AS (
      INSERT INTO leaderboard_entries (range, user_id, total_millis, stats_version, listed)
      SELECT ${range}, id, total, stats_version, listed FROM next WHERE NOT kept
    ),
    languages_afresh AS (
      SELECT c.user_id, c.name AS language, sum(c.millis) AS millis
      FROM (${language(sql`SELECT id FROM people WHERE afresh AND shows_languages`, { from, to })}) AS c
      GROUP BY 1, 2 HAVING sum(c.millis) >= 1
    ),
    -- One statement may not delete and insert the same row: what is summed afresh replaces the
    -- stored row, and only what it does not hold is deleted. (Rows of users who stopped sharing
    -- or left were deleted when they did: leaderboardUserChanged.)
    languages_gone AS (
      DELETE FROM ${leaderboardLanguages} l WHERE l.range = ${range}
        AND (${startOver} OR l.user_id IN (SELECT id FROM people WHERE afresh))
        AND NOT EXISTS (SELECT 1 FROM languages_afresh f WHERE f.user_id = l.user_id AND f.language = l.language)
    ),
    languages_summed AS (
      INSERT INTO ${leaderboardLanguages} AS l (range, user_id, language, millis)
      SELECT ${range}, user_id, language, millis FROM languages_afresh ORDER BY 2, 3
      ON CONFLICT (range, user_id, language) DO UPDATE SET millis = excluded.millis
    )
    INSERT INTO ${leaderboardLanguages} AS l (range, user_id, language, millis)
    SELECT ${range}, c.user_id, c.name, sum(CASE WHEN c.date > ${previous?.to ?? to} THEN c.millis ELSE -c.millis END)
    FROM (${language(sql`SELECT id FROM people WHERE NOT afresh AND shows_languages`, { anyOf: edgeDates })}) AS c
    GROUP BY c.user_id, c.name HAVING sum(CASE WHEN c.date > ${previous?.to ?? to} THEN c.millis ELSE -c.millis END) <> 0 ORDER BY 2, 3
    ON CONFLICT (range, user_id, language) DO UPDATE SET millis = l.millis + excluded.millis`);
  // What shifted to nothing (a language no longer in the range; sums of floats leave crumbs).
  await tx.execute(sql`DELETE FROM ${leaderboardLanguages} WHERE range = ${range} AND millis < 1`);
  await tx.execute(sql`
    INSERT INTO leaderboard_snapshots (range, generated_at, from_date, to_date) VALUES (${range}, now(), ${from}, ${to})
    ON CONFLICT (range) DO UPDATE SET generated_at = now(), from_date = excluded.from_date, to_date = excluded.to_date`);
}

const lockKey = (range: LeaderboardRange) => sql`hashtextextended(${'codetally:leaderboard:' + range}, 0)`;
const utcToday = () => localDateHour('UTC').date;

/** Rebuilds one range for the dates ending `to`, after any rebuild another process is making. */
export async function rebuildLeaderboard(db: Db, range: LeaderboardRange, to = utcToday()): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${lockKey(range)})`);
    await rebuild(tx, range, await readSnapshot(tx, range), to);
  });
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
    pending = (async () => {
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
    })().finally(() => rebuilding.delete(range));
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
  if (settings.leaderboard === false) await db.execute(sql`UPDATE leaderboard_entries SET listed = false WHERE user_id = ${userId}::uuid`);
  if (settings.leaderboard === false || settings.share_languages === false) {
    await db.execute(sql`DELETE FROM ${leaderboardLanguages} WHERE user_id = ${userId}::uuid`);
  }
  if (settings.leaderboard === true || settings.share_languages === true) {
    await db.execute(sql`UPDATE leaderboard_entries SET stats_version = -1 WHERE user_id = ${userId}::uuid`);
  }
  await db.execute(sql`UPDATE leaderboard_snapshots SET revision = revision + 1`);
}
