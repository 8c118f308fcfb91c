import { sql } from 'drizzle-orm';
import { config } from '../../config';
import { rows, type Db } from '../../db/client';
import { onReplica } from '../../db/replicas';
import { selected } from '../../db/names';
import { leaderboardEntries, leaderboardLanguages, users } from '../../db/schema';
import { ProcessCache } from '../../process-cache';
import { listedOnLeaderboard, publicUserOf, sharesLanguages } from '../../sharing/gate';
import type { PublicUser } from '../../sharing/owner';
import { leaderboardRanges, type LeaderboardQuery, type LeaderboardRange } from './query';
import { freshSnapshot, readSnapshot, type Snapshot } from './snapshot';

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

const pages = new ProcessCache<LeaderboardPage>('leaderboard-pages');
const languageNames = new ProcessCache<string[]>('leaderboard-languages');

/**
 * The languages ranked in a range's snapshot (listed users who share languages, time above
 * zero), as the plugins spelled them, most users first. Kept per snapshot and revision: a user
 * who stops sharing takes their languages off at once, as off the pages.
 */
function rankedLanguages(db: Db, range: LeaderboardRange, snap: { generatedAt: string; revision: number }): Promise<string[]> {
  const key = JSON.stringify([range, snap.generatedAt, snap.revision]);
  // On a replica that has replayed every listing change this process knows of (lib/db/replicas.ts).
  return languageNames.get(key, config().LEADERBOARD_MAX_AGE * 1000, async () => {
    const [l, u] = [leaderboardLanguages, users];
    const found = await onReplica(db, 'site', (reader) => rows<{ name: string }>(
      reader,
      sql`SELECT ${l.language} AS name FROM ${l} JOIN ${u} ON ${u.id} = ${l.userId}
          WHERE ${l.range} = ${range} AND ${l.millis} > 0 AND ${listedOnLeaderboard(u)} AND ${sharesLanguages(u)}
          GROUP BY ${l.language} ORDER BY count(*) DESC, ${l.language}`,
    ), holds(range, snap));
    return found.map((r) => r.name);
  });
}

/** Language names compared the way the leaderboard's `language` matches them: ignoring case. */
const fold = (name: string) => name.toLowerCase();

/**
 * The languages a visitor can rank the leaderboard by: those ranked in either range, one
 * spelling for names that differ only in case (the one most users' plugins send), sorted by name.
 */
export async function languagesOnLeaderboard(db: Db): Promise<string[]> {
  const names = new Map<string, string>();
  for (const range of leaderboardRanges) {
    for (const name of await rankedLanguages(db, range, await freshSnapshot(db, range))) if (!names.has(fold(name))) names.set(fold(name), name);
  }
  return [...names.values()].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
}

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
  const [e, u] = [leaderboardEntries, users];
  return rows<RankedRow>(
    db,
    sql`WITH ranked AS (
          SELECT ${e.userId} AS user_id, ${e.totalMillis} AS total_millis, rank() OVER (ORDER BY ${e.totalMillis} DESC)::int AS rank, count(*) OVER ()::int AS total
          FROM ${e} WHERE ${e.range} = ${q.range} AND ${e.listed} AND ${e.totalMillis} > 0
          ORDER BY ${e.totalMillis} DESC, ${e.userId} LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}
        )
        SELECT ${selected(u.id, u.handle, u.displayName)}, r.total_millis::float8 AS total_millis, ${sharesLanguages(u)} AS shares, r.rank, r.total
        FROM ranked r JOIN ${u} ON ${u.id} = r.user_id
        WHERE ${listedOnLeaderboard(u)}
        ORDER BY r.rank, r.user_id`,
  );
}

/**
 * One page ranked by one language's capped time: ranked in the snapshot's per-language totals,
 * read in order from their index (rows of users who stopped sharing are gone already); only the
 * page's rows are joined to the users, whose current settings are checked again.
 */
function rankedByLanguage(db: Db, q: LeaderboardQuery, spellings: string[]): Promise<RankedRow[]> {
  const [l, e, u] = [leaderboardLanguages, leaderboardEntries, users];
  if (spellings.length === 0) return Promise.resolve([]);
  return rows<RankedRow>(
    db,
    sql`WITH matched AS (
          SELECT ${l.userId} AS user_id, sum(${l.millis}) AS millis
          FROM ${l} WHERE ${l.range} = ${q.range} AND ${l.language} IN (${sql.join(spellings.map((name) => sql`${name}`), sql`, `)})
          GROUP BY ${l.userId}
        ),
        ranked AS (
          SELECT user_id, millis, rank() OVER (ORDER BY millis DESC)::int AS rank, count(*) OVER ()::int AS total
          FROM matched ORDER BY millis DESC, user_id LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}
        )
        SELECT ${selected(u.id, u.handle, u.displayName)}, ${e.totalMillis}::float8 AS total_millis, true AS shares, r.rank, r.total
        FROM ranked r JOIN ${u} ON ${u.id} = r.user_id JOIN ${e} ON ${e.range} = ${q.range} AND ${e.userId} = r.user_id
        WHERE ${listedOnLeaderboard(u)} AND ${sharesLanguages(u)}
        ORDER BY r.rank, r.user_id`,
  );
}

/**
 * One page of the leaderboard, ranked by total or by one language (ties share a rank). The
 * language matches ignoring case: plugins spell some names differently ("TypeScript",
 * "typescript"), and a user's time under every spelling counts; the answer names the language
 * as most users' plugins spell it.
 */
export async function leaderboardPage(db: Db, q: LeaderboardQuery): Promise<LeaderboardPage> {
  const snap = await freshSnapshot(db, q.range);
  const spellings = q.language ? (await rankedLanguages(db, q.range, snap)).filter((name) => fold(name) === fold(q.language!)) : [];
  const language = spellings[0] ?? q.language;
  const key = JSON.stringify([{ ...q, language: language && fold(language) }, snap.generatedAt, snap.revision]);
  // The snapshot's name and revision came from the primary; its rows are read on a replica that has
  // replayed every listing change this process knows of (lib/db/replicas.ts).
  return pages.get(key, config().LEADERBOARD_MAX_AGE * 1000, () => onReplica(db, 'site', (reader) => rankedPage(reader, q, snap, spellings, language), holds(q.range, snap)));
}

/** Whether a replica has replayed the snapshot read on the primary (a rebuild is announced to nobody). */
const holds =
  (range: LeaderboardRange, snap: Pick<Snapshot, 'generatedAt' | 'revision'>) =>
  async (replica: Db): Promise<boolean> => {
    const there = await readSnapshot(replica, range);
    return there?.generatedAt === snap.generatedAt && there.revision === snap.revision;
  };

async function rankedPage(db: Db, q: LeaderboardQuery, snap: { generatedAt: string; from: string; to: string }, spellings: string[], language: string | null): Promise<LeaderboardPage> {
  const days = Number(q.range.slice(0, -1));
  const found = q.language ? await rankedByLanguage(db, q, spellings) : await rankedByTotal(db, q);
  // The top languages of the page's users who share languages, from the same snapshot.
  const sharing = found.filter((r) => r.shares).map((r) => r.id);
  const perLanguage = sharing.length
    ? await rows<{ user_id: string; name: string; millis: number }>(
        db,
        sql`SELECT ${leaderboardLanguages.userId} AS user_id, ${leaderboardLanguages.language} AS name, ${leaderboardLanguages.millis} AS millis
            FROM ${leaderboardLanguages}
            WHERE ${leaderboardLanguages.range} = ${q.range} AND ${leaderboardLanguages.userId} = ANY(${`{${sharing.join(',')}}`}::uuid[])`,
      )
    : [];
  const entries: LeaderboardEntry[] = found.map((r) => {
    const total = Math.round(Number(r.total_millis) / 1000);
    return {
      rank: r.rank,
      user: publicUserOf(r),
      total_seconds: total,
      // Over every date of the range, as the contract's example fixes it (API.md, Leaderboard); the page says so.
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
    language,
    page: q.page,
    limit: q.limit,
    total: found[0]?.total ?? 0,
    entries,
  };
}
