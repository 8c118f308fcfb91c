import { invalidQuery } from '../http/problem';
import { addDays, daysBetween, isCalendarDate } from '../dates';

// The `range` / `from` / `to` query parameters of the public chart routes.

export const rangeNames = ['today', '7d', '30d', '90d', '365d', 'all'] as const;
export type RangeName = (typeof rangeNames)[number];
export const MAX_CUSTOM_SPAN_DAYS = 366;

export type RangeQuery = { name: RangeName } | { name: 'custom'; from: string; to: string };

export interface ResolvedRange {
  name: RangeName | 'custom';
  from: string;
  to: string;
}

/** Reads range or from/to; every problem names the parameter and the rule (400 invalid_query). */
export function parseRangeQuery(params: URLSearchParams, fallback: RangeName, allowed: readonly RangeName[] = rangeNames): RangeQuery {
  const range = params.get('range');
  const from = params.get('from');
  const to = params.get('to');
  if (from !== null || to !== null) {
    if (range !== null) throw invalidQuery('range', 'give either range or from and to, not both');
    if (from === null || to === null) throw invalidQuery(from === null ? 'from' : 'to', 'from and to go together');
    for (const [param, value] of [['from', from], ['to', to]] as const) {
      if (!isCalendarDate(value)) throw invalidQuery(param, 'must be a real date YYYY-MM-DD');
    }
    if (to < from) throw invalidQuery('to', 'must not be before from');
    if (daysBetween(from, to) + 1 > MAX_CUSTOM_SPAN_DAYS) throw invalidQuery('to', `the span may be at most ${MAX_CUSTOM_SPAN_DAYS} days`);
    return { name: 'custom', from, to };
  }
  const name = (range ?? fallback) as RangeName;
  if (!allowed.includes(name)) throw invalidQuery('range', `must be one of ${allowed.join(', ')}`);
  return { name };
}

/**
 * The dates a range covers, given today's date (in the user's timezone, or UTC site-wide) and,
 * for `all`, the earliest date with data (none: today).
 */
export function resolveRange(query: RangeQuery, today: string, earliest?: string): ResolvedRange {
  switch (query.name) {
    case 'custom':
      return query;
    case 'today':
      return { name: 'today', from: today, to: today };
    case 'all':
      return { name: 'all', from: earliest && earliest < today ? earliest : today, to: today };
    default:
      return { name: query.name, from: addDays(today, 1 - Number(query.name.slice(0, -1))), to: today };
  }
}
