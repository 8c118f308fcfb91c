import { eq } from 'drizzle-orm';
import { ConfigError } from '../config';
import type { Db } from '../db/client';
import { plans } from '../db/schema';
import { DEFAULT_PLAN_ID, effectiveLimits, plansOn } from './limits';

// What the plans do on this install, said where the install starts: the server's first lines.
// Plans off (the default): every account sees all of its history. PLANS=on: the plan new
// accounts start on (DEFAULT_PLAN, else free) and the history it shows.

/** The line the server prints at start; a DEFAULT_PLAN that names no plan is a configuration error. */
export async function defaultPlanLine(db: Db, configured: string | undefined): Promise<string> {
  const id = configured ?? DEFAULT_PLAN_ID;
  const [plan] = await db.select({ name: plans.name, limits: plans.limits }).from(plans).where(eq(plans.id, id));
  if (!plan) {
    const ids = (await db.select({ id: plans.id }).from(plans)).map((p) => p.id);
    throw new ConfigError(`DEFAULT_PLAN: no plan "${id}" (the plans: ${ids.join(', ')})`);
  }
  if (!plansOn()) return 'plans are off: every account sees all of its history, with no plan limit (PLANS=on sells plans)';
  const days = effectiveLimits(plan.limits as Record<string, unknown>).history_days;
  return days === null
    ? `plans are on: new accounts start on the ${plan.name} plan: all of their history shown`
    : `plans are on: new accounts start on the ${plan.name} plan: the last ${days} days of history shown (older activity is kept; npm run admin -- set-plan moves an account to a plan that shows more)`;
}
