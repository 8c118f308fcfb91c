import { sql } from 'drizzle-orm';
import { HOUR_CAP_MILLIS } from '../activity';
import { addDays, isoWeekday } from '../dates';
import { rows, type Db } from '../db/client';
import { userDays, userHours } from '../db/schema';
import { localDateHour } from '../local-time';
import { codedDayAverage } from '../stats/average';
import type { RangeQuery, ResolvedRange } from '../stats/range';
import { userRange } from '../plans/history';
import { historyStart } from '../plans/limits';

// The owner's insights over a range (GET /me/insights), from the per-user rollups, every hour
// capped at 3600 s: user_days holds capped day totals, user_hours uncapped hours (capped here).
//
// - daily_average_seconds: the total over the days with any time, as WakaTime's daily average
//   (its days_minus_holidays) and every daily average of one's own (lib/stats/average.ts).
// - weekdays: per weekday, the time over every date of that weekday in the range, days without
//   time included: the point is which days of the week the owner codes on.
// - streak: over all time, whatever the range, since a run does not stop at a range's edge;
//   current is the run ending today or yesterday (today may not have started yet), else 0.

const seconds = (millis: number) => Math.round(millis / 1000);

export interface Insights {
  range: ResolvedRange;
  total_seconds: number;
  daily_average_seconds: number;
  best_day: { date: string; seconds: number } | null;
  weekdays: { weekday: number; average_seconds: number }[];
  hours: { hour: number; seconds: number }[];
  streak: { current_days: number; longest_days: number };
}

/** Runs of consecutive dates with time, up to today: the longest, and the one ending today or yesterday. */
async function streaks(db: Db, userId: string, today: string, floor: string | null): Promise<{ current_days: number; longest_days: number }> {
  const d = userDays;
  const [row] = await rows<{ longest: number | null; current: number | null }>(
    db,
    sql`WITH runs AS (
          SELECT max(date) AS last, count(*)::int AS n
          FROM (SELECT ${d.date} AS date, ${d.date} - (row_number() OVER (ORDER BY ${d.date}))::int AS run
                FROM ${d} WHERE ${d.userId} = ${userId}::uuid AND ${d.millis} > 0 AND ${d.date} <= ${today} AND ${d.date} >= ${floor ?? '0001-01-01'}) AS active
          GROUP BY run)
        SELECT max(n) AS longest, max(n) FILTER (WHERE last >= ${addDays(today, -1)}::date) AS current FROM runs`,
  );
  return { current_days: row?.current ?? 0, longest_days: row?.longest ?? 0 };
}

export async function insights(db: Db, user: { id: string; timezone: string }, query: RangeQuery, now = new Date()): Promise<Insights> {
  const today = localDateHour(user.timezone, now).date;
  const range = await userRange(db, user.id, query, today);
  const [d, h] = [userDays, userHours];
  const [days, hourRows, streak] = await Promise.all([
    rows<{ date: string; millis: number }>(
      db,
      sql`SELECT to_char(${d.date}, 'YYYY-MM-DD') AS date, ${d.millis}::float8 AS millis FROM ${d}
          WHERE ${d.userId} = ${user.id}::uuid AND ${d.date} BETWEEN ${range.from} AND ${range.to} AND ${d.millis} > 0 ORDER BY ${d.date}`,
    ),
    rows<{ hour: number; millis: number }>(
      db,
      sql`SELECT ${h.hour}::int AS hour, sum(least(${h.millis}, ${HOUR_CAP_MILLIS}))::float8 AS millis FROM ${h}
          WHERE ${h.userId} = ${user.id}::uuid AND ${h.date} BETWEEN ${range.from} AND ${range.to} GROUP BY 1`,
    ),
    streaks(db, user.id, today, await historyStart(db, user.id, today)),
  ]);

  let total = 0;
  let best: { date: string; millis: number } | null = null;
  const perWeekday = Array.from({ length: 7 }, () => 0);
  for (const day of days) {
    const millis = Number(day.millis);
    total += millis;
    if (!best || millis > best.millis) best = { date: day.date, millis };
    perWeekday[isoWeekday(day.date)] += millis;
  }
  // How many times each weekday occurs in the range: whole weeks, then the days left over.
  const span = Math.max(0, Math.round((Date.parse(range.to) - Date.parse(range.from)) / 86_400_000) + 1); // 0: wholly before the plan's window
  const occurrences = Array.from({ length: 7 }, () => Math.floor(span / 7));
  for (let i = 0; i < span % 7; i++) occurrences[(isoWeekday(range.from) + i) % 7] += 1;
  const perHour = new Map(hourRows.map((r) => [r.hour, Number(r.millis)]));

  return {
    range,
    total_seconds: seconds(total),
    daily_average_seconds: seconds(codedDayAverage(days.map((day) => Number(day.millis))).average),
    best_day: best && { date: best.date, seconds: seconds(best.millis) },
    weekdays: perWeekday.map((millis, weekday) => ({ weekday, average_seconds: occurrences[weekday] ? seconds(millis / occurrences[weekday]) : 0 })),
    hours: Array.from({ length: 24 }, (_, hour) => ({ hour, seconds: seconds(perHour.get(hour) ?? 0) })),
    streak,
  };
}
