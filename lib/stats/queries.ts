import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { communityDayEditors, communityDayLanguages, communityDays, communityHours } from '../db/schema';
import { HOUR_CAP_MILLIS } from '../activity';
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

const ofUser = (column: SQL, scope: { userId: string }) => sql`${column} = ${scope.userId}::uuid`;

export interface DayFigure {
  date: string;
  millis: number;
  users: number;
}

/** The community cells a site-wide figure may use: released, and resting on enough users that date. */
const publishedCells = (c: SQL = sql`c`) => sql`${c}.users >= ${minUsers()} AND ${c}.released IS NOT NULL`;

/** Capped coding time per date. */
export async function dayTotals(db: Db, scope: Scope, from: string, to: string): Promise<DayFigure[]> {
  const found = await rows<DayFigure>(
    db,
    scope === 'community'
      ? sql`SELECT to_char(date, 'YYYY-MM-DD') AS date, released AS millis, users FROM ${communityDays} c
            WHERE date BETWEEN ${from} AND ${to} AND ${publishedCells()} ORDER BY date`
      : sql`SELECT to_char(date, 'YYYY-MM-DD') AS date, millis::float8 AS millis, 1 AS users
            FROM user_days WHERE ${ofUser(sql`user_id`, scope)} AND date BETWEEN ${from} AND ${to} ORDER BY date`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis) }));
}

/** Whether any site-wide day in the range may be shown (one that enough community members coded on). */
export async function communityDaysShown(db: Db, from: string, to: string): Promise<boolean> {
  const [row] = await rows<{ shown: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM ${communityDays} c WHERE date BETWEEN ${from} AND ${to} AND ${publishedCells()}) AS shown`,
  );
  return row.shown;
}

export interface NamedFigure {
  /** '' for the whole range, or the Monday of the ISO week. */
  period: string;
  name: string;
  millis: number;
  users: number;
}

const dimensions = {
  language: { table: sql`user_day_languages`, column: sql`language` },
  editor: { table: sql`user_day_editors`, column: sql`editor` },
} as const;
const communityTables = { language: communityDayLanguages, editor: communityDayEditors } as const;
export type Dimension = keyof typeof dimensions;

/** A date filter: an inclusive range, or a list of dates (an array parameter: its length guides the planner). */
export type Dates = { from: string; to: string } | { anyOf: string[] };
/** `column` within the dates. */
export const onDates = (column: SQL, dates: Dates) =>
  'anyOf' in dates ? sql`${column} = ANY(${`{${dates.anyOf.join(',')}}`}::date[])` : sql`${column} BETWEEN ${dates.from} AND ${dates.to}`;

/**
 * Capped time per user, date and language (or editor), as a query with columns user_id, date,
 * name, millis. The rollups hold uncapped sums; for the rare hours over the cap, the excess is
 * taken back from each language (or editor) in proportion to its share of that hour, read from
 * the stored buckets of just those hours. `users` restricts a user_id column.
 */
export function cappedPerUserDay(dimension: Dimension, users: (column: SQL) => SQL, dates: Dates, name?: string): SQL {
  const { table, column } = dimensions[dimension];
  const named = (c: SQL) => (name === undefined ? sql`` : sql`AND ${c} = ${name}`);
  return sql`
    WITH raw AS (
      SELECT user_id, date, ${column} AS name, millis::float8 AS millis FROM ${table}
      WHERE ${users(sql`user_id`)} AND ${onDates(sql`date`, dates)} ${named(column)}
    ), excess AS (
      SELECT a.user_id, a.date, a.${column} AS name,
             sum(a.millis * (1 - ${HOUR_CAP_MILLIS}::float8 / h.millis)) AS millis
      FROM user_hours h
      JOIN ide_activity a ON a.user_id = h.user_id AND a.date = h.date AND a.hour = h.hour
      WHERE ${users(sql`h.user_id`)} AND ${onDates(sql`h.date`, dates)} AND h.millis > ${HOUR_CAP_MILLIS} ${named(sql`a.${column}`)}
      GROUP BY 1, 2, 3
    )
    SELECT r.user_id, r.date, r.name, r.millis - coalesce(x.millis, 0) AS millis
    FROM raw r LEFT JOIN excess x USING (user_id, date, name)`;
}

/** Capped time per language or editor, for the whole range or per ISO week. */
export async function dimensionTotals(
  db: Db,
  scope: Scope,
  dimension: Dimension,
  from: string,
  to: string,
  per: 'range' | 'week' = 'range',
): Promise<NamedFigure[]> {
  const period = per === 'week' ? sql`to_char(date_trunc('week', c.date), 'YYYY-MM-DD')` : sql`''`;
  const { column } = dimensions[dimension];
  const found = await rows<NamedFigure>(
    db,
    scope === 'community'
      ? sql`SELECT ${period} AS period, c.${column} AS name, sum(c.released)::float8 AS millis, max(c.users)::int AS users
            FROM ${communityTables[dimension]} c WHERE c.date BETWEEN ${from} AND ${to} AND ${publishedCells()}
            GROUP BY 1, 2`
      : sql`SELECT ${period} AS period, c.name, sum(c.millis)::float8 AS millis, 1 AS users
            FROM (${cappedPerUserDay(dimension, (col) => ofUser(col, scope), { from, to })}) AS c
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
  const weekday = sql`(extract(isodow FROM date)::int - 1)`;
  const found = await rows<HourCell>(
    db,
    scope === 'community'
      ? sql`SELECT ${weekday} AS weekday, hour::int AS hour, sum(released)::float8 AS millis, max(users)::int AS users
            FROM ${communityHours} c WHERE date BETWEEN ${from} AND ${to} AND ${publishedCells()} GROUP BY 1, 2`
      : sql`SELECT ${weekday} AS weekday, hour::int AS hour, sum(least(millis, ${HOUR_CAP_MILLIS}))::float8 AS millis, 1 AS users
            FROM user_hours WHERE ${ofUser(sql`user_id`, scope)} AND date BETWEEN ${from} AND ${to} GROUP BY 1, 2`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis) }));
}

/** The earliest date with data, for range=all. */
export async function earliestDate(db: Db, scope: Scope): Promise<string | undefined> {
  const [row] = await rows<{ d: string | null }>(
    db,
    scope === 'community'
      ? sql`SELECT to_char(min(date), 'YYYY-MM-DD') AS d FROM ${communityDays} c WHERE ${publishedCells()}`
      : sql`SELECT to_char(min(date), 'YYYY-MM-DD') AS d FROM user_days WHERE ${ofUser(sql`user_id`, scope)}`,
  );
  return row.d ?? undefined;
}
