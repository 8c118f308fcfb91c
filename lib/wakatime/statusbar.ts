import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { selected } from '../db/names';
import { heartbeats } from '../db/schema';
import { localDateHour } from '../local-time';
import { ownProjects } from '../stats/own';
import { dayTotals, dimensionTotals } from '../stats/queries';
import { GAP_MS, hoursOf } from './heartbeats';

// Today's figures in WakaTime's shapes, for the editor's status bar (wakatime-cli --today). The
// total, languages, editors and projects are the owner's own figures as the dashboard shows them
// (every hour capped at 3600 s). Categories and operating systems exist for heartbeat time only:
// they come from today's heartbeats, scaled to the capped total, and what no heartbeat explains
// (time from Codetally's own plugins) counts as coding.

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

/** Today's heartbeat seconds per category and per operating system, in the user's timezone. */
async function heartbeatShares(db: Db, user: { id: string; timezone: string }, today: string) {
  const h = heartbeats;
  // Every credit that can touch today starts within a day and a gap of now.
  const since = Date.now() - 2 * 86_400_000 - GAP_MS;
  const found = await rows<{ at: number; credited_until: number; zone: string; category: string; os: string; type: string }>(
    db,
    sql`SELECT ${h.at}::float8 AS at, ${h.creditedUntil}::float8 AS credited_until, ${selected(h.zone, h.category, h.os, h.type)}
        FROM ${h} WHERE ${h.userId} = ${user.id}::uuid AND ${h.at} >= ${since} AND ${h.creditedUntil} > ${h.at}`,
  );
  const categories = new Map<string, number>();
  const systems = new Map<string, number>();
  for (const r of found) {
    if (r.type === 'app') continue;
    const millis = hoursOf(r.at, r.credited_until, r.zone)
      .filter((p) => p.date === today)
      .reduce((sum, p) => sum + p.millis, 0);
    categories.set(r.category, (categories.get(r.category) ?? 0) + millis);
    if (r.os) systems.set(r.os, (systems.get(r.os) ?? 0) + millis);
  }
  return { categories, systems };
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

export async function statusBarToday(db: Db, user: { id: string; timezone: string }) {
  const today = localDateHour(user.timezone).date;
  const scope = { userId: user.id };
  const [days, languages, editors, projects, shares] = await Promise.all([
    dayTotals(db, scope, today, today),
    dimensionTotals(db, scope, 'language', today, today),
    dimensionTotals(db, scope, 'editor', today, today),
    ownProjects(db, user.id, today, today),
    heartbeatShares(db, user, today),
  ]);
  const total = Math.round((days[0]?.millis ?? 0) / 1000);
  const named = (f: { name: string; millis: number }[]) => f.map((x) => ({ name: x.name || 'Unknown', seconds: x.millis / 1000 }));
  const grand = duration('', total, total);
  return {
    grand_total: { digital: grand.digital, hours: grand.hours, minutes: grand.minutes, text: grand.text, total_seconds: grand.total_seconds },
    categories: durations(scaled(shares.categories, total, 'coding').map((c) => ({ ...c, name: c.name.charAt(0).toUpperCase() + c.name.slice(1) })), total),
    languages: durations(named(languages), total),
    editors: durations(named(editors), total),
    projects: durations(projects.map((p) => ({ name: p.name, seconds: p.seconds })), total),
    operating_systems: durations(scaled(shares.systems, total), total),
    range: { date: today, text: 'Today', timezone: user.timezone },
  };
}
