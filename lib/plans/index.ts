import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { plans } from '../db/schema';
import { limitLines } from './features';
import { effectiveLimits, INSTALL_PLAN, limitNames, plansOn } from './limits';

// The plan list of the pricing page: public metadata only, no checkout. Each plan's limits are
// listed as they are enforced (lib/plans/limits.ts), and its features begin with what it has
// besides and end with its limits in words, made from the same limits.

export * from './limits';
export { limitLines } from './features';

const limitValue = z.number().int().nullable();
export const limitsSchema = z
  .object(Object.fromEntries(limitNames.map((n) => [n, limitValue])) as Record<(typeof limitNames)[number], typeof limitValue>)
  .meta({
    id: 'PlanLimits',
    description:
      'What the plan allows, each enforced; null: unlimited. api_tokens: live API tokens held at once; badges: badges held at once; history_days: days of history shown, ending today (older activity is kept, not shown, and shows again on a plan that allows it); team_members: members of a team the user owns, the owner included; private_leaderboards: private leaderboards the user has made. Passing a limit is a 403 `plan_limit`.',
  });

export const planSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    price: z.object({
      amount: z.number().int().meta({ description: 'Minor units (cents).' }),
      currency: z.string().meta({ description: 'ISO 4217.' }),
      interval: z.enum(['month', 'year']).nullable().meta({ description: 'null for a free plan.' }),
    }),
    features: z.array(z.string()).meta({ description: 'What the plan has, in words: the last lines are its limits, made from `limits`.' }),
    limits: limitsSchema,
    highlighted: z.boolean(),
  })
  .meta({ id: 'Plan' });

export const planListSchema = z.object({ plans: z.array(planSchema) }).meta({ id: 'PlanList' });

export type Plan = z.infer<typeof planSchema>;

/**
 * What this install offers while plans are off (no PLANS=on), as the list's one record: every
 * account has all of it, free, within the hard caps (its limits, as the list states every limit as
 * enforced). A client of the list reads it as it reads any plan; no price that cannot be paid.
 */
export function installPlan(): Plan {
  const limits = effectiveLimits({});
  return {
    ...INSTALL_PLAN,
    description: 'Everything this server has, for every account: all of your history, teams and private leaderboards, with no plan to choose.',
    price: { amount: 0, currency: 'USD', interval: null },
    features: ['Unlimited editors, languages and projects', 'Public profile, badges and leaderboard', 'Desktop app time', 'Export of all your data, any time', ...limitLines(limits)],
    limits,
    highlighted: false,
  };
}

/** Publicly listable plans in display order, built field by field; with plans off, installPlan alone. */
export async function listPublicPlans(db: Db): Promise<Plan[]> {
  if (!plansOn()) return [installPlan()];
  const rows = await db.select().from(plans).where(eq(plans.listed, true)).orderBy(asc(plans.position), asc(plans.id));
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    price: { amount: p.priceAmount, currency: p.currency, interval: p.interval as Plan['price']['interval'] },
    features: [...p.features, ...limitLines(effectiveLimits(p.limits))],
    limits: effectiveLimits(p.limits),
    highlighted: p.highlighted,
  }));
}
