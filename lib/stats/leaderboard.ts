import { sql } from 'drizzle-orm';
import { config } from '../config';
import { addDays } from '../dates';
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

/** Recomputes one range for every opted-in user: capped totals and capped seconds per language. */
async function rebuild(tx: Db, range: LeaderboardRange): Promise<void> {
  const to = localDateHour('UTC').date;
  const from = addDays(to, 1 - Number(range.slice(0, -1)));
  await tx.execute(sql`DELETE FROM leaderboard_entries WHERE range = ${range}`);
  // The snapshot ranks totals only; languages are read for the users of the page being shown.
  await tx.execute(sql`
    INSERT INTO leaderboard_entries (range, user_id, total_millis)
    SELECT ${range}, user_id, sum(millis) FROM user_days
    WHERE date BETWEEN ${from} AND ${to} AND user_id IN (SELECT id FROM users u WHERE ${listedOnLeaderboard(sql`u`)})
    GROUP BY user_id HAVING sum(millis) > 0`);
  await tx.execute(sql`
    INSERT INTO leaderboard_snapshots (range, generated_at, from_date, to_date) VALUES (${range}, now(), ${from}, ${to})
    ON CONFLICT (range) DO UPDATE SET generated_at = now(), from_date = excluded.from_date, to_date = excluded.to_date`);
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
        const lockKey = sql`hashtextextended(${'codetally:leaderboard:' + range}, 0)`;
        const [{ locked }] = await rows<{ locked: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${lockKey}) AS locked`);
        if (!locked) {
          if (current) return; // another process is rebuilding: the previous snapshot will do
          await tx.execute(sql`SELECT pg_advisory_xact_lock(${lockKey})`);
          return;
        }
        if (isFresh(await readSnapshot(tx, range))) return; // rebuilt while we asked for the lock
        await rebuild(tx, range);
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
          WHERE e.range = ${q.range} AND ${listedOnLeaderboard(sql`u`)}
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
