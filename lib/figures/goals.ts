import { and, asc, count, eq, sql } from 'drizzle-orm';
import { HOUR_CAP_MILLIS } from '../activity';
import { addDays, isoWeekday, isoWeekStart } from '../dates';
import { rows, type Db } from '../db/client';
import { goals, ideActivity, userDayLanguages, userDays, userHours, users } from '../db/schema';
import { ApiError } from '../http/problem';
import { isUuid } from '../ids';
import { localDateHour } from '../local-time';
import { earliestDate } from '../stats/queries';
import { historyStart } from '../plans/limits';
import { hiddenNames, type ProjectReader } from '../projects/read';
import { durationText } from '../wakatime/reading/summaries';
import { MAX_GOALS_PER_USER, secondsProblem, type CreateGoalInput, type GoalPeriod, type UpdateGoalInput } from './schemas';

// Coding goals (/me/goals and WakaTime's /users/current/goals): "this long per day or ISO week",
// optionally in one language and/or project (matched regardless of case). Periods are the owner's
// local dates and ISO weeks (Monday first), as the buckets' dates already are. Time counts as
// everywhere, each hour capped at 3600 s (a language's or project's share of an hour over the cap
// scaled down in proportion). Goals are judged on every past period too, as WakaTime does: a goal
// made today can already have a streak. A goal that ignores weekends (Saturday and Sunday of the
// owner's local dates): a day goal neither meets nor misses them, and its streak steps over them;
// a week goal counts no time on them. A goal names only a language or project the owner has time
// in, spelled as their time spells it.

export type GoalRow = typeof goals.$inferSelect;

export interface Judged {
  goal: GoalRow;
  period: GoalPeriod;
  /** The title the owner sees (the dashboard, the weekly mail): their own, or one made from the goal. */
  title: string;
  /** The goal as each reader may see it (seenBy). */
  seen: Record<ProjectReader, Seen>;
  /** Period start -> capped millis, from the oldest period read to the current one. */
  actual: (periodStart: string) => number;
  /** The current period's start, and the period starts back from it, newest first. */
  current: string;
  back: (periodStart: string, n: number) => string;
  /** Whether a period is neither met nor missed (a weekend day of a day goal that ignores weekends). */
  ignored: (periodStart: string) => boolean;
  streak: number;
}

/**
 * A goal as one reader sees it: `project`, the name it filters on (null: none, or, to a `stats`
 * key, a hidden one), `title`, and `customTitle`, the owner's own title when this reader may see it.
 */
export interface Seen {
  project: string | null;
  title: string;
  customTitle: string | null;
}

/** How a goal names a project the owner hides (lib/projects/hidden.ts): the name shows only on the project list. */
export const HIDDEN_PROJECT = 'a hidden project';

/** Whether `project` is one of the owner's hidden ones (a goal matches its project regardless of case). */
const isHidden = (project: string, hidden: readonly string[]) => hidden.some((h) => h.toLowerCase() === project.toLowerCase());

/** Whether free text (a goal's own title) holds a hidden project's name, in any case. */
const namesHidden = (text: string, hidden: readonly string[]) => hidden.some((h) => text.toLowerCase().includes(h.toLowerCase()));

/** The title made from the goal, its project as shown ("Code 1 hr per day in Go on a hidden project"). */
export function goalTitle(g: Pick<GoalRow, 'period' | 'seconds' | 'language'>, project: string | null): string {
  return `Code ${durationText(g.seconds)} per ${g.period}${g.language ? ` in ${g.language}` : ''}${project ? ` on ${project}` : ''}`;
}

/**
 * The goal as each reader sees it (decision 0031). Every title says "a hidden project" where the
 * goal's project is hidden. The owner (the session, an `account` token) reads the project's name
 * and their own title as stored. A `stats` key (README Actions, WakaTime's tools, and every
 * WakaTime-shaped read) reads no hidden name: `project` null, and the made-up title in place of the
 * owner's own when the goal is on a hidden project or that title holds a hidden name, since free
 * text written for the owner may well name it.
 */
function seenBy(goal: GoalRow, hidden: readonly string[]): Record<ProjectReader, Seen> {
  const onHidden = goal.project !== null && isHidden(goal.project, hidden);
  const made = goalTitle(goal, onHidden ? HIDDEN_PROJECT : goal.project);
  const ownTitle = goal.title && !onHidden && !namesHidden(goal.title, hidden) ? goal.title : null;
  return {
    owner: { project: goal.project, title: goal.title || made, customTitle: goal.title || null },
    stats: { project: onHidden ? null : goal.project, title: ownTitle ?? made, customTitle: ownTitle },
  };
}

/** Saturday or Sunday (ISO weekdays 5 and 6) of a local date. */
const isWeekend = (date: string) => isoWeekday(date) >= 5;

const periodStart = (period: GoalPeriod, date: string) => (period === 'week' ? isoWeekStart(date) : date);
const step = (period: GoalPeriod) => (period === 'week' ? 7 : 1);

/** Capped time per date (and language and project, lower-cased, when some goal needs them) from `from` to `to`. */
async function cappedDays(db: Db, userId: string, from: string, to: string, by: { language: boolean; project: boolean }) {
  const [a, h, d] = [ideActivity, userHours, userDays];
  if (!by.language && !by.project) {
    // Whole days only: user_days holds them capped already (a few rows, where the buckets are many).
    const days = await rows<{ date: string; millis: number }>(
      db,
      sql`SELECT to_char(${d.date}, 'YYYY-MM-DD') AS date, ${d.millis}::float8 AS millis FROM ${d}
          WHERE ${d.userId} = ${userId}::uuid AND ${d.date} BETWEEN ${from} AND ${to}`,
    );
    return days.map((r) => ({ date: r.date, language: '', project: '', millis: Number(r.millis) }));
  }
  const language = by.language ? sql`lower(${a.language})` : sql`''`;
  const project = by.project ? sql`lower(${a.project})` : sql`''`;
  const found = await rows<{ date: string; language: string; project: string; millis: number }>(
    db,
    sql`SELECT to_char(${a.date}, 'YYYY-MM-DD') AS date, ${language} AS language, ${project} AS project,
               sum(${a.millis} * least(1, ${HOUR_CAP_MILLIS}::float8 / nullif(${h.millis}, 0)))::float8 AS millis
        FROM ${a} JOIN ${h} ON ${h.userId} = ${a.userId} AND ${h.date} = ${a.date} AND ${h.hour} = ${a.hour}
        WHERE ${a.userId} = ${userId}::uuid AND ${a.date} BETWEEN ${from} AND ${to}
        GROUP BY 1, 2, 3`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis) }));
}

/** How many periods the dashboard's history of a goal shows (WakaTime's chart_data shows 7). */
export const HISTORY_PERIODS: Record<GoalPeriod, number> = { day: 14, week: 12 };

/** How many days back the first read goes: enough for the longest history (12 weeks) and most streaks. */
const FIRST_WINDOW_DAYS = HISTORY_PERIODS.week * 7;

/**
 * Each goal with its time per period and its streak. Reads a window of days back from today; a
 * streak that reaches the window's start makes the window four times longer, until the streaks
 * end inside it or it holds the earliest data.
 */
export async function judgeGoals(db: Db, user: { id: string; timezone: string }, list: GoalRow[], now = new Date()): Promise<Judged[]> {
  if (list.length === 0) return [];
  const today = localDateHour(user.timezone, now).date;
  const by = { language: list.some((g) => g.language !== null), project: list.some((g) => g.project !== null) };
  // Streaks count no day before the plan's window of history (lib/plans/history.ts).
  const floor = await historyStart(db, user.id, today);
  // The hidden names matter to a goal on a project, and to an owner's title that may name one.
  const hidden = by.project || list.some((g) => g.title !== null) ? await hiddenNames(db, user.id) : [];
  let earliest: string | undefined;
  for (let days = FIRST_WINDOW_DAYS; ; days *= 4) {
    const week = isoWeekStart(addDays(today, -days));
    const from = floor !== null && week < floor ? floor : week;
    const found = await cappedDays(db, user.id, from, today, by);
    const judged = list.map((goal) => judge(goal, seenBy(goal, hidden), found, from, today));
    if (judged.every((j) => !j.reachesStart)) return judged.map((j) => j.judged);
    earliest ??= (await earliestDate(db, { userId: user.id })) ?? today;
    if (from <= earliest || from === floor) return judged.map((j) => j.judged);
  }
}

function judge(goal: GoalRow, seen: Record<ProjectReader, Seen>, found: { date: string; language: string; project: string; millis: number }[], from: string, today: string) {
  const period = goal.period as GoalPeriod;
  const language = goal.language?.toLowerCase();
  const project = goal.project?.toLowerCase();
  // A week goal that ignores weekends counts none of their time; a day goal keeps it (shown, not judged).
  const weekdaysOnly = goal.ignoreWeekends && period === 'week';
  const sums = new Map<string, number>();
  for (const r of found) {
    if (language !== undefined && r.language !== language) continue;
    if (project !== undefined && r.project !== project) continue;
    if (weekdaysOnly && isWeekend(r.date)) continue;
    const p = periodStart(period, r.date);
    sums.set(p, (sums.get(p) ?? 0) + r.millis);
  }
  const actual = (p: string) => sums.get(p) ?? 0;
  const met = (p: string) => actual(p) >= goal.seconds * 1000;
  const ignored = (p: string) => goal.ignoreWeekends && period === 'day' && isWeekend(p);
  const current = periodStart(period, today);
  const back = (p: string, n: number) => addDays(p, -n * step(period));
  /** The period before `p` that is judged (an ignored weekend stepped over). */
  const before = (p: string) => {
    let q = back(p, 1);
    while (ignored(q)) q = back(q, 1);
    return q;
  };
  // The current period counts once met (and judged); before that, the streak ends with the one before.
  let streak = 0;
  let p = met(current) && !ignored(current) ? current : before(current);
  for (; p >= from && met(p); p = before(p)) streak += 1;
  return { judged: { goal, period, title: seen.owner.title, seen, actual, current, back, ignored, streak } satisfies Judged, reachesStart: p < from && streak > 0 };
}

export type PeriodStatus = 'success' | 'fail' | 'pending';
/** A period's status in WakaTime's chart_data, where a day the goal ignores is listed as such. */
export type ChartStatus = PeriodStatus | 'ignored';

/** One period of a goal's history: its start, its time (capped millis) and how it went. */
/** One period of a goal's chart: WakaTime's chart_data entry, the dashboard's column. */
export interface ChartPeriod {
  start: string;
  millis: number;
  /** WakaTime's range_status: met; missed (a past period); not met yet (the current one); a day the goal ignores. */
  status: ChartStatus;
}

/** A period the goal judges. */
export interface PeriodResult extends ChartPeriod {
  status: PeriodStatus;
}

/** The goal's last `count` periods up to the current one, oldest first, those it ignores (weekend days) left out: the dashboard's history. */
export function goalHistory(j: Judged, count: number): PeriodResult[] {
  return periods(j, count).filter((p): p is PeriodResult => p.status !== 'ignored');
}

/**
 * The last `count` periods, the current one last, a day the goal ignores included as `ignored`
 * (WakaTime's chart_data lists it so, and its last entry is always the current period).
 */
export function periods(j: Judged, count: number): ChartPeriod[] {
  const out: ChartPeriod[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const start = j.back(j.current, i);
    const millis = j.actual(start);
    const status: ChartStatus = j.ignored(start) ? 'ignored' : millis >= j.goal.seconds * 1000 ? 'success' : start === j.current ? 'pending' : 'fail';
    out.push({ start, millis, status });
  }
  return out;
}

/** A goal as /me/goals shows it to `reader`. */
export function goalDto(j: Judged, reader: ProjectReader) {
  const actual = Math.round(j.actual(j.current) / 1000);
  const { project, title } = j.seen[reader];
  const ignored = j.ignored(j.current);
  return {
    id: j.goal.id,
    period: j.period,
    seconds: j.goal.seconds,
    language: j.goal.language,
    project,
    title,
    ignore_weekends: j.goal.ignoreWeekends,
    progress: { period_start: j.current, actual_seconds: actual, done: !ignored && j.actual(j.current) >= j.goal.seconds * 1000, ignored },
    streak_periods: j.streak,
  };
}

export async function listGoals(db: Db, userId: string): Promise<GoalRow[]> {
  return db.select().from(goals).where(eq(goals.userId, userId)).orderBy(asc(goals.createdAt), asc(goals.id));
}

const noSuchGoal = () => new ApiError('not_found', 'No such goal.');

/** One of the owner's goals; another user's, or none, is not found. */
export async function findGoal(db: Db, userId: string, id: string): Promise<GoalRow> {
  if (!isUuid(id)) throw noSuchGoal();
  const [row] = await db.select().from(goals).where(and(eq(goals.id, id), eq(goals.userId, userId)));
  if (!row) throw noSuchGoal();
  return row;
}

const unknownName = (field: 'language' | 'project') =>
  new ApiError('invalid_payload', 'The request body is not valid.', {
    errors: [{ path: field, code: `unknown_${field}`, message: field === 'language' ? 'language: you have no time in this language yet' : 'project: you have no time on this project yet' }],
  });

/**
 * The owner's own spelling of a language or project they have time in, matched regardless of case
 * (the exact spelling first, else the one with the most time); a name they have no time in is
 * refused (422 naming the field). Languages are read from their per-day rollup, projects from the
 * buckets (imports are stored as buckets too).
 */
async function storedName(db: Db, userId: string, field: 'language' | 'project', name: string): Promise<string> {
  const [t, column] = field === 'language' ? [userDayLanguages, userDayLanguages.language] : [ideActivity, ideActivity.project];
  const [found] = await rows<{ name: string }>(
    db,
    sql`SELECT ${column} AS name FROM ${t}
        WHERE ${t.userId} = ${userId}::uuid AND lower(${column}) = lower(${name}) AND ${t.millis} > 0
        GROUP BY ${column} ORDER BY (${column} = ${name}) DESC, sum(${t.millis}) DESC LIMIT 1`,
  );
  if (!found) throw unknownName(field);
  return found.name;
}

/** A goal's language and project as stored: the owner's spelling of names they have time in (null stays null). */
async function namesOf(db: Db, userId: string, input: { language?: string | null; project?: string | null }) {
  return {
    ...(typeof input.language === 'string' && { language: await storedName(db, userId, 'language', input.language) }),
    ...(typeof input.project === 'string' && { project: await storedName(db, userId, 'project', input.project) }),
  };
}

/** Creates a goal; the 21st is refused (422, too_many_goals), counted under the user's row lock so two at once cannot pass it. */
export async function createGoal(db: Db, userId: string, input: CreateGoalInput): Promise<GoalRow> {
  const names = await namesOf(db, userId, input);
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [{ n }] = await tx.select({ n: count() }).from(goals).where(eq(goals.userId, userId));
    if (n >= MAX_GOALS_PER_USER) {
      throw new ApiError('invalid_payload', `A user may have at most ${MAX_GOALS_PER_USER} goals.`, {
        errors: [{ path: '', code: 'too_many_goals', message: `delete a goal first: at most ${MAX_GOALS_PER_USER}` }],
      });
    }
    const [row] = await tx
      .insert(goals)
      .values({
        userId,
        period: input.period,
        seconds: input.seconds,
        language: names.language ?? null,
        project: names.project ?? null,
        title: input.title ?? null,
        ignoreWeekends: input.ignore_weekends ?? false,
      })
      .returning();
    return row;
  });
}

/**
 * Changes any of a goal's fields (null clears language, project or title); the goal as it will be
 * stored is checked as a new one is (seconds within the period, names the owner has time in).
 * The goal's row is locked while it is checked, so two changes at once (one of the period, one of
 * the seconds) cannot together store a goal neither would pass. Another user's goal, or none, is
 * not found.
 */
export async function updateGoal(db: Db, userId: string, id: string, input: UpdateGoalInput): Promise<GoalRow> {
  if (!isUuid(id)) throw noSuchGoal();
  return db.transaction(async (tx) => {
    const [now] = await tx.select().from(goals).where(and(eq(goals.id, id), eq(goals.userId, userId))).for('update');
    if (!now) throw noSuchGoal();
    const period = input.period ?? (now.period as GoalPeriod);
    const seconds = input.seconds ?? now.seconds;
    const problem = secondsProblem({ period, seconds });
    if (problem) throw new ApiError('invalid_payload', 'The request body is not valid.', { errors: [{ path: 'seconds', code: 'too_big', message: `seconds: ${problem}` }] });
    // Only a name the request changes is checked against the owner's time: one the goal already
    // holds (set before the rule, or before its time was split off) stands as it is.
    const names = await namesOf(tx, userId, {
      language: input.language === now.language ? undefined : input.language,
      project: input.project === now.project ? undefined : input.project,
    });
    const [row] = await tx
      .update(goals)
      .set({
        period,
        seconds,
        ...(input.language !== undefined && { language: names.language ?? input.language }),
        ...(input.project !== undefined && { project: names.project ?? input.project }),
        ...(input.title !== undefined && { title: input.title }),
        ...(input.ignore_weekends !== undefined && { ignoreWeekends: input.ignore_weekends }),
      })
      .where(eq(goals.id, id))
      .returning();
    return row;
  });
}

export async function deleteGoal(db: Db, userId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw noSuchGoal();
  const gone = await db.delete(goals).where(and(eq(goals.id, id), eq(goals.userId, userId))).returning({ id: goals.id });
  if (gone.length === 0) throw noSuchGoal();
}

/** GET /me/goals: every goal with its progress, as `reader` may see it (the dashboard is the owner). */
export async function ownGoals(db: Db, user: { id: string; timezone: string }, reader: ProjectReader = 'owner') {
  return { goals: (await judgeGoals(db, user, await listGoals(db, user.id))).map((j) => goalDto(j, reader)) };
}

/**
 * The dashboard's Goals page: each goal as the owner reads it (ownGoals' fields), with its own
 * title as stored (null: made from the goal) and its history: the last HISTORY_PERIODS periods,
 * judged as WakaTime's chart_data judges them (goalHistory).
 */
export async function ownGoalsWithHistory(db: Db, user: { id: string; timezone: string }) {
  return (await judgeGoals(db, user, await listGoals(db, user.id))).map((j) => ({
    ...goalDto(j, 'owner'),
    custom_title: j.goal.title,
    history: goalHistory(j, HISTORY_PERIODS[j.period]).map((p) => ({ start: p.start, seconds: Math.round(p.millis / 1000), status: p.status })),
  }));
}
