import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { HOUR_CAP_MILLIS } from '../activity';
import { satisfies, type Scope } from '../auth/tokens';
import { compiled, preparedRows, type Db } from '../db/client';
import { hiddenProjects, ideActivity, userHours } from '../db/schema';
import { ApiError } from '../http/problem';
import { localDateHour } from '../local-time';
import { resolveRange, type RangeQuery, type ResolvedRange } from '../stats/range';
import { clampToHistory, historyStart } from '../plans/limits';
import { NO_PROJECT, PROJECT_PATH_MAX } from './schemas';
import { nameProblem } from '../text';

// The owner's own figures per project (GET /me/projects, /me/projects/{name}/days): read straight
// from the stored buckets, each scaled down when its hour is over the cap (the cap is per
// user-hour: user_hours holds each hour's sum). A year of a heavy user is a few thousand to ten
// thousand buckets, read in one range of the primary key (about 5 ms warm, 10-20 ms cold, for
// 8 760): no rollup per project is kept, which every write and every rename would have to keep
// up too (docs/scaling.md).

/** A project as lists name it: '' is time without a project. */
export const shownProject = (column: SQLWrapper) => sql`CASE WHEN ${column} = '' THEN ${NO_PROJECT} ELSE ${column} END`;

/** The stored names a shown name stands for ("(no project)": '' and a project a plugin named so). */
export const storedProjects = (name: string): string[] => (name === NO_PROJECT ? ['', NO_PROJECT] : [name]);

/** `{name}` as a path gives it: one that no write could have stored names no project (404). */
export function projectParam(name: string): string {
  if (name.length === 0 || name.length > PROJECT_PATH_MAX || nameProblem(name) || name.trim() !== name) throw unknownProject();
  return name;
}

export const unknownProject = () => new ApiError('not_found', 'You have no project of that name.');

/** Where `all` starts when the user's plan hides no history: before any date. */
export const ALL_TIME_FROM = '0001-01-01';

/**
 * The dates a range covers in the owner's timezone, from no earlier than their plan's window of
 * history. `all` starts at the first date there is (or the window's): the read finds where the
 * data begins, with no query for it.
 */
export async function ownRange(db: Db, userId: string, query: RangeQuery, timeZone: string): Promise<ResolvedRange> {
  const today = localDateHour(timeZone).date;
  return clampToHistory(resolveRange(query, today, ALL_TIME_FROM), await historyStart(db, userId, today));
}

const [a, h] = [ideActivity, userHours];
const user = sql`${sql.placeholder('user')}::uuid`;
const dates = (column: SQLWrapper) => sql`${column} BETWEEN ${sql.placeholder('from')}::date AND ${sql.placeholder('to')}::date`;

/**
 * Capped time of the user's buckets in the range, grouped by `keys` (columns of ide_activity `a`):
 * the stored sums, less, for the rare hours over the cap (user_hours' partial index finds them),
 * each bucket's share of the excess, so the common case reads the buckets alone (as
 * cappedPerUserDay in lib/stats/queries.ts does for the rollups).
 */
function cappedBy(keys: { name: string; column: SQLWrapper }[], where: SQL, extra: SQL = sql``): SQL {
  const selected = sql.join(keys.map((k) => sql`${k.column} AS ${sql.identifier(k.name)}`), sql`, `);
  const positions = sql.raw(keys.map((_, i) => i + 1).join(', '));
  return sql`
    WITH raw AS (
      SELECT ${selected}, sum(${a.millis})::float8 AS millis${extra} FROM ${a}
      WHERE ${a.userId} = ${user} AND ${dates(a.date)} ${where}
      GROUP BY ${positions}
    ), excess AS (
      SELECT ${selected}, sum(${a.millis} * (1 - ${HOUR_CAP_MILLIS}::float8 / ${h.millis})) AS millis
      FROM ${h} JOIN ${a} ON ${a.userId} = ${h.userId} AND ${a.date} = ${h.date} AND ${a.hour} = ${h.hour}
      WHERE ${h.userId} = ${user} AND ${dates(h.date)} AND ${h.millis} > ${HOUR_CAP_MILLIS} ${where}
      GROUP BY ${positions}
    )`;
}

const listStatement = compiled<{ user: string; from: string; to: string }>(
  () => sql`
    ${cappedBy(
      [
        { name: 'project', column: a.project },
        { name: 'language', column: a.language },
        { name: 'editor', column: a.editor },
      ],
      sql``,
      sql`, max(${a.date}) AS last`,
    )}
    SELECT ${shownProject(sql`r.project`)} AS project, r.language, r.editor, r.millis - coalesce(x.millis, 0) AS millis, to_char(r.last, 'YYYY-MM-DD') AS last
    FROM raw r LEFT JOIN excess x USING (project, language, editor)`,
);

const hiddenStatement = compiled<{ user: string }>(
  () => sql`SELECT ${hiddenProjects.project} AS project FROM ${hiddenProjects} WHERE ${hiddenProjects.userId} = ${sql.placeholder('user')}::uuid ORDER BY 1`,
);

export interface Named {
  name: string;
  seconds: number;
}

/** Millis per name as whole seconds, none of 0, largest first. */
function ranked(millis: Map<string, number>): Named[] {
  return [...millis]
    .map(([name, m]) => ({ name, seconds: Math.round(m / 1000) }))
    .filter((n) => n.seconds > 0)
    .sort((x, y) => y.seconds - x.seconds || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

const add = (m: Map<string, number>, name: string, millis: number) => m.set(name, (m.get(name) ?? 0) + millis);

export interface ProjectFigures extends Named {
  languages: Named[];
  editors: Named[];
  last_active: string;
}

/** The names of the owner's hidden projects, as stored (and as every list shows them). */
export async function hiddenNames(db: Db, userId: string): Promise<string[]> {
  return (await preparedRows<{ project: string }>(db, hiddenStatement({ user: userId }))).map((r) => r.project);
}

/**
 * Who reads the owner's projects: the owner (the dashboard's session, or a token with `account`,
 * which may also hide, rename, merge and split them), or a `stats` key, which reads the figures as
 * every other surface shows them: no hidden project named, its time counted in totals only. A
 * `stats` key is what README Actions and other tools hold; which projects are hidden is the
 * owner's business.
 */
export type ProjectReader = 'owner' | 'stats';

/** The reader a request of the account routes is (the caller as lib/auth/account.ts gives it). */
export function projectReader(caller: { via: 'session' | 'token'; scopes?: readonly Scope[] }): ProjectReader {
  return caller.via === 'session' || satisfies(caller.scopes ?? [], 'account') ? 'owner' : 'stats';
}

/** The list as `reader` may see it: for a `stats` key, no hidden project and no list of them. */
export function shownTo(reader: ProjectReader, list: { projects: ProjectFigures[]; hidden: string[] }): { projects: ProjectFigures[]; hidden?: string[] } {
  if (reader === 'owner') return list;
  const hidden = new Set(list.hidden);
  return { projects: list.projects.filter((p) => !hidden.has(p.name)) };
}

/** Every project with time in the range, largest first, with its languages and editors; and the hidden names (the owner's view). */
export async function listProjects(db: Db, userId: string, range: { from: string; to: string }): Promise<{ projects: ProjectFigures[]; hidden: string[] }> {
  const [found, hidden] = await Promise.all([
    preparedRows<{ project: string; language: string; editor: string; millis: number; last: string }>(db, listStatement({ user: userId, ...range })),
    hiddenNames(db, userId),
  ]);
  const byProject = new Map<string, { millis: number; languages: Map<string, number>; editors: Map<string, number>; last: string }>();
  for (const r of found) {
    let p = byProject.get(r.project);
    if (!p) byProject.set(r.project, (p = { millis: 0, languages: new Map(), editors: new Map(), last: r.last }));
    const millis = Number(r.millis);
    p.millis += millis;
    add(p.languages, r.language, millis);
    add(p.editors, r.editor || 'Unknown', millis);
    if (r.last > p.last) p.last = r.last;
  }
  const totals = ranked(new Map([...byProject].map(([name, p]) => [name, p.millis])));
  const projects = totals.map(({ name, seconds }) => {
    const p = byProject.get(name)!;
    return { name, seconds, languages: ranked(p.languages), editors: ranked(p.editors), last_active: p.last };
  });
  return { projects, hidden };
}

const daysStatement = compiled<{ user: string; from: string; to: string; names: string }>(
  () => sql`
    ${cappedBy(
      [
        { name: 'date', column: a.date },
        { name: 'language', column: a.language },
      ],
      sql`AND ${a.project} = ANY(${sql.placeholder('names')}::text[])`,
    )}
    SELECT to_char(r.date, 'YYYY-MM-DD') AS date, r.language, r.millis - coalesce(x.millis, 0) AS millis
    FROM raw r LEFT JOIN excess x USING (date, language) ORDER BY r.date`,
);

const existsStatement = compiled<{ user: string; names: string }>(
  () => sql`SELECT EXISTS (SELECT 1 FROM ${a} WHERE ${a.userId} = ${sql.placeholder('user')}::uuid AND ${a.project} = ANY(${sql.placeholder('names')}::text[])) AS found`,
);

/** Whether the user has a project of this name with time stored, on any date (the plan's window aside). */
export async function hasProject(db: Db, userId: string, name: string): Promise<boolean> {
  const [{ found }] = await preparedRows<{ found: boolean }>(db, existsStatement({ user: userId, names: textArray(storedProjects(name)) }));
  return found;
}

/** A text[] parameter: the array's literal (every element quoted). */
export const textArray = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;

export interface ProjectDay extends Named {
  date: string;
  languages: Named[];
}

/**
 * The project's time per date of the range (dates without time left out); 404 for a project with
 * no time ever, and for a `stats` key a hidden one (as the WakaTime-compatible projects/{name}).
 */
export async function projectDays(
  db: Db,
  userId: string,
  name: string,
  range: { from: string; to: string },
  reader: ProjectReader = 'owner',
): Promise<{ project: string; days: { date: string; seconds: number; languages: Named[] }[] }> {
  if (reader === 'stats' && (await hiddenNames(db, userId)).includes(name)) throw unknownProject();
  const names = textArray(storedProjects(name));
  const found = await preparedRows<{ date: string; language: string; millis: number }>(db, daysStatement({ user: userId, ...range, names }));
  if (found.length === 0 && !(await hasProject(db, userId, name))) throw unknownProject();
  const byDate = new Map<string, Map<string, number>>();
  for (const r of found) {
    let languages = byDate.get(r.date);
    if (!languages) byDate.set(r.date, (languages = new Map()));
    add(languages, r.language, Number(r.millis));
  }
  const days = [...byDate]
    .map(([date, languages]) => ({ date, seconds: Math.round([...languages.values()].reduce((s, m) => s + m, 0) / 1000), languages: ranked(languages) }))
    .filter((d) => d.seconds > 0);
  return { project: name, days };
}
