import type { Db } from '../db/client';
import { addDays, eachDay, isoWeekStart } from '../dates';
import { localDateHour } from '../local-time';
import { level } from '../web/chart-geometry';
import { enoughUsers, publicEditorName } from '../sharing/gate';
import type { PublicOwner, PublicUser } from '../sharing/owner';
import { communityDaysShown, dayTotals, dimensionTotals, earliestDate, weekdayHours, type NamedFigure, type Scope } from './queries';
import { resolveRange, type RangeQuery, type ResolvedRange } from './range';
import { userRange } from '../plans/history';

// The bodies of the public chart routes, built field by field from the read queries and the
// sharing gate's answer: a per-user chart shows only what its owner shares; a site-wide chart
// shows only entries that rest on enough users.

/** A user's charts as the public sees them, or (`own`) as their owner does on the dashboard. */
export type ChartTarget = { scope: 'user'; owner: PublicOwner; own?: boolean } | { scope: 'global' };

interface Common {
  scope: 'user' | 'global';
  user: PublicUser | null;
  range: ResolvedRange;
  /** Site-wide: the whole answer is withheld because too few users are behind it. */
  suppressed: boolean;
}

export interface NamedSeconds {
  name: string;
  seconds: number;
  percent: number;
}

const seconds = (millis: number) => Math.round(millis / 1000);
const scopeOf = (t: ChartTarget): Scope => (t.scope === 'user' ? { userId: t.owner.user.id } : 'community');

/** Today where the chart's owner lives; UTC for site-wide charts. */
export function todayFor(target: ChartTarget, now = new Date()): string {
  return localDateHour(target.scope === 'user' ? target.owner.timezone : 'UTC', now).date;
}

async function common(db: Db, target: ChartTarget, query: RangeQuery, today: string): Promise<Common> {
  // A user's chart shows no day before their plan's window of history (lib/plans/history.ts).
  const range =
    target.scope === 'user'
      ? await userRange(db, target.owner.user.id, query, today, target.owner.historyDays)
      : resolveRange(query, today, query.name === 'all' ? await earliestDate(db, 'community') : undefined);
  const suppressed = target.scope === 'global' && !(await communityDaysShown(db, range.from, range.to));
  return { scope: target.scope, user: target.scope === 'user' ? target.owner.user : null, range, suppressed };
}

/** Site-wide entries resting on too few users are left out; per-user ones are all kept. */
const visible = <T extends { users: number }>(target: ChartTarget, entries: T[]) =>
  target.scope === 'global' ? enoughUsers(entries) : entries;

function ranked(figures: NamedFigure[], rename: (name: string) => string = (n) => n): NamedSeconds[] {
  const merged = new Map<string, number>();
  for (const f of figures) {
    const name = rename(f.name);
    merged.set(name, (merged.get(name) ?? 0) + f.millis);
  }
  const list = [...merged].map(([name, millis]) => ({ name, seconds: seconds(millis) })).filter((f) => f.seconds > 0);
  const total = list.reduce((sum, f) => sum + f.seconds, 0);
  return list
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name))
    .map((f) => ({ ...f, percent: total ? Math.round((f.seconds / total) * 1000) / 10 : 0 }));
}

// Time from an editor no plugin named (a dump without its User-Agents, an old client) is "Unknown"
// to its owner and "Other" site-wide; a user's public chart names editors as the gate allows.
const editorName = (target: ChartTarget) => (name: string) =>
  target.scope === 'global' ? name || 'Other' : target.own ? name || 'Unknown' : publicEditorName(name, target.owner.shares);

async function dailySeconds(db: Db, target: ChartTarget, range: ResolvedRange): Promise<{ date: string; seconds: number }[]> {
  const byDate = new Map(visible(target, await dayTotals(db, scopeOf(target), range.from, range.to)).map((d) => [d.date, d.millis]));
  return eachDay(range.from, range.to).map((date) => ({ date, seconds: seconds(byDate.get(date) ?? 0) }));
}

export async function timeChart(db: Db, target: ChartTarget, query: RangeQuery, today = todayFor(target)) {
  const c = await common(db, target, query, today);
  const days = c.suppressed ? eachDay(c.range.from, c.range.to).map((date) => ({ date, seconds: 0 })) : await dailySeconds(db, target, c.range);
  const total = days.reduce((sum, d) => sum + d.seconds, 0);
  const showEditors = !c.suppressed && (target.scope === 'global' || target.owner.shares.editors);
  const editors = showEditors
    ? ranked(visible(target, await dimensionTotals(db, scopeOf(target), 'editor', c.range.from, c.range.to)), editorName(target))
    : [];
  return { ...c, total_seconds: total, daily_average_seconds: days.length ? Math.round(total / days.length) : 0, days, editors }; // no days: a range wholly before the plan's window
}

export async function languageChart(db: Db, target: ChartTarget, query: RangeQuery, today = todayFor(target)) {
  const c = await common(db, target, query, today);
  const show = !c.suppressed && (target.scope === 'global' || target.owner.shares.languages);
  const languages = show ? ranked(visible(target, await dimensionTotals(db, scopeOf(target), 'language', c.range.from, c.range.to))) : [];
  return { ...c, total_seconds: languages.reduce((sum, l) => sum + l.seconds, 0), languages };
}

export async function hitmapChart(db: Db, target: ChartTarget, query: RangeQuery, today = todayFor(target)) {
  const c = await common(db, target, query, today);
  // The two queries are independent: on PostgreSQL they run side by side on two connections.
  const [days, cells] = c.suppressed
    ? [eachDay(c.range.from, c.range.to).map((date) => ({ date, seconds: 0 })), []]
    : await Promise.all([dailySeconds(db, target, c.range), weekdayHours(db, scopeOf(target), c.range.from, c.range.to)]);
  const max = days.reduce((max, d) => Math.max(max, d.seconds), 0);
  const grid = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const cell of visible(target, cells)) grid[cell.weekday][cell.hour] = seconds(cell.millis);
  return { ...c, days: days.map((d) => ({ ...d, level: level(d.seconds, max) })), weekday_hours: grid, max_seconds: max };
}

export async function weeklyChart(db: Db, target: ChartTarget, weeks: number, today = todayFor(target)) {
  const to = today;
  const from = addDays(isoWeekStart(today), -7 * (weeks - 1));
  const c = await common(db, target, { name: 'custom', from, to }, today);
  const starts = Array.from({ length: weeks }, (_, i) => addDays(from, 7 * i));
  const perWeek = new Map<string, number>();
  const top = new Map<string, string>();
  if (!c.suppressed) {
    for (const d of await dailySeconds(db, target, c.range)) {
      const week = isoWeekStart(d.date);
      perWeek.set(week, (perWeek.get(week) ?? 0) + d.seconds);
    }
    if (target.scope === 'global' || target.owner.shares.languages) {
      const figures = visible(target, await dimensionTotals(db, scopeOf(target), 'language', c.range.from, c.range.to, 'week'));
      for (const f of figures.sort((a, b) => b.millis - a.millis || a.name.localeCompare(b.name))) {
        if (!top.has(f.period) && f.millis > 0) top.set(f.period, f.name);
      }
    }
  }
  const list = starts.map((week_start) => ({ week_start, seconds: perWeek.get(week_start) ?? 0, top_language: top.get(week_start) ?? null }));
  const lastComplete = list.length >= 2 ? list[list.length - 2].seconds : 0;
  const before = list.length >= 3 ? list[list.length - 3].seconds : 0;
  const change_percent = before > 0 ? Math.round(((lastComplete - before) / before) * 1000) / 10 : null;
  return { ...c, range: { ...c.range, name: `${weeks}w` }, weeks: list, change_percent };
}
