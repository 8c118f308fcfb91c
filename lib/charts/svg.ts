import { formatDuration } from '../badges/format';
import { isoWeekStart } from '../dates';
import { axisLabels, calendar, daysIntoWeek, hourTicks, level, slices, weekdayNames } from '../web/chart-geometry';

// The embeddable charts as standalone SVG images: pure functions from a chart route's figures to
// the image's text. An image shown by <img> sees none of the page's stylesheet, so each carries
// its own colours (the values of app/globals.css), for one theme or, without one, for both by the
// viewer's colour scheme. Every image names itself and its total (<title>, its accessible name)
// and states its figures in words (<desc>) for screen readers; every text that comes from a user
// is escaped.

/** light or dark; `auto`: both, chosen by the viewer's prefers-color-scheme. */
export type ChartTheme = 'light' | 'dark' | 'auto';

/** An image and what it says of itself. */
export interface DrawnChart {
  svg: string;
  title: string;
  desc: string;
  width: number;
  height: number;
  /** The size of its text, in pixels at its own size: how small a page may draw it and keep the text readable. */
  textPx: number;
}

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

type Colours = Record<'fg' | 'muted' | 'bg' | 'l0' | 'l1' | 'l2' | 'l3' | 'l4' | 'c1' | 'c2' | 'c3' | 'c4' | 'c5' | 'c6' | 'c7' | 'c8', string>;

// The values of app/globals.css's light-dark() variables.
export const lightColours: Colours = {
  fg: '#16181d',
  muted: '#4a5060',
  bg: '#ffffff',
  l0: '#e8ebf0',
  l1: '#b6d4f2',
  l2: '#6aa8e4',
  l3: '#2f7bc8',
  l4: '#0a4c8f',
  c1: '#0a58a8',
  c2: '#b45309',
  c3: '#1d6b35',
  c4: '#a4161a',
  c5: '#6b3fa0',
  c6: '#0e7490',
  c7: '#7c5e10',
  c8: '#be185d',
};

export const darkColours: Colours = {
  fg: '#e6e8ee',
  muted: '#a9b0c0',
  bg: '#0f1218',
  l0: '#232937',
  l1: '#163d66',
  l2: '#1f65a8',
  l3: '#3f8fdc',
  l4: '#8cc4fa',
  c1: '#60a5fa',
  c2: '#f59e0b',
  c3: '#4ade80',
  c4: '#f87171',
  c5: '#c084fc',
  c6: '#22d3ee',
  c7: '#facc15',
  c8: '#f472b6',
};

/** One class per colour: `.fg`, `.l0`... fill with it; `.bg` is the background. */
function rules(c: Colours): string {
  const fills = (Object.keys(c) as (keyof Colours)[]).map((k) => `.${k}{fill:${c[k]}}`).join('');
  return `${fills}.s{stroke:${c.c1}}`;
}

function style(theme: ChartTheme, textPx: number): string {
  const font = `text{font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;font-size:${textPx}px}`;
  if (theme === 'light') return font + rules(lightColours);
  if (theme === 'dark') return font + rules(darkColours);
  return `${font}${rules(lightColours)}@media (prefers-color-scheme: dark){${rules(darkColours)}}`;
}

const num = (n: number) => String(Math.round(n * 10) / 10);

/** 11 px; 12 for the images a profile shows in a phone's card (about 324 px), so that drawn that narrow their text stays 9 px or more. */
function image(title: string, desc: string, width: number, height: number, theme: ChartTheme, body: string, textPx = 11): DrawnChart {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="chart-title chart-desc" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<title id="chart-title">${escapeXml(title)}</title><desc id="chart-desc">${escapeXml(desc)}</desc>` +
    `<style>${style(theme, textPx)}</style><rect class="bg" width="100%" height="100%" rx="6"/>${body}</svg>`;
  return { svg, title, desc, width, height, textPx };
}

const text = (x: number, y: number, cls: string, content: string, anchor?: 'end' | 'middle') =>
  `<text x="${num(x)}" y="${num(y)}" class="${cls}"${anchor ? ` text-anchor="${anchor}"` : ''}>${escapeXml(content)}</text>`;

/** At most `max` characters, an ellipsis for the rest. */
const clip = (name: string, max: number) => ([...name].length > max ? `${[...name].slice(0, max - 1).join('')}…` : name);

/** A heat map's square of a `cell`-wide grid at (x, y), as dark as its level (0-4). */
const square = (x: number, y: number, cell: number, lvl: number) => `<rect x="${x}" y="${y}" width="${cell - 3}" height="${cell - 3}" rx="2" class="l${lvl}"/>`;

/** A heat map's legend, ending at `right` on the baseline `baseline`: Less, the five levels, More. */
function levelLegend(right: number, baseline: number, cell: number): string[] {
  const left = right - 5 * cell - 30;
  return [text(left - 4, baseline, 'muted', 'Less', 'end'), ...[0, 1, 2, 3, 4].map((l) => square(left + l * cell, baseline - cell + 3, cell, l)), text(left + 5 * cell + 1, baseline, 'muted', 'More')];
}

// --- activity: a year of days -------------------------------------------------------------

export interface ActivityInput {
  name: string;
  days: { date: string; seconds: number; level: number }[];
}

/** A year calendar: a column per ISO week (Monday on top), a square per day, darker is busier. */
export function activitySvg({ name, days }: ActivityInput, theme: ChartTheme): DrawnChart {
  const { cells, columns, months } = calendar(days);
  const cell = 13;
  const left = 34;
  const top = 22;
  const width = left + Math.max(columns, 1) * cell + 8;
  const height = top + 7 * cell + 26;
  const active = days.filter((d) => d.seconds > 0);
  const total = active.reduce((sum, d) => sum + d.seconds, 0);
  const busiest = active.reduce<(typeof days)[number] | null>((best, d) => (!best || d.seconds > best.seconds ? d : best), null);
  const span = days.length ? ` between ${days[0].date} and ${days.at(-1)!.date}` : '';
  const title = `Coding activity of ${name}${days.length ? `, the last ${days.length} days` : ''}: ${formatDuration(total)}`;
  const desc =
    `${active.length} active ${active.length === 1 ? 'day' : 'days'}${span}` +
    (busiest ? `, ${formatDuration(total)} in all; the busiest day ${busiest.date} (${formatDuration(busiest.seconds)}).` : '.');
  const body = [
    ...months.map((m) => text(left + m.column * cell, 14, 'muted', m.label)),
    ...['Mon', 'Wed', 'Fri'].map((d, i) => text(4, top + i * 2 * cell + 9, 'muted', d)),
    ...cells.map((c) => square(left + c.column * cell, top + c.row * cell, cell, c.level)),
    ...levelLegend(width - 8, height - 9, cell),
  ];
  return image(title, desc, width, height, theme, body.join(''));
}

// --- hours: when in the week --------------------------------------------------------------

export interface HoursInput {
  name: string;
  /** 7 rows, Monday first, of 24 hours' seconds. */
  grid: number[][];
  /** The days the grid sums. */
  from: string;
  to: string;
}

/** When in the week: a row per weekday (Monday on top), a square per hour, darker is busier. */
export function hoursSvg({ name, grid, from, to }: HoursInput, theme: ChartTheme): DrawnChart {
  // 402 px wide: its 12 px text is 9.7 px in a phone's card.
  const cell = 15;
  const left = 34;
  const top = 20;
  const width = left + 24 * cell + 8;
  const height = top + 7 * cell + 26;
  const max = grid.flat().reduce((m, v) => Math.max(m, v), 0);
  let busiest: { day: number; hour: number; seconds: number } | null = null;
  for (const [day, row] of grid.entries()) for (const [hour, seconds] of row.entries()) if (seconds > 0 && (!busiest || seconds > busiest.seconds)) busiest = { day, hour, seconds };
  const used = grid.flat().filter((v) => v > 0).length;
  const title = `When in the week ${name} codes, ${from} to ${to}: ${formatDuration(grid.flat().reduce((sum, v) => sum + v, 0))}`;
  const desc = busiest
    ? `Coding time by weekday and hour between ${from} and ${to}: ${used} of the week's 168 hours have some; the busiest, ${weekdayNames[busiest.day]} ${busiest.hour}:00 to ${busiest.hour + 1}:00, ${formatDuration(busiest.seconds)} in all.`
    : `No coding time between ${from} and ${to}.`;
  const body = [
    ...Array.from({ length: 8 }, (_, i) => text(left + i * 3 * cell + (cell - 3) / 2, 14, 'muted', String(i * 3), 'middle')),
    ...weekdayNames.map((d, i) => text(4, top + i * cell + 10, 'muted', d)),
    ...grid.flatMap((row, d) => row.map((v, h) => square(left + h * cell, top + d * cell, cell, level(v, max)))),
    ...levelLegend(width - 8, height - 9, cell),
  ];
  return image(title, desc, width, height, theme, body.join(''), 12);
}

// --- languages -----------------------------------------------------------------------------

export const chartRanges = ['7d', '30d', '365d'] as const;
export type ChartRange = (typeof chartRanges)[number];
const rangeWords: Record<ChartRange, string> = { '7d': 'the last 7 days', '30d': 'the last 30 days', '365d': 'the last 365 days' };

export interface LanguagesInput {
  name: string;
  range: ChartRange;
  /** Largest first; null: not shown (the owner does not share languages, or too few people share site-wide figures). */
  languages: { name: string; seconds: number }[] | null;
  /** What the image says when `languages` is null. */
  hidden?: string;
  /** The whole, when some time has no language shown (site-wide: languages too few people use). */
  total?: number;
}

/** Horizontal bars: the 8 languages with most time, and "All others", each with its time and share. */
export function languagesSvg({ name, range, languages, hidden = 'Languages are not shared.', total: whole }: LanguagesInput, theme: ChartTheme): DrawnChart {
  const named = `Languages of ${name}, ${rangeWords[range]}`;
  const width = 480;
  if (!languages || languages.length === 0) {
    const message = languages ? `No coding time in ${rangeWords[range]}.` : hidden;
    // Hidden languages hide their total too: the title names none.
    return image(languages ? `${named}: ${formatDuration(0)}` : named, message, width, 60, theme, text(16, 35, 'muted', message));
  }
  const rows = slices(languages, 9, whole);
  const total = rows.reduce((sum, r) => sum + r.seconds, 0);
  const title = `${named}: ${formatDuration(total)}`;
  const row = 24;
  const top = 14;
  const barLeft = 140;
  const barWidth = 180;
  const max = rows.reduce((m, r) => Math.max(m, r.seconds), 0);
  const body = rows.flatMap((r, i) => {
    const y = top + i * row;
    const w = max > 0 ? Math.max(2, (r.seconds / max) * barWidth) : 0;
    return [
      text(16, y + 12, 'fg', clip(r.name, 20)),
      `<rect x="${barLeft}" y="${y + 2}" width="${barWidth}" height="12" rx="3" class="l0"/>`,
      `<rect x="${barLeft}" y="${y + 2}" width="${num(w)}" height="12" rx="3" class="${r.color === 0 ? 'muted' : `c${r.color}`}"/>`,
      text(width - 16, y + 12, 'fg', `${formatDuration(r.seconds)} · ${r.percent}%`, 'end'),
    ];
  });
  const shares = rows.filter((r) => r.color !== 0).map((r) => `${r.name} (${r.percent}%)`);
  const others = rows.find((r) => r.color === 0);
  const desc = `Most time in ${shares.join(', ')}${others ? `, all others (${others.percent}%)` : ''}; ${formatDuration(total)} in ${rangeWords[range]}.`;
  return image(title, desc, width, top * 2 + rows.length * row - 6, theme, body.join(''));
}

// --- weekly ----------------------------------------------------------------------------------

export interface WeeklyInput {
  name: string;
  weeks: { week_start: string; seconds: number }[];
  /** The owner's today: the week holding it is drawn as so far. */
  today: string;
}

/** A column per ISO week, oldest first; the current week, when not over, drawn as so far. */
export function weeklySvg({ name, weeks, today }: WeeklyInput, theme: ChartTheme): DrawnChart {
  const current = isoWeekStart(today);
  const sofar = daysIntoWeek(current, today);
  const partial = (w: { week_start: string }) => w.week_start === current && sofar < 7;
  const { top: topSeconds, ticks } = hourTicks(weeks.reduce((m, w) => Math.max(m, w.seconds), 0));
  // 400 px wide: its 12 px text is 9.7 px in a phone's card.
  const width = 400;
  const height = 170;
  const plotLeft = 40;
  const plotTop = 12;
  const plotHeight = 120;
  const plotWidth = width - plotLeft - 12;
  const slot = plotWidth / Math.max(weeks.length, 1);
  const y = (seconds: number) => plotTop + plotHeight - (topSeconds > 0 ? (seconds / topSeconds) * plotHeight : 0);
  const body = [
    ...ticks.map((t) => `${text(plotLeft - 6, y(t.seconds) + 4, 'muted', t.label, 'end')}<rect x="${plotLeft}" y="${num(y(t.seconds))}" width="${num(plotWidth)}" height="1" class="l0"/>`),
    ...weeks.map((w, i) => {
      const x = plotLeft + i * slot + 3;
      const h = plotTop + plotHeight - y(w.seconds);
      const bar = partial(w)
        ? `<rect x="${num(x)}" y="${num(y(w.seconds))}" width="${num(slot - 6)}" height="${num(h)}" rx="2" class="c1" fill-opacity="0.45"/>`
        : `<rect x="${num(x)}" y="${num(y(w.seconds))}" width="${num(slot - 6)}" height="${num(h)}" rx="2" class="c1"/>`;
      return bar;
    }),
    // The weeks' Mondays under their columns, never overlapping (the pages' rule, at 12 px); the current week's says "so far".
    ...axisLabels(
      weeks.map((w) => w.week_start),
      plotWidth,
      'week',
      { fontPx: 12, rename: (column) => (partial(weeks[column]) ? 'so far' : undefined) },
    ).map((l) => text(plotLeft + (l.at / 100) * plotWidth, plotTop + plotHeight + 16, 'muted', l.text, l.align === 'middle' ? 'middle' : l.align === 'end' ? 'end' : undefined)),
  ];
  const said = weeks.map((w) => (partial(w) ? `this week so far (${sofar} of 7 days) ${formatDuration(w.seconds)}` : `week of ${w.week_start} ${formatDuration(w.seconds)}`));
  const total = weeks.reduce((sum, w) => sum + w.seconds, 0);
  const title = `Weekly coding time of ${name}, the last ${weeks.length} weeks: ${formatDuration(total)}`;
  const desc = `${formatDuration(total)} in ${weeks.length} weeks: ${said.join(', ')}.`;
  return image(title, desc, width, height, theme, body.join(''), 12);
}
