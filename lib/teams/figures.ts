import { sql } from 'drizzle-orm';
import { addDays } from '../dates';
import { rows, type Db } from '../db/client';
import { plans, teamMembers, userDays, users } from '../db/schema';
import { localDateHour } from '../local-time';
import { historyFloorSql } from '../plans/limits';
import { cappedPerUserDay } from '../stats/queries';
import type { TeamMemberDto, TeamRange, TeamRole, TeamShare } from './schemas';

// A team's figures: every member listed (handle, display name, role), with their time only while
// they share it with the team and their languages only while they share languages. Each user-hour
// counts at most 3600 s, read from the same rollups as the member's own totals (user_days, and the
// capped languages of lib/stats/queries.ts), and no day before the window of history the member's
// own plan shows (as their own figures). One statement for the whole team, straight from the
// database: a consent change, a leave or a change of plan shows in the next request.

export interface TeamDates {
  name: TeamRange;
  from: string;
  to: string;
}

/** The range's dates, ending today: UTC dates (as the public leaderboard's), or those of `zone` (a viewer's). */
export function teamDates(name: TeamRange, now = new Date(), zone = 'UTC'): TeamDates {
  const to = localDateHour(zone, now).date;
  return { name, from: addDays(to, 1 - Number(name.slice(0, -1))), to };
}

interface Row {
  handle: string;
  display_name: string;
  role: TeamRole;
  share: TeamShare;
  millis: number | null;
  languages: { name: string; millis: number }[] | null;
}

const ROLE_ORDER: Record<TeamRole, number> = { owner: 0, admin: 1, member: 2 };

/** The members of a team with what each shares over the dates, the most time first. */
export async function teamFigures(db: Db, teamId: string, range: { from: string; to: string }): Promise<TeamMemberDto[]> {
  const [m, u, d, p] = [teamMembers, users, userDays, plans];
  const sharing = (levels: TeamShare[]) => sql`members.share = ANY(${`{${levels.join(',')}}`}::text[])`;
  const found = await rows<Row>(
    db,
    sql`WITH members AS MATERIALIZED (
          SELECT ${m.userId} AS user_id, ${m.role} AS role, ${m.share} AS share, ${u.handle} AS handle, ${u.displayName} AS display_name,
                 ${historyFloorSql(p.limits, u.timezone)} AS floor
          FROM ${m} JOIN ${u} ON ${u.id} = ${m.userId} JOIN ${p} ON ${p.id} = ${u.planId} WHERE ${m.teamId} = ${teamId}::uuid
        ), totals AS (
          SELECT ${d.userId} AS user_id, sum(${d.millis})::float8 AS millis
          FROM members JOIN ${d} ON ${d.userId} = members.user_id AND ${d.date} BETWEEN ${range.from} AND ${range.to} AND ${d.date} >= members.floor
          WHERE ${sharing(['total', 'languages'])}
          GROUP BY 1
        ), languages AS (
          SELECT l.user_id, l.name, sum(l.millis)::float8 AS millis
          FROM (${cappedPerUserDay('language', (column) => sql`${column} IN (SELECT user_id FROM members WHERE ${sharing(['languages'])})`, range)}) AS l
          JOIN members ON members.user_id = l.user_id AND l.date >= members.floor
          GROUP BY 1, 2
        )
        SELECT members.handle, members.display_name, members.role, members.share,
               CASE WHEN members.share = 'none' THEN NULL ELSE coalesce(totals.millis, 0) END AS millis,
               CASE WHEN members.share = 'languages' THEN
                 coalesce((SELECT json_agg(json_build_object('name', l.name, 'millis', l.millis)) FROM languages l WHERE l.user_id = members.user_id), '[]'::json)
               END AS languages
        FROM members LEFT JOIN totals USING (user_id)`,
  );
  const seconds = (millis: number) => Math.round(Number(millis) / 1000);
  return found
    .map((r): TeamMemberDto => ({
      handle: r.handle,
      display_name: r.display_name,
      role: r.role,
      share: r.share,
      seconds: r.millis === null ? null : seconds(r.millis),
      ...(r.languages
        ? {
            languages: r.languages
              .map((l) => ({ name: l.name, seconds: seconds(l.millis) }))
              .filter((l) => l.seconds > 0)
              .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name)),
          }
        : {}),
    }))
    .sort((a, b) => (b.seconds ?? -1) - (a.seconds ?? -1) || ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.handle.localeCompare(b.handle));
}

/**
 * Each member's time per date of the range, for the members who share at least their total with
 * the team: the days of their own figures (user_days: each hour at most 3600 s, none before their
 * plan's window), on their own dates. Not moved to the viewer's time zone: that would tell the
 * team when in the day a member codes. Handles with no time in the range are left out.
 */
export async function teamDays(db: Db, teamId: string, range: { from: string; to: string }): Promise<Map<string, Map<string, number>>> {
  const [m, u, d, p] = [teamMembers, users, userDays, plans];
  const found = await rows<{ handle: string; date: string; millis: number }>(
    db,
    sql`SELECT ${u.handle} AS handle, ${d.date}::text AS date, ${d.millis}::float8 AS millis
        FROM ${m} JOIN ${u} ON ${u.id} = ${m.userId} JOIN ${p} ON ${p.id} = ${u.planId}
        JOIN ${d} ON ${d.userId} = ${m.userId} AND ${d.date} BETWEEN ${range.from} AND ${range.to} AND ${d.date} >= ${historyFloorSql(p.limits, u.timezone)}
        WHERE ${m.teamId} = ${teamId}::uuid AND ${m.share} IN ('total', 'languages') AND ${d.millis} > 0`,
  );
  const days = new Map<string, Map<string, number>>();
  for (const r of found) {
    const member = days.get(r.handle) ?? new Map<string, number>();
    days.set(r.handle, member);
    member.set(r.date, Math.round(Number(r.millis) / 1000));
  }
  return days;
}
