import { addDays, isoWeekStart } from '../dates';
import type { Span } from './wakapi-figures';

// Wakapi's interval names (its models/interval.go: each interval and its aliases), as its badge
// URLs carry them (`interval:7_days`), made dates in the owner's timezone. A span "of N days"
// ends today and counts today, as Codetally's own `7d` does; a week starts on Monday.

export const wakapiIntervals = {
  today: ['today'],
  yesterday: ['day', 'yesterday'],
  last_24_hours: ['24_hours', 'last_24_hours', 'last_day'],
  week: ['week'],
  last_week: ['last_week'],
  month: ['month'],
  last_month: ['last_month'],
  year: ['year'],
  last_7_days: ['7_days', 'last_7_days'],
  last_14_days: ['14_days', 'last_14_days'],
  last_30_days: ['30_days', 'last_30_days'],
  last_6_months: ['6_months', 'last_6_months'],
  last_12_months: ['12_months', 'last_12_months', 'last_year'],
  all_time: ['any', 'all_time'],
} as const;
export type WakapiInterval = keyof typeof wakapiIntervals;

/** Every name a badge URL may give (the openapi description lists them). */
export const wakapiIntervalNames: readonly string[] = Object.values(wakapiIntervals).flat();

/** What Wakapi shows when a URL names no interval, or one it does not know. */
export const DEFAULT_WAKAPI_INTERVAL: WakapiInterval = 'last_30_days';

/** The interval a name stands for; an unknown name or none is the default, as on Wakapi. */
export function wakapiInterval(name: string | undefined): WakapiInterval {
  const found = Object.entries(wakapiIntervals).find(([, aliases]) => (aliases as readonly string[]).includes(name ?? ''));
  return (found?.[0] as WakapiInterval | undefined) ?? DEFAULT_WAKAPI_INTERVAL;
}

const monthStart = (date: string) => `${date.slice(0, 8)}01`;

/** The same day `months` months away, the last of its month when that month is shorter. */
function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

/** The dates an interval covers given the owner's date and hour now (the plan's window of history is the caller's). */
export function wakapiSpan(interval: WakapiInterval, today: string, hour: number): Span {
  const days = (n: number): Span => ({ from: addDays(today, 1 - n), to: today });
  const months = (n: number): Span => ({ from: addDays(addMonths(today, -n), 1), to: today });
  switch (interval) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'last_24_hours':
      // This hour and the 23 before it; at 23:00 that is today alone.
      return hour === 23 ? { from: today, to: today } : { from: addDays(today, -1), to: today, fromHour: hour + 1 };
    case 'week':
      return { from: isoWeekStart(today), to: today };
    case 'last_week':
      return { from: addDays(isoWeekStart(today), -7), to: addDays(isoWeekStart(today), -1) };
    case 'month':
      return { from: monthStart(today), to: today };
    case 'last_month':
      return { from: monthStart(addMonths(monthStart(today), -1)), to: addDays(monthStart(today), -1) };
    case 'year':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    case 'last_7_days':
      return days(7);
    case 'last_14_days':
      return days(14);
    case 'last_30_days':
      return days(30);
    case 'last_6_months':
      return months(6);
    case 'last_12_months':
      return months(12);
    case 'all_time':
      return { from: '0001-01-01', to: today };
  }
}
