import type { SessionUser } from '../../auth/session';
import { getDb } from '../../db/client';
import { eachDay } from '../../dates';
import { ApiError } from '../../http/problem';
import { mergesInto } from '../../projects/merges';
import { ALL_TIME_FROM, hasProject, listProjects, ownRange, projectDays, projectParam, type Named } from '../../projects/read';
import { renameProjectSchema } from '../../projects/schemas';
import { ownRangeNames, type ResolvedRange } from '../../stats/range';
import { dashboardRange, type DashboardRange } from './dashboard-range';

// What the dashboard's project pages show (app/dashboard/projects/): the same functions and query
// rules (named ranges 7d, 30d, 365d, all) as GET /me/projects and /me/projects/{name}/days, so the
// pages' links to the CSV keep their range.

type Search = Record<string, string | string[] | undefined>;

/**
 * The range the page's address asks for, by the rules of the routes it draws (their named
 * ranges; the dashboard's default when none), and the dates it covers in the user's timezone.
 */
export async function pageRange(user: SessionUser, search: Search): Promise<{ asked: DashboardRange; range: ResolvedRange }> {
  const asked = dashboardRange(search, ownRangeNames);
  return { asked, range: await ownRange(await getDb(), user.id, asked.query, user.timezone) };
}

/** The query string of a range, for links that keep it. */
export const rangeSearch = (range: ResolvedRange) => (range.name === 'custom' ? `from=${range.from}&to=${range.to}` : `range=${range.name}`);

export async function projectsPageData(user: SessionUser, search: Search) {
  const { asked, range } = await pageRange(user, search);
  const { projects, hidden } = await listProjects(await getDb(), user.id, range);
  return { asked, range, projects, hidden };
}

/**
 * Every date of the range with its seconds, days without time as 0, so that a chart's axis is one
 * of time (all time: from the first date with time on).
 */
export function everyDay(days: { date: string; seconds: number }[], range: ResolvedRange): { date: string; seconds: number }[] {
  if (days.length === 0) return [];
  const seconds = new Map(days.map((d) => [d.date, d.seconds]));
  const first = range.name === 'all' ? days.reduce((min, d) => (d.date < min ? d.date : min), days[0].date) : range.from;
  return eachDay(first, range.to).map((date) => ({ date, seconds: seconds.get(date) ?? 0 }));
}

/** One project's page, or null when the user has no project of that name. */
export async function projectPageData(user: SessionUser, name: string, search: Search) {
  const { asked, range } = await pageRange(user, search);
  const db = await getDb();
  try {
    const found = await projectDays(db, user.id, projectParam(name), range);
    const { projects, hidden } = await listProjects(db, user.id, range);
    // Sizes over the same history as the merge's question (mergeQuestion): a merge shows one size.
    const history = await ownRange(db, user.id, { name: 'all' }, user.timezone);
    const merges = await mergesInto(db, user.id, name, history.from);
    return {
      asked,
      range,
      ...found,
      chartDays: everyDay(found.days, range),
      figures: projects.find((p) => p.name === name) ?? null,
      hidden: hidden.includes(name),
      merges,
      mergesPeriod: historyPeriod(history),
    };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') return null;
    throw err;
  }
}

/**
 * What a project's page says after one of its forms: a code in the address (`?notice=`), never
 * text from it (a link anyone can make would put their words in the site's frame).
 */
const projectNotices = {
  renamed: 'Renamed: every figure of the project counts under this name.',
  merged: 'Merged: the two are one project now. The merge can be split back out below, under “Merged into this project”.',
  split: 'Split back out: the time it had before the merge counts under this name again.',
  hidden: 'Hidden: only your project list names it now.',
  shown: 'Shown again.',
  invalid_to: 'A project name is 1 to 200 characters, without control, invisible or text-direction characters.',
  not_found: 'That is no longer possible: a later rename changed the names involved.',
  merge_changed: 'An import has replaced days of the merged time since the merge: it can no longer be split back out.',
} as const;

export type ProjectNotice = keyof typeof projectNotices;

export const projectNotice = (code: unknown): string | undefined =>
  typeof code === 'string' && Object.hasOwn(projectNotices, code) ? projectNotices[code as ProjectNotice] : undefined;

/** The dates to print for a range: none for all time, whose start here is a placeholder (ownRange). */
export const shownDates = (range: ResolvedRange) => (range.name === 'all' ? undefined : range);

/**
 * What renaming `name` onto `to` would merge, when `to` already has time stored (the test the
 * rename itself makes): both projects and their time over the history the user's plan shows (the
 * page asks before a merge). Null when `to` is new, the same name, or no name a rename takes.
 */
export async function mergeQuestion(user: SessionUser, name: string, to: string): Promise<{ from: Named; into: Named; period: string } | null> {
  // `to` may come from the page's address: a name no rename would take asks nothing.
  if (to === name || !renameProjectSchema.safeParse({ to }).success) return null;
  const db = await getDb();
  if (!(await hasProject(db, user.id, to))) return null;
  const history = await ownRange(db, user.id, { name: 'all' }, user.timezone);
  const { projects } = await listProjects(db, user.id, history);
  const seconds = (n: string) => projects.find((p) => p.name === n)?.seconds ?? 0;
  return { from: { name, seconds: seconds(name) }, into: { name: to, seconds: seconds(to) }, period: historyPeriod(history) };
}

/** The period a project's sizes in a merge cover, in words: all time, or from the first date the user's plan shows (ownRange's `all`). */
function historyPeriod(history: ResolvedRange): string {
  return history.from === ALL_TIME_FROM ? 'all time' : `since ${history.from}`;
}
