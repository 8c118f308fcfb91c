import type { Db } from '../db/client';
import { earliestDate } from '../stats/queries';
import { resolveRange, type RangeQuery, type ResolvedRange } from '../stats/range';
import { clampToHistory, historyDaysOf, historyFloor } from './limits';

// The one place a user's figures get their dates: the range asked for, cut to the window of
// history the user's plan shows (history_days, ending on the user's today). Every read of one
// user's figures (their own and public ones: charts, stats, summaries, insights, projects,
// badges, the WakaTime routes, the dashboard) resolves its range here, so that none shows a day
// older than the window. Older activity stays stored: a plan with a longer window shows it again.

/**
 * The dates `query` covers for the user, given their today: `all` from their first day with
 * data, every range from no earlier than the plan's window. `historyDays` when the caller has it
 * (a cached public owner); otherwise it is read.
 */
export async function userRange(db: Db, userId: string, query: RangeQuery, today: string, historyDays?: number | null): Promise<ResolvedRange> {
  const days = historyDays === undefined ? await historyDaysOf(db, userId) : historyDays;
  const floor = historyFloor(days, today);
  const earliest = query.name === 'all' ? await earliestDate(db, { userId }) : undefined;
  return clampToHistory(resolveRange(query, today, earliest), floor);
}

/** A span given as its dates (from, to) cut to the user's window; from after to when none of it shows. */
export async function userSpan(db: Db, userId: string, from: string, to: string, today: string): Promise<{ from: string; to: string }> {
  return clampToHistory({ from, to }, historyFloor(await historyDaysOf(db, userId), today));
}

/**
 * The first date the user's plan shows when it hides some of the dates `query` asks for (for
 * `all`, some day with data); null when it hides none of them. The pages say so beside the range.
 */
export async function hiddenBefore(db: Db, userId: string, query: RangeQuery, today: string): Promise<string | null> {
  const floor = historyFloor(await historyDaysOf(db, userId), today);
  if (floor === null) return null;
  const asked = resolveRange(query, today, query.name === 'all' ? await earliestDate(db, { userId }) : undefined);
  return asked.from < floor ? floor : null;
}
