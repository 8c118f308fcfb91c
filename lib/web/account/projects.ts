import type { SessionUser } from '../../auth/session';
import { getDb } from '../../db/client';
import { ApiError } from '../../http/problem';
import { listProjects, ownRange, projectDays, projectParam } from '../../projects/read';
import { projectRangeQuery } from '../../projects/schemas';
import type { ResolvedRange } from '../../stats/range';

// What the dashboard's project pages show (app/dashboard/projects/): the same functions and query
// rules as GET /me/projects and /me/projects/{name}/days.

export const projectRanges = { '7d': 'Last 7 days', '30d': 'Last 30 days', '365d': 'Last 365 days', all: 'All time' } as const;

type Search = Record<string, string | undefined>;

/** The range the page's query asks for (as the API reads it), or the default with what was wrong. */
export function pageRange(user: SessionUser, search: Search): { range: ResolvedRange; problem?: string } {
  const query = Object.fromEntries(['range', 'from', 'to'].filter((k) => search[k]).map((k) => [k, search[k]]));
  const parsed = projectRangeQuery.safeParse(query);
  if (parsed.success) return { range: ownRange(parsed.data, user.timezone) };
  const issue = parsed.error.issues[0];
  return { range: ownRange({ name: '30d' }, user.timezone), problem: `${String(issue.path[0] ?? 'range')} ${issue.message} (showing the last 30 days)` };
}

/** The query string of a range, for links that keep it. */
export const rangeSearch = (range: ResolvedRange) => (range.name === 'custom' ? `from=${range.from}&to=${range.to}` : `range=${range.name}`);

export async function projectsPageData(user: SessionUser, search: Search) {
  const { range, problem } = pageRange(user, search);
  const { projects, hidden } = await listProjects(await getDb(), user.id, range);
  return { range, problem, projects, hidden };
}

/** One project's page, or null when the user has no project of that name. */
export async function projectPageData(user: SessionUser, name: string, search: Search) {
  const { range, problem } = pageRange(user, search);
  const db = await getDb();
  try {
    const found = await projectDays(db, user.id, projectParam(name), range);
    const { projects, hidden } = await listProjects(db, user.id, range);
    return { range, problem, ...found, figures: projects.find((p) => p.name === name) ?? null, hidden: hidden.includes(name) };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') return null;
    throw err;
  }
}
