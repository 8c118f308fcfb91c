import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { handleTag } from '../cache/tags';
import { usersChanged } from '../db/changes';
import { rows, type Db } from '../db/client';
import { apiTokens, badges, plans, privateLeaderboards, teamMembers, users } from '../db/schema';
import { ApiError } from '../http/problem';
import { isHandle } from '../ids';
import { checkedText } from '../text';
import { limitNames, planOf, type LimitName, type Limits } from './limits';

// A user's plan as its owner reads it (GET /me, the dashboard), and an operator's change of it
// (PATCH /admin/users/{handle}, the admin CLI's set-plan). Checkout is not here: a payment
// provider's webhook, forwarded by the operator's own script, calls the admin route (docs/running.md, Plans).

const limitValue = z.number().int().nullable();
const perLimit = <T extends z.ZodType>(t: T) => z.object(Object.fromEntries(limitNames.map((n) => [n, t])) as Record<LimitName, T>);

export const accountPlanSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    limits: perLimit(limitValue).meta({ description: 'What the plan allows; null: unlimited (see PlanLimits).' }),
    usage: perLimit(z.number().int().nullable()).meta({
      description:
        'What is used of each limit now: live API tokens, badges, days of history shown (the window; null when unlimited). team_members: the members of the largest team whose first owner the user is; private_leaderboards: the private leaderboards the user made. A downgrade removes nothing, so usage may be over a limit: making more is then refused.',
    }),
  })
  .meta({ id: 'AccountPlan' });
export type AccountPlan = z.infer<typeof accountPlanSchema>;

/** Counters of what the user holds, one per counted limit (the tables only: no module of those things is imported). */
const counters: Record<Exclude<LimitName, 'history_days'>, (db: Db, userId: string) => Promise<number>> = {
  api_tokens: async (db, userId) =>
    (await db.select({ n: sql<number>`count(*)::int` }).from(apiTokens).where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt))))[0].n,
  badges: async (db, userId) => (await db.select({ n: sql<number>`count(*)::int` }).from(badges).where(eq(badges.userId, userId)))[0].n,
  // The largest team the user is the first owner of (whose plan bounds it: lib/teams/teams.ts).
  team_members: async (db, userId) =>
    (await rows<{ n: number }>(db, sql`SELECT coalesce(max(n), 0)::int AS n FROM (
        SELECT (SELECT count(*) FROM ${teamMembers} o WHERE o.team_id = f.team_id) AS n
        FROM (SELECT DISTINCT ON (team_id) team_id, user_id FROM ${teamMembers} WHERE role = 'owner' ORDER BY team_id, joined_at, user_id) AS f
        WHERE f.user_id = ${userId}::uuid) AS t`))[0].n,
  private_leaderboards: async (db, userId) =>
    (await db.select({ n: sql<number>`count(*)::int` }).from(privateLeaderboards).where(eq(privateLeaderboards.ownerId, userId)))[0].n,
};

/** The user's plan, its limits, and what is used of each. */
export async function accountPlan(db: Db, userId: string): Promise<AccountPlan> {
  const plan = await planOf(db, userId);
  const usage = {} as Record<LimitName, number | null>;
  await Promise.all(
    limitNames.map(async (name) => {
      usage[name] = name === 'history_days' ? plan.limits.history_days : await counters[name](db, userId);
    }),
  );
  return { id: plan.id, name: plan.name, limits: plan.limits as Limits, usage };
}

export const planIdSchema = checkedText(z.string().min(1).max(64), 'plan');
export const setPlanSchema = z.object({ plan: planIdSchema.meta({ description: 'The id of a plan (listed or not), e.g. free, pro, team.' }) }).strict().meta({ id: 'SetPlan' });

export const userPlanSchema = z
  .object({ handle: z.string(), plan: accountPlanSchema })
  .meta({ id: 'UserPlan' });

/**
 * Puts the user on the plan, at once: every limit of it applies to the next request on every
 * process (the user's figures are read anew: a longer window shows history kept all along, a
 * shorter one hides what is older). Nothing the user has is removed. 404 for an unknown handle,
 * 422 naming `plan` for an unknown plan.
 */
export async function setPlan(db: Db, handle: string, planId: string): Promise<{ handle: string; plan: AccountPlan }> {
  const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
  if (!plan) {
    throw new ApiError('invalid_payload', `No plan "${planId}".`, { errors: [{ path: 'plan', code: 'unknown_plan', message: `no plan with id "${planId}"` }] });
  }
  if (!isHandle(handle)) throw new ApiError('not_found', 'No user with that handle.');
  const [row] = await db
    .update(users)
    // A new stats version: every cached figure of the user (charts, badges, stats) is made again.
    .set({ planId: plan.id, statsVersion: sql`${users.statsVersion} + 1` })
    .where(sql`lower(${users.handle}) = lower(${handle})`)
    .returning({ id: users.id, handle: users.handle });
  if (!row) throw new ApiError('not_found', `No user with handle "${handle}".`);
  await usersChanged(db, [row.id], [handleTag(row.handle), handleTag(row.id)]);
  return { handle: row.handle, plan: await accountPlan(db, row.id) };
}
