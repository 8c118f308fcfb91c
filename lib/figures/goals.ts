import { and, asc, count, eq, sql } from 'drizzle-orm';
import { HOUR_CAP_MILLIS } from '../activity';
import { addDays, isoWeekStart } from '../dates';
import { rows, type Db } from '../db/client';
import { goals, ideActivity, userDays, userHours, users } from '../db/schema';
import { ApiError } from '../http/problem';
import { isUuid } from '../ids';
import { localDateHour } from '../local-time';
import { earliestDate } from '../stats/queries';
import { historyStart } from '../plans/limits';
import { hiddenNames, type ProjectReader } from '../projects/read';
import { durationText } from '../wakatime/summaries';
import { MAX_GOALS_PER_USER, type CreateGoalInput, type GoalPeriod } from './schemas';

// Coding goals (/me/goals and WakaTime's /users/current/goals): "this long per day or ISO week",
// optionally in one language and/or project (matched regardless of case). Periods are the owner's
// local dates and ISO weeks (Monday first), as the buckets' dates already are. Time counts as
// everywhere, each hour capped at 3600 s (a language's or project's share of an hour over the cap
// scaled down in proportion). Goals are judged on every past period too, as WakaTime does: a goal
// made today can already have a streak.

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

/** How many periods back the first read goes: enough for WakaTime's chart (7 periods) and most streaks. */
const FIRST_WINDOW_DAYS = 8 * 7;

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
  const sums = new Map<string, number>();
  for (const r of found) {
    if (language !== undefined && r.language !== language) continue;
    if (project !== undefined && r.project !== project) continue;
    const p = periodStart(period, r.date);
    sums.set(p, (sums.get(p) ?? 0) + r.millis);
  }
  const actual = (p: string) => sums.get(p) ?? 0;
  const met = (p: string) => actual(p) >= goal.seconds * 1000;
  const current = periodStart(period, today);
  const back = (p: string, n: number) => addDays(p, -n * step(period));
  // The current period counts once met; before that, the streak ends with the one before.
  let streak = 0;
  let p = met(current) ? current : back(current, 1);
  for (; p >= from && met(p); p = back(p, 1)) streak += 1;
  return { judged: { goal, period, title: seen.owner.title, seen, actual, current, back, streak } satisfies Judged, reachesStart: p < from && streak > 0 };
}

/** A goal as /me/goals shows it to `reader`. */
export function goalDto(j: Judged, reader: ProjectReader) {
  const actual = Math.round(j.actual(j.current) / 1000);
  const { project, title } = j.seen[reader];
  return {
    id: j.goal.id,
    period: j.period,
    seconds: j.goal.seconds,
    language: j.goal.language,
    project,
    title,
    progress: { period_start: j.current, actual_seconds: actual, done: j.actual(j.current) >= j.goal.seconds * 1000 },
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

/** Creates a goal; the 21st is refused (422, too_many_goals), counted under the user's row lock so two at once cannot pass it. */
export async function createGoal(db: Db, userId: string, input: CreateGoalInput): Promise<GoalRow> {
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
      .values({ userId, period: input.period, seconds: input.seconds, language: input.language ?? null, project: input.project ?? null, title: input.title ?? null })
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
