import { sql } from 'drizzle-orm';
import { config } from '../config';
import { addDays, daysBetween } from '../dates';
import { rows, type Db } from '../db/client';
import { localDateHour } from '../ingest/local-time';
import { invalidQuery } from '../http/problem';
import { listedOnLeaderboard, publicUserOf, sharesLanguages, type PublicUser } from '../sharing/gate';
import { SharedCache } from './cache';
import { cappedPerUserDay } from './queries';

// The public leaderboard: a snapshot per range, rebuilt when older than LEADERBOARD_MAX_AGE by
// one process at a time, ranked when read with the owners' current settings applied.

export const leaderboardRanges = ['7d', '30d'] as const;
export type LeaderboardRange = (typeof leaderboardRanges)[number];
const MAX_LIMIT = 100;
const LANGUAGES_PER_ENTRY = 10;

export interface LeaderboardQuery {
  range: LeaderboardRange;
  language: string | null;
  page: number;
  limit: number;
}

export function parseLeaderboardQuery(params: URLSearchParams): LeaderboardQuery {
  const range = (params.get('range') ?? '7d') as LeaderboardRange;
  if (!leaderboardRanges.includes(range)) throw invalidQuery('range', 'must be 7d or 30d');
  const whole = (name: string, fallback: number, max: number) => {
    const raw = params.get(name);
    if (raw === null) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw invalidQuery(name, `must be a whole number from 1 to ${max}`);
    return Number(raw);
  };
  const language = params.get('language')?.trim() || null;
  if (language && language.length > 64) throw invalidQuery('language', 'must be at most 64 characters');
  return { range, language, page: whole('page', 1, 1_000_000), limit: whole('limit', 50, MAX_LIMIT) };
}

interface Snapshot {
  generatedAt: string;
  from: string;
  to: string;
}

async function readSnapshot(db: Db, range: LeaderboardRange): Promise<Snapshot | undefined> {
  const [row] = await rows<{ generated_at: string | Date; from_date: string; to_date: string }>(
    db,
    sql`SELECT generated_at, to_char(from_date, 'YYYY-MM-DD') AS from_date, to_char(to_date, 'YYYY-MM-DD') AS to_date
        FROM leaderboard_snapshots WHERE range = ${range}`,
  );
  return row && { generatedAt: new Date(row.generated_at).toISOString(), from: row.from_date, to: row.to_date };
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
  await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
  await tx.execute(sql`SET LOCAL jit = off`); // compiling costs more than it saves here
  await tx.execute(sql`
    WITH people AS (
      SELECT u.id, u.stats_version, e.total_millis AS kept,
             (${startOver} OR e.user_id IS NULL OR e.stats_version <> u.stats_version) AS afresh
      FROM users u LEFT JOIN leaderboard_entries e ON e.range = ${range} AND e.user_id = u.id
      WHERE ${listedOnLeaderboard(sql`u`)} OR e.user_id IS NOT NULL
    ),
    summed AS (${summed}),
    edges AS (${edges}),
    next AS (
      SELECT p.id, p.stats_version, p.kept IS NOT NULL AS kept, coalesce(s.total, p.kept + e.delta) AS total
      FROM people p LEFT JOIN summed s ON s.id = p.id LEFT JOIN edges e ON e.user_id = p.id
      WHERE p.afresh OR e.delta <> 0
    ),
    updated AS (
      UPDATE leaderboard_entries le SET total_millis = n.total, stats_version = n.stats_version
      FROM next n WHERE n.kept AND le.range = ${range} AND le.user_id = n.id
    )
    INSERT INTO leaderboard_entries (range, user_id, total_millis, stats_version)
    SELECT ${range}, id, total, stats_version FROM next WHERE NOT kept`);
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
 */
export async function freshSnapshot(db: Db, range: LeaderboardRange): Promise<Snapshot> {
  const current = await readSnapshot(db, range);
  if (isFresh(current)) return current;
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
        if (isFresh(previous)) return; // rebuilt while we asked for the lock
        await rebuild(tx, range, previous, utcToday());
      });
      return (await readSnapshot(db, range))!;
    })().finally(() => rebuilding.delete(range));
    rebuilding.set(range, pending);
  }
  return pending;
}

export interface LeaderboardEntry {
  rank: number;
  user: PublicUser;
  total_seconds: number;
  daily_average_seconds: number;
  languages: { name: string; seconds: number }[];
}

export interface LeaderboardPage {
  generated_at: string;
  range: { name: LeaderboardRange; from: string; to: string };
  language: string | null;
  page: number;
  limit: number;
  total: number;
  entries: LeaderboardEntry[];
}

const pages = new SharedCache<LeaderboardPage>();

/** One page of the leaderboard, ranked by total or by one language (ties share a rank). */
export async function leaderboardPage(db: Db, q: LeaderboardQuery): Promise<LeaderboardPage> {
  const snap = await freshSnapshot(db, q.range);
  const key = JSON.stringify([q, snap.generatedAt]);
  return pages.get(key, config().LEADERBOARD_MAX_AGE * 1000, async () => {
    const days = Number(q.range.slice(0, -1));
    const dates = { from: snap.from, to: snap.to };
    // Ranked by one language: that language's capped time of each listed user who shares languages.
    const byLanguage = q.language
      ? sql`JOIN (SELECT c.user_id, sum(c.millis) AS millis
                  FROM (${cappedPerUserDay('language', (col) => sql`${col} IN (SELECT user_id FROM leaderboard_entries WHERE range = ${q.range})`, dates, q.language)}) AS c
                  GROUP BY c.user_id HAVING sum(c.millis) > 0) AS l ON l.user_id = e.user_id AND ${sharesLanguages(sql`u`)}`
      : sql``;
    const value = q.language ? sql`l.millis` : sql`e.total_millis::float8`;
    const found = await rows<{ id: string; handle: string; display_name: string; total_millis: number; shares: boolean; rank: number; total: number }>(
      db,
      sql`SELECT u.id, u.handle, u.display_name, e.total_millis::float8 AS total_millis, ${sharesLanguages(sql`u`)} AS shares,
                 rank() OVER (ORDER BY ${value} DESC)::int AS rank, count(*) OVER ()::int AS total
          FROM leaderboard_entries e JOIN users u ON u.id = e.user_id ${byLanguage}
          WHERE e.range = ${q.range} AND e.total_millis > 0 AND ${listedOnLeaderboard(sql`u`)}
          ORDER BY ${value} DESC, u.handle
          LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}`,
    );
    const sharing = found.filter((r) => r.shares).map((r) => r.id);
    const perLanguage = sharing.length
      ? await rows<{ user_id: string; name: string; millis: number }>(
          db,
          sql`SELECT c.user_id, c.name, sum(c.millis)::float8 AS millis
              FROM (${cappedPerUserDay('language', (col) => sql`${col} IN (SELECT unnest(${`{${sharing.join(',')}}`}::uuid[]))`, dates)}) AS c
              GROUP BY 1, 2`,
        )
      : [];
    const entries: LeaderboardEntry[] = found.map((r) => {
      const total = Math.round(Number(r.total_millis) / 1000);
      return {
        rank: r.rank,
        user: publicUserOf(r),
        total_seconds: total,
        daily_average_seconds: Math.round(total / days),
        languages: perLanguage
          .filter((l) => l.user_id === r.id)
          .map((l) => ({ name: l.name, seconds: Math.round(Number(l.millis) / 1000) }))
          .filter((l) => l.seconds > 0)
          .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name))
          .slice(0, LANGUAGES_PER_ENTRY),
      };
    });
    return {
      generated_at: snap.generatedAt,
      range: { name: q.range, from: snap.from, to: snap.to },
      language: q.language,
      page: q.page,
      limit: q.limit,
      total: found[0]?.total ?? 0,
      entries,
    };
  });
}
