import { asc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { config } from '../config';
import { rows, type Db } from '../db/client';
import { plans, users } from '../db/schema';
import { addDays } from '../dates';
import { ApiError } from '../http/problem';

// What a user's plan allows. Every limit a plan record carries is enforced here and nowhere else
// decides it: api_tokens and badges where they are made (lib/accounts/tokens.ts,
// lib/badges/store.ts), team_members and private_leaderboards where teams and private
// leaderboards are made or joined (their code calls assertWithin), history_days where a user's
// figures are read (historyStart, clampToHistory). A downgrade removes nothing: what is over a
// limit stays, only making more is refused, and history older than the window is kept and shows
// again when the plan allows it.
//
// Plans are the operator's choice (PLANS=on). Unset, as on a default install, no plan limits
// anything: effectiveLimits reads every record as the unlimited one (all of the history, only
// HARD_CAPS), whatever plan a user has stored, and the plan list is this install's one offer
// (lib/plans/index.ts). Stored plans are kept and apply as soon as plans are turned on.

export const limitNames = ['api_tokens', 'badges', 'history_days', 'team_members', 'private_leaderboards'] as const;
export type LimitName = (typeof limitNames)[number];
/** The limits that bound how many of a thing a user holds (history_days bounds reads instead). */
export type CountedLimit = Exclude<LimitName, 'history_days'>;
/** One number per limit; null: unlimited. */
export type Limits = Record<LimitName, number | null>;

/**
 * Bounds no plan can lift, whatever its record says (an unlimited plan included): every token has
 * its own write budget, every badge its own cached images, every team member and board a share of
 * the statements that read them, so their number stays bounded for everyone.
 */
export const HARD_CAPS: Record<CountedLimit, number> = { api_tokens: 20, badges: 50, team_members: 1000, private_leaderboards: 50 };

/** Teams one user may own (make, or be handed), whatever the plan: no plan counts teams, but nothing is unbounded. */
export const MAX_TEAMS_OWNED = 20;

/** The plan the service falls back on: the default of users.plan_id. */
export const DEFAULT_PLAN_ID = 'free';

/** Whether this install sells plans (PLANS=on): only then does a plan limit anything. */
export function plansOn(): boolean {
  return config().PLANS;
}

/** No limit but the hard caps: what every account has while plans are off. */
const NO_PLAN_LIMITS: Record<LimitName, null> = Object.fromEntries(limitNames.map((n) => [n, null])) as Record<LimitName, null>;

/**
 * What every account is while plans are off, as a plan: its limits are the hard caps, its id
 * names no stored plan (a user's stored plan is kept for when plans are turned on).
 */
export const INSTALL_PLAN = { id: 'self-hosted', name: 'Self-hosted' } as const;

/**
 * A stored limits record as enforced on this install: with plans on, each of the five, a missing
 * or malformed one read as 0 (nothing is ever allowed by accident), unlimited ones bounded by
 * HARD_CAPS; with plans off, every record as the unlimited one (all of history, HARD_CAPS).
 */
export function effectiveLimits(stored: Record<string, unknown>): Limits {
  return recordLimits(plansOn() ? stored : NO_PLAN_LIMITS);
}

/** A stored limits record as its plan enforces it while plans are on. */
function recordLimits(stored: Record<string, unknown>): Limits {
  const out = {} as Limits;
  for (const name of limitNames) {
    const v = stored[name];
    const value = v === null ? null : typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
    const cap = name === 'history_days' ? undefined : HARD_CAPS[name];
    out[name] = cap === undefined ? value : value === null ? cap : Math.min(value, cap);
  }
  return out;
}

export interface UserPlan {
  id: string;
  name: string;
  limits: Limits;
}

/** The user's plan with its limits as enforced (with plans off, INSTALL_PLAN). */
export async function planOf(db: Db, userId: string): Promise<UserPlan> {
  const [row] = await db
    .select({ id: plans.id, name: plans.name, limits: plans.limits })
    .from(users)
    .innerJoin(plans, eq(plans.id, users.planId))
    .where(eq(users.id, userId));
  if (!row) throw new ApiError('not_found', 'This account no longer exists.');
  if (!plansOn()) return { ...INSTALL_PLAN, limits: effectiveLimits(row.limits) };
  return { id: row.id, name: row.name, limits: effectiveLimits(row.limits) };
}

/**
 * The limits of the user's plan (null: unlimited). With plans off, null for every one: no plan
 * limits anything then, and only HARD_CAPS (checked by assertWithin) bound what is made.
 */
export async function limitsOf(db: Db, userId: string): Promise<Limits> {
  const limits = (await planOf(db, userId)).limits;
  return plansOn() ? limits : { ...NO_PLAN_LIMITS };
}

const nouns: Record<LimitName, [string, string]> = {
  api_tokens: ['API token', 'API tokens'],
  badges: ['badge', 'badges'],
  history_days: ['day of history', 'days of history'],
  team_members: ['team member', 'team members'],
  private_leaderboards: ['private leaderboard', 'private leaderboards'],
};

/** "5 API tokens", "1 badge", "unlimited badges". */
export function limitPhrase(limit: LimitName, value: number | null): string {
  const [one, many] = nouns[limit];
  return value === null ? `unlimited ${many}` : `${value} ${value === 1 ? one : many}`;
}

/** The first listed plan (in display order) that allows more than `beyond` of a limit, if any. */
async function planThatLifts(db: Db, limit: LimitName, beyond: number): Promise<UserPlan | undefined> {
  const listed = await db.select({ id: plans.id, name: plans.name, limits: plans.limits }).from(plans).where(eq(plans.listed, true)).orderBy(asc(plans.position), asc(plans.id));
  return listed
    .map((p) => ({ ...p, limits: effectiveLimits(p.limits) }))
    .find((p) => {
      const v = p.limits[limit];
      return v === null || v > beyond;
    });
}

/**
 * Throws 403 `plan_limit` when the user, holding `countNow` of a thing, may not have one more:
 * the detail names the plan and the listed plan that allows more, `errors` the limit.
 *
 * For the code that makes things a plan bounds (API tokens, badges, teams' members,
 * private leaderboards): call it with the count held now, inside the transaction that makes the
 * thing and after locking a row every such request for the user locks too (the user's row:
 * `SELECT ... FROM users WHERE id = $1 FOR UPDATE`), so two requests at once cannot both pass.
 * For `team_members`, `userId` is the team's first owner and `countNow` the team's members (the
 * owner included); for `private_leaderboards`, the leaderboards the user has made. `whose` names
 * the thing whose limit it is when the plan is not the caller's own ("This team"): the detail then
 * names neither the plan nor the plans that lift it.
 */
export async function assertWithin(db: Db, userId: string, limit: CountedLimit, countNow: number, whose?: string): Promise<void> {
  const plan = await planOf(db, userId);
  const allowed = plan.limits[limit];
  if (allowed === null || countNow < allowed) return;
  // Plans off: what stops it is the server's own bound, which no plan would lift.
  if (!plansOn()) {
    const detail = whose === undefined ? `This server allows ${limitPhrase(limit, allowed)} an account, the most it keeps for anyone.` : `${whose} has ${limitPhrase(limit, allowed)}, the most this server allows.`;
    throw new ApiError('plan_limit', detail, { errors: [{ path: limit, code: 'plan_limit', message: `at most ${allowed} on this server` }] });
  }
  // Another's plan (a team's owner's) is not named to the caller: only that it is full.
  if (whose !== undefined) throw new ApiError('plan_limit', `${whose} allows ${limitPhrase(limit, allowed)}, and has them: its owner's plan would have to allow more.`, { errors: [{ path: limit, code: 'plan_limit', message: `at most ${allowed}` }] });
  const lifts = await planThatLifts(db, limit, allowed);
  const more = lifts ? ` the ${lifts.name} plan allows ${lifts.limits[limit] === null ? `unlimited ${nouns[limit][1]}` : lifts.limits[limit]}.` : ' no plan allows more.';
  const detail = `Your plan (${plan.name}) allows ${limitPhrase(limit, allowed)};${more}`;
  throw new ApiError('plan_limit', detail, {
    errors: [{ path: limit, code: 'plan_limit', message: `at most ${allowed} on the ${plan.name} plan${lifts ? `; ${lifts.id} allows more` : ''}` }],
  });
}

/** From this many days on (some 270 years) a window is all of history, in SQL as in dates. */
const LONGEST_WINDOW = 100_000;

/** The first date `history_days` lets a user see, given their today; null: all of it. */
export function historyFloor(historyDays: number | null, today: string): string | null {
  return historyDays === null || historyDays >= LONGEST_WINDOW ? null : addDays(today, 1 - Math.max(historyDays, 1));
}

/**
 * historyFloor in SQL, for one statement over many users (a team's or a private leaderboard's
 * members), each with their own plan: the first date the plan whose stored limits are `limits`
 * shows a user in `timeZone`, their today being the transaction's; '-infinity' when it shows all.
 * Reads the record as effectiveLimits does (a missing or malformed history_days: today only;
 * with plans off, every record: all of it).
 */
export function historyFloorSql(limits: SQLWrapper, timeZone: SQLWrapper): SQL<string> {
  if (!plansOn()) return sql<string>`'-infinity'::date`;
  const days = sql`(${limits} -> 'history_days')`;
  const number = sql`CASE WHEN jsonb_typeof(${days}) = 'number' THEN floor(${days}::numeric) END`;
  return sql<string>`CASE WHEN jsonb_typeof(${days}) = 'null' OR ${number} >= ${sql.raw(String(LONGEST_WINDOW))} THEN '-infinity'::date
    ELSE (now() AT TIME ZONE ${timeZone})::date + 1 - greatest(coalesce(${number}, 0), 1)::int END`;
}

/** The history_days of the user's plan (null: unlimited). One primary-key read. */
export async function historyDaysOf(db: Db, userId: string): Promise<number | null> {
  const [row] = await rows<{ limits: Record<string, unknown> }>(
    db,
    sql`SELECT p.limits FROM ${users} u JOIN ${plans} p ON p.id = u.plan_id WHERE u.id = ${userId}::uuid`,
  );
  return row ? effectiveLimits(row.limits).history_days : 0;
}

/** The first date the user's plan shows them (and everyone), given their today; null: all. */
export async function historyStart(db: Db, userId: string, today: string): Promise<string | null> {
  return historyFloor(await historyDaysOf(db, userId), today);
}

/**
 * A date range cut to the plan's window: `from` no earlier than the floor. A range wholly before
 * the window comes back with from after to, which every read takes as no dates at all.
 */
export function clampToHistory<R extends { from: string; to: string }>(range: R, floor: string | null): R {
  return floor !== null && range.from < floor ? { ...range, from: floor } : range;
}
