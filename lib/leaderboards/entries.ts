import { sql } from 'drizzle-orm';
import { addDays } from '../dates';
import { rows, type Db } from '../db/client';
import { plans, privateLeaderboardMembers, userDays, users } from '../db/schema';
import { historyFloorSql } from '../plans/limits';
import { localDateHour } from '../local-time';
import { cappedPerUserDay } from '../stats/queries';
import type { LeaderboardRange } from '../stats/leaderboard/query';

// A private leaderboard's ranking, by the public leaderboard's rules: the last 7 or 30 dates up
// to today (UTC's for the API, as the public board; the viewer's own on the dashboard), each
// member's time on their own dates (no one's hours show), every user-hour counting at most
// 3600 s (user_days holds it capped), members with equal time sharing a rank (rank(): 1, 1, 3; ties listed by user id), only members with time.
// Ranked by a language (matched ignoring case, every spelling counted), it ranks only members who
// share languages (their setting, read in the same statement): joining shows a member's totals to
// the other members, never a language they keep private. No day counts before the window of
// history the member's own plan shows (as their own figures). Nothing is cached: a member who
// leaves, or stops sharing languages, is gone from the next read.

export interface BoardEntry {
  rank: number;
  user_id: string;
  handle: string;
  display_name: string;
  /** Whether the member's profile is public: only then may a board name them by id (WakaTime's shape). */
  profile_public: boolean;
  /** Capped milliseconds over the range (in the language, when ranked by one). */
  millis: number;
  seconds: number;
}

export interface BoardEntries {
  range: LeaderboardRange;
  from: string;
  to: string;
  /** The language as most of the ranked members' plugins spell it (as asked when none has time in it); null: by total. */
  language: string | null;
  entries: BoardEntry[];
}

export const rangeDates = (range: LeaderboardRange, today = localDateHour('UTC').date) => ({ from: addDays(today, 1 - Number(range.slice(0, -1))), to: today });

interface Row {
  user_id: string;
  handle: string;
  display_name: string;
  profile_public: boolean;
  millis: number;
  rank: number;
  spelling: string | null;
}

const [m, u, d, p] = [privateLeaderboardMembers, users, userDays, plans];

/**
 * The board's members (user_id, handle, display_name, and floor: the first date each one's plan
 * shows), only those who show languages when `languages`: the membership index, then each
 * member's row by its key (OFFSET 0 keeps the planner from hashing every user instead). Used
 * MATERIALIZED: each floor is computed once, not once per day of the member.
 */
const members = (boardId: string, languages = false) =>
  sql`SELECT ${m.userId} AS user_id, member.*
      FROM ${m} CROSS JOIN LATERAL (
        SELECT ${u.handle} AS handle, ${u.displayName} AS display_name, ${u.profilePublic} AS profile_public, ${historyFloorSql(p.limits, u.timezone)} AS floor
        FROM ${u} JOIN ${p} ON ${p.id} = ${u.planId}
        WHERE ${u.id} = ${m.userId} ${languages ? sql`AND ${languagesShown}` : sql``} OFFSET 0
      ) AS member
      WHERE ${m.boardId} = ${boardId}::uuid`;

/**
 * Whose languages a board shows: members who show them on their public profile (a public profile
 * with languages shared), as the settings page promises; joining shows only one's total.
 */
const languagesShown = sql`${u.profilePublic} AND ${u.shareLanguages}`;

/** The board's ranking: one statement over the members' rollups (membership index, then each member's days). */
export async function boardEntries(db: Db, boardId: string, range: LeaderboardRange, language: string | null, today?: string): Promise<BoardEntries> {
  const { from, to } = rangeDates(range, today);
  const ranked = language
    ? sql`WITH members AS MATERIALIZED (${members(boardId, true)}),
          spelled AS (
            SELECT c.user_id, c.name, sum(c.millis) AS millis
            FROM (${cappedPerUserDay('language', (column) => sql`${column} IN (SELECT user_id FROM members)`, { from, to }, { anyCase: language })}) AS c
            JOIN members ON members.user_id = c.user_id AND c.date >= members.floor
            GROUP BY 1, 2 HAVING sum(c.millis) >= 1
          ),
          totals AS (SELECT user_id, sum(millis) AS millis FROM spelled GROUP BY 1)
          SELECT t.user_id, members.handle, members.display_name, members.profile_public, t.millis::float8 AS millis,
                 rank() OVER (ORDER BY t.millis DESC)::int AS rank,
                 (SELECT name FROM spelled GROUP BY name ORDER BY count(*) DESC, name LIMIT 1) AS spelling
          FROM totals t JOIN members USING (user_id)
          ORDER BY t.millis DESC, t.user_id`
    : sql`WITH members AS MATERIALIZED (${members(boardId)}),
          totals AS (
            SELECT ${d.userId} AS user_id, sum(${d.millis}::int) AS millis
            FROM members JOIN ${d} ON ${d.userId} = members.user_id AND ${d.date} BETWEEN ${from} AND ${to} AND ${d.date} >= members.floor
            GROUP BY 1 HAVING sum(${d.millis}::int) > 0
          )
          SELECT t.user_id, members.handle, members.display_name, members.profile_public, t.millis::float8 AS millis,
                 rank() OVER (ORDER BY t.millis DESC)::int AS rank, NULL AS spelling
          FROM totals t JOIN members USING (user_id)
          ORDER BY t.millis DESC, t.user_id`;
  const found = await rows<Row>(db, ranked);
  return {
    range,
    from,
    to,
    language: language ? (found[0]?.spelling ?? language) : null,
    entries: found.map((r) => ({
      rank: r.rank,
      user_id: r.user_id,
      handle: r.handle,
      display_name: r.display_name,
      profile_public: r.profile_public,
      millis: Number(r.millis),
      seconds: Math.round(Number(r.millis) / 1000),
    })),
  };
}

/**
 * Each member's capped time per language over the dates, only for members who share languages:
 * the members read through the board's membership index (an id list would be matched against
 * every user).
 */
export async function sharedLanguages(db: Db, boardId: string, dates: { from: string; to: string }): Promise<Map<string, { name: string; seconds: number }[]>> {
  const byUser = new Map<string, { name: string; seconds: number }[]>();
  const found = await rows<{ user_id: string; name: string; millis: number }>(
    db,
    sql`WITH members AS MATERIALIZED (${members(boardId, true)})
        SELECT c.user_id, c.name, sum(c.millis)::float8 AS millis
        FROM (${cappedPerUserDay('language', (column) => sql`${column} IN (SELECT user_id FROM members)`, dates)}) AS c
        JOIN members ON members.user_id = c.user_id AND c.date >= members.floor
        GROUP BY 1, 2 HAVING sum(c.millis) >= 1`,
  );
  for (const r of found) {
    const list = byUser.get(r.user_id) ?? [];
    list.push({ name: r.name, seconds: Math.round(Number(r.millis) / 1000) });
    byUser.set(r.user_id, list);
  }
  for (const list of byUser.values()) list.sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name));
  return byUser;
}
