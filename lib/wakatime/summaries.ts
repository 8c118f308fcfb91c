import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { selected } from '../db/names';
import { heartbeats } from '../db/schema';
import { localDateHour } from '../local-time';
import { eachDay } from '../dates';
import { projectTotals } from '../stats/own';
import { userSpan } from '../plans/history';
import { dayTotals, dimensionTotals, type Per } from '../stats/queries';
import { hoursOf } from './credits';
import { GAP_MS } from './heartbeat';

// The owner's figures in WakaTime's shapes: the status bar, summaries, stats (lib/wakatime/reads.ts).

export interface WakaDuration {
  name: string;
  total_seconds: number;
  percent: number;
  digital: string;
  text: string;
  hours: number;
  minutes: number;
  seconds: number;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** WakaTime's way of writing a duration: "2 hrs 5 mins", "1 hr", "0 secs". */
export function durationText(totalSeconds: number): string {
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  if (hours === 0 && minutes === 0) return plural(Math.floor(totalSeconds), 'sec');
  return [hours > 0 ? plural(hours, 'hr') : '', minutes > 0 ? plural(minutes, 'min') : ''].filter(Boolean).join(' ');
}

function duration(name: string, totalSeconds: number, total: number): WakaDuration {
  const s = Math.round(totalSeconds);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return {
    name,
    total_seconds: s,
    percent: total > 0 ? Math.round((s / total) * 10000) / 100 : 0,
    digital: `${hours}:${String(minutes).padStart(2, '0')}`,
    text: durationText(s),
    hours,
    minutes,
    seconds: s % 60,
  };
}

function durations(found: { name: string; seconds: number }[], total: number): WakaDuration[] {
  return found
    .filter((f) => f.seconds >= 1)
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name))
    .map((f) => duration(f.name, f.seconds, total));
}

/** Heartbeat seconds per period and category, and per period and operating system, in the user's timezone. */
async function heartbeatShares(db: Db, user: WakaUser, from: string, to: string, per: Per) {
  const h = heartbeats;
  // Every credit that reaches a local date of the range starts between the first instant that
  // date exists anywhere (UTC+14) less the longest gap, and the last one (UTC-12).
  const earliest = Date.parse(`${from}T00:00:00Z`) - 14 * 3_600_000 - GAP_MS;
  const latest = Date.parse(`${to}T23:59:59Z`) + 12 * 3_600_000;
  const found = await rows<{ at: number; credited_until: number; zone: string; category: string; os: string; type: string }>(
    db,
    sql`SELECT ${h.at}::float8 AS at, ${h.creditedUntil}::float8 AS credited_until, ${selected(h.zone, h.category, h.os, h.type)}
        FROM ${h} WHERE ${h.userId} = ${user.id}::uuid AND ${h.creditedUntil} > ${h.at} AND ${h.at} BETWEEN ${earliest} AND ${latest}`,
  );
  const categories = new Grouped();
  const systems = new Grouped();
  for (const r of found) {
    if (r.type === 'app') continue;
    for (const p of hoursOf(r.at, r.credited_until, r.zone)) {
      if (p.date < from || p.date > to) continue;
      const period = per === 'day' ? p.date : '';
      categories.add(period, r.category, p.millis);
      systems.add(period, r.os, p.millis);
    }
  }
  return { categories, systems };
}

/** Milliseconds per period and name. */
class Grouped {
  readonly byPeriod = new Map<string, Map<string, number>>();

  add(period: string, name: string, millis: number): void {
    const names = this.byPeriod.get(period) ?? new Map<string, number>();
    this.byPeriod.set(period, names);
    names.set(name, (names.get(name) ?? 0) + millis);
  }

  of(period: string): Map<string, number> {
    return this.byPeriod.get(period) ?? new Map();
  }

  static from(rows: { period: string; name: string; millis: number }[]): Grouped {
    const g = new Grouped();
    for (const r of rows) g.add(r.period, r.name || 'Unknown', r.millis);
    return g;
  }
}

/** `shares` scaled so that they add up to `total` seconds; what they do not cover goes to `rest` (if named). */
function scaled(shares: Map<string, number>, total: number, rest?: string): { name: string; seconds: number }[] {
  const sum = [...shares.values()].reduce((a, b) => a + b, 0) / 1000;
  const factor = sum > total ? total / sum : 1;
  const list = [...shares].map(([name, millis]) => ({ name, seconds: (millis / 1000) * factor }));
  if (rest && sum < total) {
    const existing = list.find((l) => l.name === rest);
    if (existing) existing.seconds += total - sum;
    else list.push({ name: rest, seconds: total - sum });
  }
  return list;
}

const seconds = (m: Map<string, number>) => [...m].map(([name, millis]) => ({ name, seconds: millis / 1000 }));
const titled = (list: { name: string; seconds: number }[]) => list.map((c) => ({ ...c, name: c.name.charAt(0).toUpperCase() + c.name.slice(1) }));

export interface WakaUser {
  id: string;
  timezone: string;
}

/** One period's figures in WakaTime's shapes. */
export interface Figures {
  grand_total: { digital: string; hours: number; minutes: number; text: string; total_seconds: number };
  categories: WakaDuration[];
  languages: WakaDuration[];
  editors: WakaDuration[];
  projects: WakaDuration[];
  operating_systems: WakaDuration[];
}

/**
 * The owner's figures from `from` to `to` (local dates), all together or per date. Totals,
 * languages, editors and projects are the owner's own figures as the dashboard shows them (every
 * hour capped at 3600 s). Categories and operating systems exist for heartbeat time of the last
 * 14 days only: scaled to the capped total, and what no heartbeat explains (time from Codetally's
 * own plugins, or older) counts as coding.
 */
export async function figures(db: Db, user: WakaUser, from: string, to: string, per: 'range' | 'day'): Promise<Map<string, Figures>> {
  const scope = { userId: user.id };
  // Dates before the plan's window of history are answered, with nothing in them (lib/plans/history.ts).
  const shown = await userSpan(db, user.id, from, to, localDateHour(user.timezone).date);
  const [days, languages, editors, projects, shares] = await Promise.all([
    dayTotals(db, scope, shown.from, shown.to),
    dimensionTotals(db, scope, 'language', shown.from, shown.to, per),
    dimensionTotals(db, scope, 'editor', shown.from, shown.to, per),
    projectTotals(db, user.id, shown.from, shown.to, per),
    shown.from <= shown.to ? heartbeatShares(db, user, shown.from, shown.to, per) : { categories: new Grouped(), systems: new Grouped() },
  ]);
  const totals = new Map<string, number>();
  for (const d of days) {
    const period = per === 'day' ? d.date : '';
    totals.set(period, (totals.get(period) ?? 0) + d.millis);
  }
  const [byLanguage, byEditor, byProject] = [Grouped.from(languages), Grouped.from(editors), Grouped.from(projects)];
  const periods = per === 'day' ? eachDay(from, to) : [''];
  return new Map(
    periods.map((period) => {
      const total = Math.round((totals.get(period) ?? 0) / 1000);
      const grand = duration('', total, total);
      return [
        period,
        {
          grand_total: { digital: grand.digital, hours: grand.hours, minutes: grand.minutes, text: grand.text, total_seconds: grand.total_seconds },
          categories: durations(titled(scaled(shares.categories.of(period), total, 'coding')), total),
          languages: durations(seconds(byLanguage.of(period)), total),
          editors: durations(seconds(byEditor.of(period)), total),
          projects: durations(seconds(byProject.of(period)), total),
          operating_systems: durations(scaled(shares.systems.of(period), total), total),
        },
      ];
    }),
  );
}

/** Today's figures, for the editor's status bar (wakatime-cli --today). */
export async function statusBarToday(db: Db, user: WakaUser) {
  const today = localDateHour(user.timezone).date;
  const found = (await figures(db, user, today, today, 'range')).get('')!;
  return { ...found, range: { date: today, text: 'Today', timezone: user.timezone } };
}
