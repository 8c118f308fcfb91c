import { sql } from 'drizzle-orm';
import { config } from '../../config';
import { rows, type Db } from '../../db/client';
import { leaderboardLanguages } from '../../db/schema';
import { ProcessCache } from '../../process-cache';
import { listedOnLeaderboard, publicUserOf, sharesLanguages, type PublicUser } from '../../sharing/gate';
import type { LeaderboardQuery, LeaderboardRange } from './query';
import { freshSnapshot } from './snapshot';

// The leaderboard's pages: ranked from the snapshot in index order, with the owners' current
// settings checked again for the page's users.

const LANGUAGES_PER_ENTRY = 10;

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

const pages = new ProcessCache<LeaderboardPage>();

interface RankedRow {
  id: string;
  handle: string;
  display_name: string;
  total_millis: number;
  shares: boolean;
  rank: number;
  total: number;
}

/**
 * One page of the listed users ranked by total: ranked among the entries marked listed, read in
 * order from their index; only the page's rows are joined to the users, whose current settings
 * are checked again. Ties are ordered by user id, the same on every page.
 */
function rankedByTotal(db: Db, q: LeaderboardQuery): Promise<RankedRow[]> {
  return rows<RankedRow>(
    db,
    sql`WITH ranked AS (
          SELECT user_id, total_millis, rank() OVER (ORDER BY total_millis DESC)::int AS rank, count(*) OVER ()::int AS total
          FROM leaderboard_entries WHERE range = ${q.range} AND listed AND total_millis > 0
          ORDER BY total_millis DESC, user_id LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}
        )
        SELECT u.id, u.handle, u.display_name, r.total_millis::float8 AS total_millis, ${sharesLanguages(sql`u`)} AS shares, r.rank, r.total
        FROM ranked r JOIN users u ON u.id = r.user_id
        WHERE ${listedOnLeaderboard(sql`u`)}
        ORDER BY r.rank, r.user_id`,
  );
}

/**
 * One page ranked by one language's capped time: ranked in the snapshot's per-language totals,
 * read in order from their index (rows of users who stopped sharing are gone already); only the
 * page's rows are joined to the users, whose current settings are checked again.
 */
function rankedByLanguage(db: Db, q: LeaderboardQuery): Promise<RankedRow[]> {
  return rows<RankedRow>(
    db,
    sql`WITH ranked AS (
          SELECT user_id, millis, rank() OVER (ORDER BY millis DESC)::int AS rank, count(*) OVER ()::int AS total
          FROM ${leaderboardLanguages} WHERE range = ${q.range} AND language = ${q.language}
          ORDER BY millis DESC, user_id LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}
        )
        SELECT u.id, u.handle, u.display_name, e.total_millis::float8 AS total_millis, true AS shares, r.rank, r.total
        FROM ranked r JOIN users u ON u.id = r.user_id JOIN leaderboard_entries e ON e.range = ${q.range} AND e.user_id = r.user_id
        WHERE ${listedOnLeaderboard(sql`u`)} AND ${sharesLanguages(sql`u`)}
        ORDER BY r.rank, r.user_id`,
  );
}

/** One page of the leaderboard, ranked by total or by one language (ties share a rank). */
export async function leaderboardPage(db: Db, q: LeaderboardQuery): Promise<LeaderboardPage> {
  const snap = await freshSnapshot(db, q.range);
  const key = JSON.stringify([q, snap.generatedAt, snap.revision]);
  return pages.get(key, config().LEADERBOARD_MAX_AGE * 1000, async () => {
    const days = Number(q.range.slice(0, -1));
    const found = q.language ? await rankedByLanguage(db, q) : await rankedByTotal(db, q);
    // The top languages of the page's users who share languages, from the same snapshot.
    const sharing = found.filter((r) => r.shares).map((r) => r.id);
    const perLanguage = sharing.length
      ? await rows<{ user_id: string; name: string; millis: number }>(
          db,
          sql`SELECT user_id, language AS name, millis FROM ${leaderboardLanguages}
              WHERE range = ${q.range} AND user_id = ANY(${`{${sharing.join(',')}}`}::uuid[])`,
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
