import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { HOUR_CAP_MILLIS } from '../ingest/store';
import { communityMembers } from '../sharing/gate';

// The read path: aggregates over the rollups, every hour capped at 3600 s. Each query returns,
// with every figure, how many distinct users it rests on, so the sharing gate can hold back
// site-wide entries that rest on too few.

/** One user's data, or every user who takes part in community statistics. */
export type Scope = { userId: string } | 'community';

const ofScope = (column: SQL, scope: Scope) =>
  scope === 'community' ? sql`${column} IN (${communityMembers})` : sql`${column} = ${scope.userId}::uuid`;

export interface DayFigure {
  date: string;
  millis: number;
  users: number;
}

/** Capped coding time per date. */
export async function dayTotals(db: Db, scope: Scope, from: string, to: string): Promise<DayFigure[]> {
  const found = await rows<DayFigure>(
    db,
    sql`SELECT to_char(date, 'YYYY-MM-DD') AS date, sum(millis)::float8 AS millis, count(*)::int AS users
        FROM user_days WHERE ${ofScope(sql`user_id`, scope)} AND date BETWEEN ${from} AND ${to}
        GROUP BY date ORDER BY date`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis) }));
}

/** Distinct users with any time in the range. */
export async function usersInRange(db: Db, scope: Scope, from: string, to: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(DISTINCT user_id)::int AS n FROM user_days
        WHERE ${ofScope(sql`user_id`, scope)} AND date BETWEEN ${from} AND ${to} AND millis > 0`,
  );
  return row.n;
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
export type Dimension = keyof typeof dimensions;

/**
 * Capped time per user, date and language (or editor), as a query with columns user_id, date,
 * name, millis. The rollups hold uncapped sums; for the rare hours over the cap, the excess is
 * taken back from each language (or editor) in proportion to its share of that hour, read from
 * the stored buckets of just those hours. `users` restricts a user_id column.
 */
export function cappedPerUserDay(dimension: Dimension, users: (column: SQL) => SQL, from: string, to: string): SQL {
  const { table, column } = dimensions[dimension];
  return sql`
    WITH raw AS (
      SELECT user_id, date, ${column} AS name, millis::float8 AS millis FROM ${table}
      WHERE ${users(sql`user_id`)} AND date BETWEEN ${from} AND ${to}
    ), excess AS (
      SELECT a.user_id, a.date, a.${column} AS name,
             sum(a.millis * (1 - ${HOUR_CAP_MILLIS}::float8 / h.millis)) AS millis
      FROM user_hours h
      JOIN ide_activity a ON a.user_id = h.user_id AND a.date = h.date AND a.hour = h.hour
      WHERE ${users(sql`h.user_id`)} AND h.date BETWEEN ${from} AND ${to} AND h.millis > ${HOUR_CAP_MILLIS}
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
  const found = await rows<NamedFigure>(
    db,
    sql`SELECT ${period} AS period, c.name, sum(c.millis)::float8 AS millis, count(DISTINCT c.user_id)::int AS users
        FROM (${cappedPerUserDay(dimension, (column) => ofScope(column, scope), from, to)}) AS c
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
  const found = await rows<HourCell>(
    db,
    sql`SELECT (extract(isodow FROM date)::int - 1) AS weekday, hour::int AS hour,
               sum(least(millis, ${HOUR_CAP_MILLIS}))::float8 AS millis, count(DISTINCT user_id)::int AS users
        FROM user_hours WHERE ${ofScope(sql`user_id`, scope)} AND date BETWEEN ${from} AND ${to}
        GROUP BY 1, 2`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis) }));
}

/** The earliest date with data, for range=all. */
export async function earliestDate(db: Db, scope: Scope): Promise<string | undefined> {
  const [row] = await rows<{ d: string | null }>(
    db,
    sql`SELECT to_char(min(date), 'YYYY-MM-DD') AS d FROM user_days WHERE ${ofScope(sql`user_id`, scope)}`,
  );
  return row.d ?? undefined;
}
