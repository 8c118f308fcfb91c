import { daysBetween, isoWeekday, isoWeekStart } from '../dates';

// What the pages' charts draw, worked out from the chart routes' bodies: pure functions, so that
// every chart is server-rendered (no script) and its numbers are the ones the tables beside it show.

export interface Slice {
  name: string;
  seconds: number;
  /** Of the whole (0-100, one decimal), not of the named slices alone. */
  percent: number;
  /** 1, 2, ... for named slices (the palette's --c1...--c8 for a donut's), 0 for "All others". */
  color: number;
}

const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * At most `limit` slices: the largest named, and "All others" for the rest, including time in `total`
 * that no named entry accounts for (site-wide: languages too few people use to show them one by
 * one). Shares are of that whole.
 */
export function slices(items: { name: string; seconds: number }[], limit: number, total?: number): Slice[] {
  const named = items.reduce((sum, i) => sum + i.seconds, 0);
  const whole = Math.max(total ?? named, named);
  const shown = items.length <= limit && whole === named ? items : items.slice(0, limit - 1);
  const rest = whole - shown.reduce((sum, i) => sum + i.seconds, 0);
  return [
    ...shown.map((i, n) => ({ name: i.name, seconds: i.seconds, percent: percentOf(i.seconds, whole), color: n + 1 })),
    ...(rest > 0 ? [{ name: 'All others', seconds: rest, percent: percentOf(rest, whole), color: 0 }] : []),
  ];
}

/** Each slice's arc on a circle of circumference 100: its length and where it starts. */
export function donutArcs(slices: Slice[]): { dash: number; start: number }[] {
  const whole = slices.reduce((sum, s) => sum + s.seconds, 0);
  let start = 0;
  return slices.map((s) => {
    const dash = whole > 0 ? (s.seconds / whole) * 100 : 0;
    const arc = { dash, start };
    start += dash;
    return arc;
  });
}

/** Gridlines for a bar chart whose tallest bar is `maxSeconds`: 0 and up to 3 round steps of hours or minutes above it. */
export function hourTicks(maxSeconds: number): { top: number; ticks: { seconds: number; label: string }[] } {
  const steps = [60, 300, 600, 900, 1800, 3600, 7200, 3 * 3600, 4 * 3600, 6 * 3600, 12 * 3600, 24 * 3600, 48 * 3600, 100 * 3600, 200 * 3600];
  const step = steps.find((s) => s * 3 >= maxSeconds) ?? Math.ceil(maxSeconds / 3 / 3600) * 3600;
  const count = Math.max(1, Math.ceil(maxSeconds / step));
  const label = (s: number) => (s === 0 ? '0' : s % 3600 === 0 ? `${s / 3600}h` : `${s / 60}m`);
  return { top: step * count, ticks: Array.from({ length: count + 1 }, (_, i) => ({ seconds: i * step, label: label(i * step) })) };
}

/**
 * The weekly chart's last week is the current one so far (the routes zero-fill up to today):
 * how many of its days have passed, counting today; 7 when `today` is past it.
 */
export function daysIntoWeek(weekStart: string, today: string): number {
  return Math.min(7, Math.max(0, daysBetween(weekStart, today) + 1));
}

/** The days of an ISO week, Monday first: the rows of a week-by-hour grid. */
export const weekdayNames = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** 0 for no time, else 1-4 by the share of the busiest cell (`max`): how dark a heat map draws it. */
export function level(value: number, max: number): number {
  return value <= 0 || max <= 0 ? 0 : Math.min(4, Math.ceil((value / max) * 4));
}

export interface CalendarCell {
  date: string;
  seconds: number;
  level: number;
  column: number;
  row: number;
}

/** A year calendar's layout: one column per ISO week (Monday on top), and where each month's label goes. */
export function calendar(days: { date: string; seconds: number; level: number }[]): {
  cells: CalendarCell[];
  columns: number;
  months: { label: string; column: number }[];
} {
  if (days.length === 0) return { cells: [], columns: 0, months: [] };
  const first = isoWeekStart(days[0].date);
  const cells = days.map((d) => ({ ...d, column: Math.floor(daysBetween(first, d.date) / 7), row: isoWeekday(d.date) }));
  // A month is labelled over the first column whose top day lies in it.
  const labels: { label: string; column: number; month: string }[] = [];
  for (const [i, c] of cells.entries()) {
    if (i > 0 && c.row !== 0) continue;
    if (labels.at(-1)?.month !== c.date.slice(0, 7)) labels.push({ label: monthName(c.date), column: c.column, month: c.date.slice(0, 7) });
  }
  // Labels need three columns of room: one closer to the next is left out.
  const months = labels.filter((m, i) => i + 1 >= labels.length || labels[i + 1].column - m.column >= 3).map(({ label, column }) => ({ label, column }));
  return { cells, columns: cells.at(-1)!.column + 1, months };
}

const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const monthName = (date: string) => monthNames[Number(date.slice(5, 7)) - 1];

/** Seconds and active days per month, oldest first: the calendar's numbers as a table. */
export function months(days: { date: string; seconds: number }[]): { month: string; seconds: number; activeDays: number }[] {
  const out = new Map<string, { month: string; seconds: number; activeDays: number }>();
  for (const d of days) {
    const key = d.date.slice(0, 7);
    const m = out.get(key) ?? { month: `${monthName(d.date)} ${d.date.slice(0, 4)}`, seconds: 0, activeDays: 0 };
    m.seconds += d.seconds;
    if (d.seconds > 0) m.activeDays++;
    out.set(key, m);
  }
  return [...out.values()];
}

export type Period = 'day' | 'week' | 'month';

export interface PeriodTotal {
  /** The period: its date, its ISO week's Monday (which may lie before the range), or YYYY-MM. */
  key: string;
  /** How the table and the bar's title name it: the date, "week of <Monday>", "Mar 2025". */
  name: string;
  seconds: number;
}

/** Bars a card holds readably at a phone's width: a run of days longer than this is drawn coarser. */
const MAX_DAY_BARS = 92;
const MAX_WEEK_BARS = 106;

/**
 * A run of days as bars a card can hold at any width: one a day up to MAX_DAY_BARS days (a
 * quarter), else one an ISO week (a year is 53), else one a month (all time). Totals are sums
 * of the days, so the table beside the chart adds up to the same whole.
 */
export function periods(days: { date: string; seconds: number }[]): { period: Period; totals: PeriodTotal[] } {
  const period: Period = days.length <= MAX_DAY_BARS ? 'day' : days.length <= MAX_WEEK_BARS * 7 ? 'week' : 'month';
  const out = new Map<string, PeriodTotal>();
  for (const d of days) {
    const key = period === 'day' ? d.date : period === 'week' ? isoWeekStart(d.date) : d.date.slice(0, 7);
    const name = period === 'day' ? d.date : period === 'week' ? `week of ${key}` : `${monthName(d.date)} ${d.date.slice(0, 4)}`;
    const total = out.get(key) ?? { key, name, seconds: 0 };
    total.seconds += d.seconds;
    out.set(key, total);
  }
  return { period, totals: [...out.values()] };
}
