import { z } from 'zod';
import { checkRange, rangeFields, rangeQuery, type RangeQuery } from '../../stats/range';

// The dashboard's range, from its address: `?range=` (the links) or `?from=&to=` (its small GET
// form), checked by the same rules as the chart routes' query (lib/stats/range.ts).

/** The named ranges the dashboard links to; any of the chart routes' names is accepted. */
export const dashboardRanges = { '7d': 'Last 7 days', '30d': 'Last 30 days', '365d': 'Last 365 days', all: 'All time' } as const;

const DEFAULT_RANGE = '7d';
const schema = z.object(rangeFields(DEFAULT_RANGE)).superRefine(checkRange);

export interface DashboardRange {
  query: RangeQuery;
  /** Why the address's range was set aside for the default, naming the parameter and its rule. */
  error?: string;
  /** The dates the form shows again (as given, even when refused). */
  from?: string;
  to?: string;
}

/**
 * The range the dashboard's address asks for; the default (7 days) when it asks for none, or,
 * with `error`, when it asks for one that breaks a rule. A field left empty in the form is not
 * given; a parameter given twice is refused (which one would be meant?).
 */
export function dashboardRange(search: Record<string, string | string[] | undefined>): DashboardRange {
  const given: Record<string, string> = {};
  for (const name of ['range', 'from', 'to'] as const) {
    const value = search[name];
    if (Array.isArray(value)) return { query: { name: DEFAULT_RANGE }, error: `${name}: give it once` };
    if (value !== undefined && value.trim() !== '') given[name] = value.trim();
  }
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { query: { name: DEFAULT_RANGE }, error: `${issue.path.join('.')}: ${issue.message}`, from: given.from, to: given.to };
  }
  return { query: rangeQuery(parsed.data, DEFAULT_RANGE), from: given.from, to: given.to };
}
