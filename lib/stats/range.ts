import { z } from 'zod';
import { addDays, daysBetween, isCalendarDate } from '../dates';

// The `range` / `from` / `to` query parameters of the public chart routes, as zod fields: they
// parse the request and describe the parameters in openapi.json.

export const rangeNames = ['today', '7d', '30d', '90d', '365d', 'all'] as const;
export type RangeName = (typeof rangeNames)[number];
/** The named ranges of the owner's own figures (/me/projects, /me/insights, ...). */
export const ownRangeNames = ['7d', '30d', '365d', 'all'] as const satisfies readonly RangeName[];
export const MAX_CUSTOM_SPAN_DAYS = 366;

export type RangeQuery = { name: RangeName } | { name: 'custom'; from: string; to: string };

export interface ResolvedRange {
  name: RangeName | 'custom';
  from: string;
  to: string;
}

const calendarDate = z.string().refine(isCalendarDate, 'must be a real date YYYY-MM-DD').meta({ format: 'date' });

/** The three fields; `fallback` is the named range when none is given, `names` those a route takes. */
export function rangeFields(fallback: RangeName, names: readonly [RangeName, ...RangeName[]] = rangeNames) {
  return {
    range: z
      .enum(names, `must be one of ${names.join(', ')}`)
      .optional()
      .meta({ description: `A named range ending today (the owner's today, or UTC site-wide); default ${fallback}.` }),
    from: calendarDate.optional().meta({ description: `With to: an inclusive span of at most ${MAX_CUSTOM_SPAN_DAYS} days, instead of range.` }),
    to: calendarDate.optional(),
  };
}

type RangeInput = { range?: RangeName; from?: string; to?: string };

/** The rules between the three fields, each naming the parameter it blames. */
export function checkRange(q: RangeInput, ctx: z.RefinementCtx): void {
  const fail = (param: keyof RangeInput, message: string) => ctx.addIssue({ code: 'custom', path: [param], message });
  if (q.from === undefined && q.to === undefined) return;
  if (q.range !== undefined) return fail('range', 'give either range or from and to, not both');
  if (q.from === undefined || q.to === undefined) return fail(q.from === undefined ? 'from' : 'to', 'from and to go together');
  if (q.to < q.from) return fail('to', 'must not be before from');
  if (daysBetween(q.from, q.to) + 1 > MAX_CUSTOM_SPAN_DAYS) fail('to', `the span may be at most ${MAX_CUSTOM_SPAN_DAYS} days`);
}

/** The question the checked fields ask. */
export function rangeQuery(q: RangeInput, fallback: RangeName): RangeQuery {
  return q.from !== undefined && q.to !== undefined ? { name: 'custom', from: q.from, to: q.to } : { name: q.range ?? fallback };
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
