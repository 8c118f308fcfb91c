import { sql } from 'drizzle-orm';
import { categoryName, HOUR_CAP_MILLIS } from '../activity';
import { addDays, isoWeekday } from '../dates';
import { rows, type Db } from '../db/client';
import { atVersion, onReplica } from '../db/replicas';
import { communityDays, hiddenProjects, ideActivity, userDays, userHours } from '../db/schema';
import { localDateHour } from '../local-time';
import { notPublic, publicEditorName, publicOwner } from '../sharing/gate';
import type { PublicOwner } from '../sharing/owner';
import { userRange } from '../plans/history';
import { isAiSql } from './agents';
import { codedDayAverage } from './average';
import { dimensionTotals, publishedCells } from './queries';

// A user's year in code (GET /me/years/{YYYY}, /dashboard/year/{YYYY}, /u/{handle}/year/{YYYY}):
// one local calendar year read from the per-user rollups, which hold every write path's time
// (sync buckets, heartbeats, imported dumps: all credited in the user's own timezone), each hour
// capped at 3600 s as every figure. Bounded by construction: one year of one user's rows, five
// statements side by side. The owner and a visitor read the same statements; what a visitor may
// see (YearParts) is decided by the sharing gate's answer (lib/sharing/gate.ts) and applied here,
// so a part a visitor may not see is never read at all.

/** A name with its time and its share of the year's total (percent, one decimal). */
export interface YearEntry {
  name: string;
  total_seconds: number;
  percent: number;
}

export interface YearFigures {
  year: number;
  total_seconds: number;
  days_coded: number;
  daily_average: number;
  longest_streak: { days: number; start: string | null; end: string | null };
  busiest_day: { date: string; total_seconds: number } | null;
  busiest_hour: number | null;
  by_weekday: number[];
  by_month: number[];
  top_languages: YearEntry[];
  top_projects: YearEntry[];
  top_editors: YearEntry[];
  top_categories: YearEntry[];
  ai: { seconds: number; share: number; additions: number; human_additions: number } | null;
  percentile: number | null;
}

/**
 * Which parts of the year may be read. The owner sees all; a visitor what the gate allows:
 * `editorName` maps an editor to the name a visitor may see (publicEditorName), or to null to
 * leave it out.
 */
export interface YearParts {
  languages: boolean;
  editors: boolean;
  projects: boolean;
  categories: boolean;
  ai: boolean;
  editorName?: (name: string) => string;
}

export const ALL_PARTS: YearParts = { languages: true, editors: true, projects: true, categories: true, ai: true };

/** Names in each top list at most. */
export const TOP_ENTRIES = 5;
/** The first year asked about: no coding time is older than the epoch. */
export const FIRST_YEAR = 1970;

/** The year it is now where the user lives. */
export const currentYear = (timeZone: string, now = new Date()): number => Number(localDateHour(timeZone, now).date.slice(0, 4));

const seconds = (millis: number) => Math.round(millis / 1000);

function top(found: { name: string; millis: number }[], totalSeconds: number, rename: (name: string) => string = (n) => n): YearEntry[] {
  const merged = new Map<string, number>();
  for (const f of found) merged.set(rename(f.name), (merged.get(rename(f.name)) ?? 0) + Number(f.millis));
  return [...merged]
    .map(([name, millis]) => ({ name, total_seconds: seconds(millis) }))
    .filter((e) => e.total_seconds > 0)
    .sort((a, b) => b.total_seconds - a.total_seconds || a.name.localeCompare(b.name))
    .slice(0, TOP_ENTRIES)
    .map((e) => ({ ...e, percent: totalSeconds ? Math.round((e.total_seconds / totalSeconds) * 1000) / 10 : 0 }));
}

/** The longest run of consecutive dates in `dates` (ascending); the earliest of equal runs. */
export function longestRun(dates: string[]): YearFigures['longest_streak'] {
  let best = { days: 0, start: null as string | null, end: null as string | null };
  let start = '';
  let length = 0;
  for (let i = 0; i < dates.length; i++) {
    if (i > 0 && addDays(dates[i - 1], 1) === dates[i]) length += 1;
    else [start, length] = [dates[i], 1];
    if (length > best.days) best = { days: length, start, end: dates[i] };
  }
  return best;
}

/**
 * "More than N % of this install's coders", from the released (noised) site-wide day cells of
 * the year only, never from another user's row: the cells hold sums and head counts, not anyone's
 * figure, so the share is an estimate. Over the year's published cells, the mean coding time a
 * coder-day is their released total over their people; a coder's day is taken as exponentially
 * distributed around that mean (the widest-spread shape a mean alone defines), and N is the
 * share of coder-days below the user's daily average (over days coded). Null when no cell of the
 * year is published (so fewer than PUBLIC_MIN_USERS people coded on any one day of it) or the
 * user has no time that year.
 */
async function percentileOf(db: Db, from: string, to: string, dailyAverageMillis: number): Promise<number | null> {
  if (dailyAverageMillis <= 0) return null;
  const c = communityDays;
  const [row] = await rows<{ millis: number | null; people: number | null }>(
    db,
    sql`SELECT sum(${c.released})::float8 AS millis, sum(${c.users})::float8 AS people FROM ${c}
        WHERE ${c.date} BETWEEN ${from} AND ${to} AND ${publishedCells(c)}`,
  );
  const mean = row && row.people ? Number(row.millis) / Number(row.people) : 0;
  if (!(mean > 0)) return null;
  return Math.min(99, Math.floor(100 * (1 - Math.exp(-dailyAverageMillis / mean))));
}

interface ScanRow {
  set: number;
  name: string | null;
  ai: boolean | null;
  millis: number;
  ai_additions: number;
  human_additions: number;
}

/**
 * One scan of the year's buckets for what only they hold: time per category, per project (hidden
 * ones left out, as the owner's project list does) and AI-assisted or not, with the line changes.
 * Sets not asked for are not grouped.
 */
async function bucketScan(db: Db, userId: string, from: string, to: string, parts: YearParts): Promise<ScanRow[]> {
  // The grouping sets asked for, each with the number its rows carry (GROUPING may name only grouped columns).
  const sets = [
    { set: 1, column: sql`category`, named: true, wanted: parts.categories },
    { set: 2, column: sql`project`, named: true, wanted: parts.projects },
    { set: 3, column: sql`ai`, named: false, wanted: parts.ai },
  ].filter((s) => s.wanted);
  if (sets.length === 0 || from > to) return [];
  const setOf = sets
    .slice(0, -1)
    .reduceRight((otherwise, s) => sql`CASE WHEN GROUPING(${s.column}) = 0 THEN ${sql.raw(String(s.set))} ELSE ${otherwise} END`, sql.raw(String(sets.at(-1)!.set)));
  const named = sets.filter((s) => s.named).map((s) => s.column);
  const [a, h, x] = [ideActivity, userHours, hiddenProjects];
  const found = await rows<ScanRow>(
    db,
    sql`WITH b AS MATERIALIZED (
          SELECT a.category, CASE WHEN a.project = '' THEN '(no project)' ELSE a.project END AS project,
                 ${isAiSql(sql`a.ai_agent`, sql`a.editor`, sql`a.category`)} AS ai, a.ai_additions, a.human_additions,
                 a.millis * least(1, ${HOUR_CAP_MILLIS}::float8 / nullif(h.millis, 0)) AS capped
          FROM ${a} a LEFT JOIN ${h} h ON h.user_id = a.user_id AND h.date = a.date AND h.hour = a.hour
          WHERE a.user_id = ${userId}::uuid AND a.date BETWEEN ${from} AND ${to}
        )
        SELECT ${setOf} AS set, ${named.length ? sql`coalesce(${sql.join(named, sql`, `)})` : sql`NULL::text`} AS name,
               ${parts.ai ? sql`ai` : sql`NULL::boolean`} AS ai, sum(capped)::float8 AS millis,
               sum(ai_additions)::float8 AS ai_additions, sum(human_additions)::float8 AS human_additions
        FROM b GROUP BY GROUPING SETS (${sql.join(
          sets.map((s) => sql`(${s.column})`),
          sql`, `,
        )})`,
  );
  const hidden = parts.projects
    ? new Set((await rows<{ project: string }>(db, sql`SELECT ${x.project} AS project FROM ${x} WHERE ${x.userId} = ${userId}::uuid`)).map((r) => r.project))
    : new Set<string>();
  return found.filter((r) => !(r.set === 2 && hidden.has(r.name ?? '')));
}

/**
 * The user's figures of `year` (their local calendar year, cut to their plan's window of history),
 * only the parts `parts` allows. `historyDays` when the caller has it (a public owner). The
 * percentile is read from the site-wide cells on `site` (the primary, when `db` is a replica
 * fenced for this user alone).
 */
export async function yearFigures(
  db: Db,
  user: { id: string; timezone: string; historyDays?: number | null },
  year: number,
  parts: YearParts = ALL_PARTS,
  now = new Date(),
  site: Db = db,
): Promise<YearFigures> {
  const today = localDateHour(user.timezone, now).date;
  const first = `${String(year).padStart(4, '0')}-01-01`;
  const last = `${String(year).padStart(4, '0')}-12-31`;
  const range = await userRange(db, user.id, { name: 'custom', from: first, to: last < today ? last : today }, today, user.historyDays);
  const [from, to] = [range.from, range.to];
  const empty = from > to; // wholly before the plan's window, or a year not begun
  const [d, h] = [userDays, userHours];
  const [days, hours, languages, editors, scan] = await Promise.all([
    empty
      ? []
      : rows<{ date: string; millis: number }>(
          db,
          sql`SELECT to_char(${d.date}, 'YYYY-MM-DD') AS date, ${d.millis}::float8 AS millis FROM ${d}
              WHERE ${d.userId} = ${user.id}::uuid AND ${d.date} BETWEEN ${from} AND ${to} AND ${d.millis} > 0 ORDER BY ${d.date}`,
        ),
    empty
      ? []
      : rows<{ hour: number; millis: number }>(
          db,
          sql`SELECT ${h.hour}::int AS hour, sum(least(${h.millis}, ${HOUR_CAP_MILLIS}))::float8 AS millis FROM ${h}
              WHERE ${h.userId} = ${user.id}::uuid AND ${h.date} BETWEEN ${from} AND ${to} GROUP BY 1`,
        ),
    parts.languages && !empty ? dimensionTotals(db, { userId: user.id }, 'language', from, to) : [],
    parts.editors && !empty ? dimensionTotals(db, { userId: user.id }, 'editor', from, to) : [],
    bucketScan(db, user.id, from, to, parts),
  ]);

  const byWeekday = Array.from({ length: 7 }, () => 0);
  const byMonth = Array.from({ length: 12 }, () => 0);
  let busiest: { date: string; millis: number } | null = null;
  for (const day of days) {
    const millis = Number(day.millis);
    byWeekday[isoWeekday(day.date)] += millis;
    byMonth[Number(day.date.slice(5, 7)) - 1] += millis;
    if (!busiest || millis > busiest.millis) busiest = { date: day.date, millis };
  }
  const average = codedDayAverage(days.map((day) => Number(day.millis)));
  const totalMillis = days.reduce((sum, day) => sum + Number(day.millis), 0);
  const total = seconds(totalMillis);
  // The hour with most time; the earliest of equals.
  const busiestHour = hours.reduce<{ hour: number; millis: number } | null>(
    (best, r) => (Number(r.millis) > 0 && (!best || Number(r.millis) > best.millis || (Number(r.millis) === best.millis && r.hour < best.hour)) ? { hour: r.hour, millis: Number(r.millis) } : best),
    null,
  );

  const of = (set: number) => scan.filter((r) => r.set === set).map((r) => ({ name: r.name ?? '', millis: Number(r.millis) }));
  const aiRows = scan.filter((r) => r.set === 3);
  const aiMillis = aiRows.filter((r) => r.ai).reduce((sum, r) => sum + Number(r.millis), 0);
  const additions = aiRows.reduce((sum, r) => sum + Number(r.ai_additions), 0);
  const humanAdditions = aiRows.reduce((sum, r) => sum + Number(r.human_additions), 0);
  // Nothing AI-assisted that year: nothing to tell (null), as when it is not shared.
  const ai =
    parts.ai && (seconds(aiMillis) > 0 || additions > 0)
      ? { seconds: seconds(aiMillis), share: total ? Math.round((seconds(aiMillis) / total) * 1000) / 1000 : 0, additions, human_additions: humanAdditions }
      : null;

  return {
    year,
    total_seconds: total,
    days_coded: average.coded,
    daily_average: seconds(average.average),
    longest_streak: longestRun(days.map((day) => day.date)),
    busiest_day: busiest && { date: busiest.date, total_seconds: seconds(busiest.millis) },
    busiest_hour: busiestHour?.hour ?? null,
    by_weekday: byWeekday.map(seconds),
    by_month: byMonth.map(seconds),
    top_languages: top(languages, total),
    top_projects: top(of(2), total),
    top_editors: top(editors, total, parts.editorName ?? ((name) => name || 'Unknown')),
    top_categories: top(
      of(1).map((c) => ({ ...c, name: categoryName(c.name) })),
      total,
    ),
    ai,
    percentile: empty ? null : await percentileOf(site, first, last, average.average),
  };
}

/** Whether the user has any coding time in `year` (their local dates, within their plan's window). */
export async function codedIn(db: Db, user: { id: string; timezone: string; historyDays?: number | null }, year: number, now = new Date()): Promise<boolean> {
  const today = localDateHour(user.timezone, now).date;
  const range = await userRange(db, user.id, { name: 'custom', from: `${year}-01-01`, to: `${year}-12-31` }, today, user.historyDays);
  if (range.from > range.to) return false;
  const d = userDays;
  const [row] = await rows<{ any: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM ${d} WHERE ${d.userId} = ${user.id}::uuid AND ${d.date} BETWEEN ${range.from} AND ${range.to} AND ${d.millis} > 0) AS any`,
  );
  return Boolean(row?.any);
}

/** The years the user has coding time in, newest first (within their plan's window): what the dashboard offers. */
export async function yearsCoded(db: Db, user: { id: string; timezone: string }, now = new Date()): Promise<number[]> {
  const today = localDateHour(user.timezone, now).date;
  const range = await userRange(db, user.id, { name: 'custom', from: '0001-01-01', to: today }, today);
  const d = userDays;
  const found = await rows<{ year: number }>(
    db,
    sql`SELECT DISTINCT extract(year FROM ${d.date})::int AS year FROM ${d}
        WHERE ${d.userId} = ${user.id}::uuid AND ${d.date} BETWEEN ${range.from} AND ${range.to} AND ${d.millis} > 0 ORDER BY 1 DESC`,
  );
  return found.map((r) => Number(r.year));
}

/** What a visitor may read of a public owner's year: the gate's answer (lib/sharing/gate.ts), part by part. */
export function publicParts(owner: PublicOwner): YearParts {
  return {
    languages: owner.shares.languages,
    editors: owner.shares.editors,
    // No public surface names projects; categories have no sharing setting (and one of them is AI Coding).
    projects: false,
    categories: false,
    ai: owner.shares.ai,
    editorName: (name) => publicEditorName(name, owner.shares),
  };
}

export interface PublicYear {
  owner: PublicOwner;
  figures: YearFigures;
  parts: YearParts;
}

/**
 * A public owner's year, as the public year page and its share image show it: only for a public
 * profile (the gate), for a year from FIRST_YEAR to the owner's current one with some time in it,
 * each part only under its setting. Anything else is the gate's 404, the same as an unknown user.
 */
export async function publicYear(db: Db, ref: string, yearSegment: string, now = new Date()): Promise<PublicYear> {
  const owner = await publicOwner(db, ref);
  const year = /^\d{4}$/.test(yearSegment) ? Number(yearSegment) : NaN;
  if (!(year >= FIRST_YEAR && year <= currentYear(owner.timezone, now))) throw notPublic();
  const who = { id: owner.user.id, timezone: owner.timezone, historyDays: owner.historyDays };
  const parts = publicParts(owner);
  // The owner and what they share came from the primary (the gate); the owner's figures may come
  // from a replica that has replayed the owner's every change known here (lib/db/replicas.ts), the
  // site-wide percentile from the primary.
  const read = async (reader: Db) => ((await codedIn(reader, who, year, now)) ? yearFigures(reader, who, year, parts, now, db) : null);
  const figures = await onReplica(db, { user: owner.user.id }, read, atVersion(owner.user.id, owner.statsVersion));
  if (!figures) throw notPublic();
  return { owner, figures, parts };
}

/** The years the dashboard offers a review of: every past year with time, and the current one from December on. */
export async function offeredYears(db: Db, user: { id: string; timezone: string }, now = new Date()): Promise<number[]> {
  const today = localDateHour(user.timezone, now).date;
  const current = Number(today.slice(0, 4));
  const years = await yearsCoded(db, user, now);
  return years.filter((y) => y < current || today.slice(5, 7) === '12');
}
