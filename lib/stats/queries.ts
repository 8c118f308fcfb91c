import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { HOUR_CAP_MILLIS } from '../ingest/store';

// The read path: aggregates over the rollups, every hour capped at 3600 s. Each query returns,
// with every figure, how many distinct users it rests on, so the sharing gate can hold back
// site-wide entries that rest on too few. One user's figures come from the per-user rollups;
// site-wide ones from the community rollups (lib/stats/community.ts), one row per date, where a
// figure over several dates rests on at least as many users as its busiest date: that maximum
// is the count the gate uses, a lower bound, so it can only hold back more, never less.

/** One user's data, or every user who takes part in community statistics. */
export type Scope = { userId: string } | 'community';

const ofUser = (column: SQL, scope: { userId: string }) => sql`${column} = ${scope.userId}::uuid`;

export interface DayFigure {
  date: string;
  millis: number;
  users: number;
}

/** Capped coding time per date. */
export async function dayTotals(db: Db, scope: Scope, from: string, to: string): Promise<DayFigure[]> {
  const found = await rows<DayFigure>(
    db,
    scope === 'community'
      ? sql`SELECT to_char(date, 'YYYY-MM-DD') AS date, millis, users FROM community_days
            WHERE date BETWEEN ${from} AND ${to} ORDER BY date`
      : sql`SELECT to_char(date, 'YYYY-MM-DD') AS date, millis::float8 AS millis, 1 AS users
            FROM user_days WHERE ${ofUser(sql`user_id`, scope)} AND date BETWEEN ${from} AND ${to} ORDER BY date`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis) }));
}

/** How many community members had time in the range, at least (the busiest date's count). */
export async function communityUsersInRange(db: Db, from: string, to: string): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT coalesce(max(users), 0)::int AS n FROM community_days WHERE date BETWEEN ${from} AND ${to}`);
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

/** A date filter: an inclusive range, or the dates a query names. */
export type Dates = { from: string; to: string } | { in: SQL };
const onDates = (column: SQL, dates: Dates) => ('in' in dates ? sql`${column} IN (${dates.in})` : sql`${column} BETWEEN ${dates.from} AND ${dates.to}`);

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
      ? sql`SELECT ${period} AS period, c.${column} AS name, sum(c.millis)::float8 AS millis, max(c.users)::int AS users
            FROM ${sql.raw(`community_day_${dimension}s`)} c WHERE c.date BETWEEN ${from} AND ${to}
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
      ? sql`SELECT ${weekday} AS weekday, hour::int AS hour, sum(millis)::float8 AS millis, max(users)::int AS users
            FROM community_hours WHERE date BETWEEN ${from} AND ${to} GROUP BY 1, 2`
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
      ? sql`SELECT to_char(min(date), 'YYYY-MM-DD') AS d FROM community_days`
      : sql`SELECT to_char(min(date), 'YYYY-MM-DD') AS d FROM user_days WHERE ${ofUser(sql`user_id`, scope)}`,
  );
  return row.d ?? undefined;
}
