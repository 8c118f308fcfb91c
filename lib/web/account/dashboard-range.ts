import { z } from 'zod';
import { addDays } from '../../dates';
import { checkRange, rangeFields, rangeNames, rangeQuery, type RangeName, type RangeQuery } from '../../stats/range';

// The range of a dashboard page (the overview, Insights, Breakdowns, Projects), from its address: `?range=`
// (the links) or `?from=&to=` (the small GET form), checked by the same rules as the API route the
// page draws (lib/stats/range.ts), so a page accepts what its route accepts.

/** What each named range is called on the pages. */
export const rangeLabels: Record<RangeName, string> = {
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  '365d': 'Last 365 days',
  all: 'All time',
};

type Names = readonly [RangeName, ...RangeName[]];

/**
 * The range every dashboard page opens on when its address names none (the overview, Insights,
 * Breakdowns, Projects and a project's page alike), so that no tab shows other dates than the one
 * before it; the tabs carry the range chosen (app/dashboard/tabs.tsx).
 */
export const DASHBOARD_RANGE = '30d' satisfies RangeName;

export interface DashboardRange {
  query: RangeQuery;
  /** Why the address's range was set aside for the fallback, naming the parameter and its rule. */
  error?: string;
  /** The dates the form shows again (as given, even when refused). */
  from?: string;
  to?: string;
}

/**
 * The range a page's address asks for; DASHBOARD_RANGE when it asks for none, or, with `error`,
 * when it asks for one that breaks a rule. `names` are the named ranges the page's route takes (default:
 * the chart routes' names). A field left empty in the form is not given; a parameter given twice
 * is refused (which one would be meant?).
 */
export function dashboardRange(search: Record<string, string | string[] | undefined>, names: Names = rangeNames): DashboardRange {
  const fallback: RangeName = DASHBOARD_RANGE;
  const given: Record<string, string> = {};
  for (const name of ['range', 'from', 'to'] as const) {
    const value = search[name];
    if (Array.isArray(value)) return { query: { name: fallback }, error: `${name}: give it once` };
    if (value !== undefined && value.trim() !== '') given[name] = value.trim();
  }
  const parsed = z.object(rangeFields(fallback, names)).superRefine(checkRange).safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { query: { name: fallback }, error: `${issue.path.join('.')}: ${issue.message}`, from: given.from, to: given.to };
  }
  return { query: rangeQuery(parsed.data, fallback), from: given.from, to: given.to };
}

/** The calendar's ranges as from and to dates, given the user's today: today, yesterday, this week (from Monday), this month. */
export function calendarPresets(today: string): { label: string; from: string; to: string }[] {
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return [
    { label: 'Today', from: today, to: today },
    { label: 'Yesterday', from: addDays(today, -1), to: addDays(today, -1) },
    { label: 'This week', from: addDays(today, -weekday), to: today },
    { label: 'This month', from: `${today.slice(0, 8)}01`, to: today },
  ];
}
