import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import {
  communityDayEditors,
  communityDayLanguages,
  communityDays,
  communityHours,
  ideActivity,
  userDayEditors,
  userDayLanguages,
  userDays,
  userHours,
} from '../db/schema';
import { HOUR_CAP_MILLIS } from '../activity';
import { isAiSql } from './agents';
import { minUsers } from '../sharing/gate';

// The read path: aggregates over the rollups, every hour capped at 3600 s. One user's figures
// come from the per-user rollups; site-wide ones from the community rollups
// (lib/stats/community.ts): only the released figures of cells (a date, or a date and a
// language, editor or hour) that rest on at least PUBLIC_MIN_USERS users on that date, so that
// no date on which few people coded counts, whatever other dates a range holds. Each query
// returns, with every figure, how many distinct users it rests on (site-wide: the most behind
// one of its cells), for the sharing gate.

/** One user's data, or every user who takes part in community statistics. */
export type Scope = { userId: string } | 'community';

const ofUser = (column: SQLWrapper, scope: { userId: string }) => sql`${column} = ${scope.userId}::uuid`;

export interface DayFigure {
  date: string;
  millis: number;
  users: number;
}

type CommunityTable = typeof communityDays | typeof communityHours | typeof communityDayLanguages | typeof communityDayEditors;

/** The community cells a site-wide figure may use: released, and resting on enough users that date. */
export const publishedCells = (c: CommunityTable) => sql`${c.users} >= ${minUsers()} AND ${c.released} IS NOT NULL`;
const day = (date: SQLWrapper) => sql`to_char(${date}, 'YYYY-MM-DD')`;

/** Capped coding time per date. */
export async function dayTotals(db: Db, scope: Scope, from: string, to: string): Promise<DayFigure[]> {
  const [c, d] = [communityDays, userDays];
  const found = await rows<DayFigure>(
    db,
    scope === 'community'
      ? sql`SELECT ${day(c.date)} AS date, ${c.released} AS millis, ${c.users} AS users FROM ${c}
            WHERE ${c.date} BETWEEN ${from} AND ${to} AND ${publishedCells(c)} ORDER BY ${c.date}`
      : sql`SELECT ${day(d.date)} AS date, ${d.millis}::float8 AS millis, 1 AS users
            FROM ${d} WHERE ${ofUser(d.userId, scope)} AND ${d.date} BETWEEN ${from} AND ${to} ORDER BY ${d.date}`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis) }));
}

/** Whether any site-wide day in the range may be shown (one that enough community members coded on). */
export async function communityDaysShown(db: Db, from: string, to: string): Promise<boolean> {
  const c = communityDays;
  const [row] = await rows<{ shown: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM ${c} WHERE ${c.date} BETWEEN ${from} AND ${to} AND ${publishedCells(c)}) AS shown`,
  );
  return row.shown;
}

/** How figures over a range are grouped: all together, per ISO week, or per date. */
export type Per = 'range' | 'week' | 'day';

/** The period a date falls in: '' for the whole range, the Monday of its ISO week, or the date. */
export const periodOf = (date: SQLWrapper, per: Per): SQL =>
  per === 'week' ? sql`to_char(date_trunc('week', ${date}), 'YYYY-MM-DD')` : per === 'day' ? sql`to_char(${date}, 'YYYY-MM-DD')` : sql`''`;

export interface NamedFigure {
  /** '' for the whole range, the Monday of the ISO week, or the date (see Per). */
  period: string;
  name: string;
  millis: number;
  users: number;
}

/** Per dimension: the per-user rollup and its name column, the stored buckets' column, the community rollup and its column. */
const dimensions = {
  language: { table: userDayLanguages, column: userDayLanguages.language, stored: ideActivity.language, community: communityDayLanguages, communityColumn: communityDayLanguages.language },
  editor: { table: userDayEditors, column: userDayEditors.editor, stored: ideActivity.editor, community: communityDayEditors, communityColumn: communityDayEditors.editor },
} as const;
export type Dimension = keyof typeof dimensions;

/** A date filter: an inclusive range, or a list of dates (an array parameter: its length guides the planner). */
export type Dates = { from: string; to: string } | { anyOf: string[] };
/** `column` within the dates. */
export const onDates = (column: SQLWrapper, dates: Dates) =>
  'anyOf' in dates ? sql`${column} = ANY(${`{${dates.anyOf.join(',')}}`}::date[])` : sql`${column} BETWEEN ${dates.from} AND ${dates.to}`;

/**
 * Capped time per user, date and language (or editor), as a query with columns user_id, date,
 * name, millis. The rollups hold uncapped sums; for the rare hours over the cap, the excess is
 * subtracted from each language (or editor) in proportion to its share of that hour, read from
 * the stored buckets of just those hours. `users` restricts a user_id column; `name` one name,
 * exactly or (`{ anyCase }`) ignoring case, as the leaderboards match a language.
 */
export function cappedPerUserDay(dimension: Dimension, users: (column: SQLWrapper) => SQL, dates: Dates, name?: string | { anyCase: string }): SQL {
  const { table: t, column, stored } = dimensions[dimension];
  const [h, a] = [userHours, ideActivity];
  const named = (c: SQLWrapper) =>
    name === undefined ? sql`` : typeof name === 'string' ? sql`AND ${c} = ${name}` : sql`AND lower(${c}) = lower(${name.anyCase})`;
  return sql`
    WITH raw AS (
      SELECT ${t.userId} AS user_id, ${t.date} AS date, ${column} AS name, ${t.millis}::float8 AS millis FROM ${t}
      WHERE ${users(t.userId)} AND ${onDates(t.date, dates)} ${named(column)}
    ), excess AS (
      SELECT ${a.userId} AS user_id, ${a.date} AS date, ${stored} AS name,
             sum(${a.millis} * (1 - ${HOUR_CAP_MILLIS}::float8 / ${h.millis})) AS millis
      FROM ${h}
      JOIN ${a} ON ${a.userId} = ${h.userId} AND ${a.date} = ${h.date} AND ${a.hour} = ${h.hour}
      WHERE ${users(h.userId)} AND ${onDates(h.date, dates)} AND ${h.millis} > ${HOUR_CAP_MILLIS} ${named(stored)}
      GROUP BY 1, 2, 3
    )
    SELECT r.user_id, r.date, r.name, r.millis - coalesce(x.millis, 0) AS millis
    FROM raw r LEFT JOIN excess x USING (user_id, date, name)`;
}

/** Capped time per language or editor, for the whole range, per ISO week or per date. */
export async function dimensionTotals(
  db: Db,
  scope: Scope,
  dimension: Dimension,
  from: string,
  to: string,
  per: Per = 'range',
): Promise<NamedFigure[]> {
  const { community: c, communityColumn } = dimensions[dimension];
  const found = await rows<NamedFigure>(
    db,
    scope === 'community'
      ? sql`SELECT ${periodOf(c.date, per)} AS period, ${communityColumn} AS name, sum(${c.released})::float8 AS millis, max(${c.users})::int AS users
            FROM ${c} WHERE ${c.date} BETWEEN ${from} AND ${to} AND ${publishedCells(c)}
            GROUP BY 1, 2`
      : sql`SELECT ${periodOf(sql`u.date`, per)} AS period, u.name, sum(u.millis)::float8 AS millis, 1 AS users
            FROM (${cappedPerUserDay(dimension, (column) => ofUser(column, scope), { from, to })}) AS u
            GROUP BY 1, 2`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis) }));
}

export interface HourCell {
  weekday: number;
  hour: number;
  millis: number;
  users: number;
}

/** Capped time per ISO weekday (Monday 0) and hour. */
export async function weekdayHours(db: Db, scope: Scope, from: string, to: string): Promise<HourCell[]> {
  const weekday = (date: SQLWrapper) => sql`(extract(isodow FROM ${date})::int - 1)`;
  const [c, h] = [communityHours, userHours];
  const found = await rows<HourCell>(
    db,
    scope === 'community'
      ? sql`SELECT ${weekday(c.date)} AS weekday, ${c.hour}::int AS hour, sum(${c.released})::float8 AS millis, max(${c.users})::int AS users
            FROM ${c} WHERE ${c.date} BETWEEN ${from} AND ${to} AND ${publishedCells(c)} GROUP BY 1, 2`
      : sql`SELECT ${weekday(h.date)} AS weekday, ${h.hour}::int AS hour, sum(least(${h.millis}, ${HOUR_CAP_MILLIS}))::float8 AS millis, 1 AS users
            FROM ${h} WHERE ${ofUser(h.userId, scope)} AND ${h.date} BETWEEN ${from} AND ${to} GROUP BY 1, 2`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis) }));
}

/** The earliest date with data, for range=all. */
export async function earliestDate(db: Db, scope: Scope): Promise<string | undefined> {
  const [row] = await rows<{ d: string | null }>(
    db,
    scope === 'community'
      ? sql`SELECT ${day(sql`min(${communityDays.date})`)} AS d FROM ${communityDays} WHERE ${publishedCells(communityDays)}`
      : sql`SELECT ${day(sql`min(${userDays.date})`)} AS d FROM ${userDays} WHERE ${ofUser(userDays.userId, scope)}`,
  );
  return row.d ?? undefined;
}

/**
 * One user's AI-assisted coding time (an AI agent's buckets, as lib/stats/agents.ts tells them, or the AI Coding category) from one
 * date to another, each hour capped at 3600 s as every figure (an hour over the cap scaled down in
 * proportion).
 */
export async function aiMillis(db: Db, userId: string, from: string, to: string): Promise<number> {
  const [a, h] = [ideActivity, userHours];
  const [row] = await rows<{ millis: number | null }>(
    db,
    sql`SELECT sum(${a.millis} * least(1, ${HOUR_CAP_MILLIS}::float8 / nullif(${h.millis}, 0)))::float8 AS millis
        FROM ${a} JOIN ${h} ON ${h.userId} = ${a.userId} AND ${h.date} = ${a.date} AND ${h.hour} = ${a.hour}
        WHERE ${a.userId} = ${userId}::uuid AND ${a.date} BETWEEN ${from} AND ${to} AND ${isAiSql(sql`${a.aiAgent}`, sql`${a.editor}`, sql`${a.category}`)}`,
  );
  return Number(row?.millis ?? 0);
}

/** One user's AI and human line changes from one date to another. */
export async function lineTotals(db: Db, userId: string, from: string, to: string) {
  const a = ideActivity;
  const [row] = await rows<{ ai_additions: number; ai_deletions: number; human_additions: number; human_deletions: number }>(
    db,
    sql`SELECT coalesce(sum(${a.aiAdditions}), 0)::float8 AS ai_additions, coalesce(sum(${a.aiDeletions}), 0)::float8 AS ai_deletions,
               coalesce(sum(${a.humanAdditions}), 0)::float8 AS human_additions, coalesce(sum(${a.humanDeletions}), 0)::float8 AS human_deletions
        FROM ${a} WHERE ${a.userId} = ${userId}::uuid AND ${a.date} BETWEEN ${from} AND ${to}`,
  );
  return { ai_additions: Number(row.ai_additions), ai_deletions: Number(row.ai_deletions), human_additions: Number(row.human_additions), human_deletions: Number(row.human_deletions) };
}
