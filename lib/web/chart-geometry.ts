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

/** A label under a chart's column: its text, the column it names and where it is drawn. */
export interface AxisLabel {
  column: number;
  text: string;
  /** Where the label is anchored, as a share of the plot's width (0-100). */
  at: number;
  /**
   * `middle`: centred on its column's centre (`at`); at the plot's ends, where that would stick out,
   * `start` (from the left edge, `at` 0) or `end` (up to the right edge, `at` 100): still under its column.
   */
  align: 'start' | 'middle' | 'end';
}

/** What one column of a time axis stands for: a day, an ISO week (its Monday) or a month (its first day). */
export type AxisUnit = 'day' | 'week' | 'month';

/** Font size of the labels under the charts (0.75rem) and a width per character no label text outgrows. */
export const AXIS_FONT_PX = 12;
const CHAR_EM = 0.62;
/** Space kept between two labels, in pixels. */
const AXIS_GAP_PX = 6;

/**
 * The widths a page's time axis is laid out for: from `container` pixels of its card's content up,
 * the labels placed for a plot `plot` pixels wide (the container less the gridlines' 2rem of
 * labels). The smallest is a 320 px phone's; a wider card shows the set of the widest tier it reaches.
 */
export const axisTiers = [
  { container: 0, plot: 220 },
  { container: 512, plot: 480 },
  { container: 832, plot: 800 },
] as const;

/** How wide a label is drawn, in pixels, at most: what the placement keeps apart. */
export const axisTextWidth = (text: string, fontPx = AXIS_FONT_PX) => [...text].length * CHAR_EM * fontPx;

const dayText = (date: string) => `${monthName(date)} ${Number(date.slice(8, 10))}`;
// January is named by its year: a long axis says where a year begins.
const monthText = (date: string) => (date.slice(5, 7) === '01' ? date.slice(0, 4) : monthName(date));

interface Candidate {
  /** Whether column `i` gets a label. */
  marks: (i: number) => boolean;
  text: (date: string) => string;
}

export interface AxisOptions {
  /** The labels' font size in pixels (AXIS_FONT_PX). */
  fontPx?: number;
  /** Another text for a column's label (a week so far), or undefined for its date. */
  rename?: (column: number) => string | undefined;
}

/**
 * The ways to label an axis, finest first: every day (or every 2nd or 3rd, counted back from the
 * last, which is usually today), Mondays, every other Monday, the first of each month (of every
 * 2nd, 3rd, 6th month), each January. Whole weeks and months at long ranges read as a calendar
 * does, where every 9th day would not.
 */
function candidates(dates: string[], unit: AxisUnit): Candidate[] {
  const n = dates.length;
  const fromEnd = (step: number) => (i: number) => (n - 1 - i) % step === 0;
  // Column i begins a month when the month differs from its left neighbour's (the first column
  // only when it holds the 1st: a range from the 20th does not begin a month).
  const monthStart = (i: number) => (i > 0 ? dates[i].slice(0, 7) !== dates[i - 1].slice(0, 7) : unit === 'month' || dates[0].endsWith('-01'));
  const everyMonth = (step: number) => (i: number) => monthStart(i) && (Number(dates[i].slice(5, 7)) - 1) % step === 0;
  const out: Candidate[] = [];
  if (unit === 'day') {
    for (const step of [1, 2, 3]) out.push({ marks: fromEnd(step), text: dayText });
    const mondays = dates.map((d, i) => (isoWeekday(d) === 0 ? i : -1)).filter((i) => i >= 0);
    for (const step of [1, 2]) {
      const kept = new Set(mondays.filter((_, k) => (mondays.length - 1 - k) % step === 0));
      out.push({ marks: (i) => kept.has(i), text: dayText });
    }
  }
  if (unit === 'week') for (const step of [1, 2, 4]) out.push({ marks: fromEnd(step), text: dayText });
  for (const step of [1, 2, 3, 6]) out.push({ marks: everyMonth(step), text: monthText });
  out.push({ marks: (i) => monthStart(i) && dates[i].slice(5, 7) === '01', text: (d) => d.slice(0, 4) });
  return out;
}

type Placed = AxisLabel & { left: number; right: number };

/** The labels a candidate places, each centred under its column, or flush with the plot's edge where centring would stick out. */
function place(dates: string[], plotWidth: number, c: Candidate, { fontPx = AXIS_FONT_PX, rename }: AxisOptions): Placed[] {
  const slot = plotWidth / dates.length;
  return dates.flatMap((date, column): Placed[] => {
    if (!c.marks(column)) return [];
    const text = rename?.(column) ?? c.text(date);
    const centre = (column + 0.5) * slot;
    const width = axisTextWidth(text, fontPx);
    if (width > plotWidth) return [];
    const at = ((column + 0.5) / dates.length) * 100;
    if (centre - width / 2 < 0) return [{ column, text, at: 0, align: 'start', left: 0, right: width }];
    if (centre + width / 2 > plotWidth) return [{ column, text, at: 100, align: 'end', left: plotWidth - width, right: plotWidth }];
    return [{ column, text, at, align: 'middle', left: centre - width / 2, right: centre + width / 2 }];
  });
}

const apart = (labels: Placed[]) => labels.every((l, i) => i === 0 || l.left - labels[i - 1].right >= AXIS_GAP_PX);

/**
 * Labels for a time axis of `dates` (one a column, oldest first) across a plot `plotWidth` pixels
 * wide: the finest way of labelling whose labels, each under its column, neither overlap nor
 * stick out of the plot. The pages' charts are drawn on the server, which does not know the
 * width: they ask for a few widths and let the browser show the set that fits (a container query).
 */
export function axisLabels(dates: string[], plotWidth: number, unit: AxisUnit = 'day', options: AxisOptions = {}): AxisLabel[] {
  if (dates.length === 0 || plotWidth <= 0) return [];
  let coarsest: Placed[] = [];
  for (const c of candidates(dates, unit)) {
    const labels = place(dates, plotWidth, c, options);
    if (labels.length === 0) continue;
    coarsest = labels;
    if (apart(labels)) return labels.map(({ column, text, at, align }) => ({ column, text, at, align }));
  }
  // Too narrow for any regular spacing: keep, from the right, each label clear of the last kept.
  const kept: typeof coarsest = [];
  for (const l of coarsest.toReversed()) if (kept.length === 0 || kept.at(-1)!.left - l.right >= AXIS_GAP_PX) kept.push(l);
  return kept.toReversed().map(({ column, text, at, align }) => ({ column, text, at, align }));
}
