import type { Db } from '../db/client';
import { addDays } from '../dates';
import { localDay } from '../local-time';
import { durationText } from '../wakatime/reading/summaries';
import { findGoal, judgeGoals, listGoals, periods, type ChartPeriod, type Judged } from './goals';

// Goals in WakaTime's shape (GET /api/wakatime/v1/users/current/goals[/{id}]). wakatime-cli's
// --today-goal <id> prints `data.chart_data[last].actual_seconds_text` of the single goal, so the
// last entry is always the current period and chart_data is never empty. A goal reads here as a
// `stats` key sees it, whatever the key (as every WakaTime-shaped read names no hidden project):
// a goal on a hidden project lists no project, and its title says "a hidden project". chart_data
// holds the goal's periods as the dashboard judges them (periods); a day a goal ignores
// (WakaTime's ignore_days: Saturdays and Sundays) is listed with range_status `ignored`, as
// WakaTime lists it, so the last entry stays the current period on a weekend too.

/** How many periods chart_data holds, as WakaTime's goal charts. */
const CHART_PERIODS = 7;

const shortDate = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const weekdayDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).replace(',', '');

/** WakaTime's name for a period: Today, Yesterday, Mon Jan 23; This week, Last week, Jan 16 - Jan 22. */
function rangeText(j: Judged, start: string): string {
  if (j.period === 'day') return start === j.current ? 'Today' : start === j.back(j.current, 1) ? 'Yesterday' : weekdayDate(start);
  if (start === j.current) return 'This week';
  if (start === j.back(j.current, 1)) return 'Last week';
  return `${shortDate(start)} - ${shortDate(addDays(start, 6))}`;
}

/** The instant a local date begins, as WakaTime writes it (UTC, to the second). */
const utcIso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

function chartEntry(j: Judged, { start, millis, status }: ChartPeriod, timezone: string) {
  const next = addDays(start, j.period === 'week' ? 7 : 1);
  const actual = Math.round(millis) / 1000;
  const goal = j.goal.seconds;
  const met = status === 'success';
  const diff = durationText(Math.abs(Math.floor(actual) - goal));
  const per = j.period === 'day' ? 'daily' : 'weekly';
  return {
    range: { date: start, start: utcIso(localDay(start, timezone).start), end: utcIso(localDay(next, timezone).start - 1000), text: rangeText(j, start), timezone },
    actual_seconds: actual,
    actual_seconds_text: durationText(actual),
    goal_seconds: goal,
    goal_seconds_text: durationText(goal),
    range_status: status,
    range_status_reason:
      status === 'ignored'
        ? `coded ${durationText(actual)} on a day your ${per} goal ignores`
        : met
          ? `coded ${durationText(actual)} which is ${diff} more than your ${per} goal`
          : `coded ${durationText(actual)} which is ${diff} less than your ${per} goal`,
  } as const;
}

function wakaGoal(j: Judged, timezone: string) {
  const { project, title, customTitle } = j.seen.stats;
  const first = j.back(j.current, CHART_PERIODS - 1);
  const chart = periods(j, CHART_PERIODS).map((p) => chartEntry(j, p, timezone));
  const lastDay = addDays(j.current, j.period === 'week' ? 6 : 0);
  return {
    id: j.goal.id,
    title,
    custom_title: customTitle,
    delta: j.period,
    seconds: j.goal.seconds,
    status: chart.at(-1)!.range_status,
    type: 'coding' as const,
    languages: j.goal.language ? [j.goal.language] : [],
    projects: project ? [project] : [],
    editors: [],
    is_enabled: true,
    is_inverse: false,
    is_snoozed: false,
    ignore_zero_days: false,
    ignore_days: j.goal.ignoreWeekends ? ['saturday', 'sunday'] : [],
    range_text: `from ${first} until ${lastDay}`,
    created_at: `${new Date(j.goal.createdAt).toISOString().slice(0, 19)}Z`,
    chart_data: chart,
  };
}

/** GET goals: every goal of the owner. */
export async function wakaGoals(db: Db, user: { id: string; timezone: string }) {
  const data = (await judgeGoals(db, user, await listGoals(db, user.id))).map((j) => wakaGoal(j, user.timezone));
  return { data, total: data.length, total_pages: 1 };
}

/** GET goals/{id}: one goal of the owner (another user's: 404). */
export async function wakaGoalById(db: Db, user: { id: string; timezone: string }, id: string) {
  const [j] = await judgeGoals(db, user, [await findGoal(db, user.id, id)]);
  return { data: wakaGoal(j, user.timezone) };
}
