import { eq } from 'drizzle-orm';
import { ConfigError } from '../config';
import type { Db } from '../db/client';
import { plans } from '../db/schema';
import { DEFAULT_PLAN_ID, effectiveLimits } from './limits';

// The plan new accounts start on (DEFAULT_PLAN, else free), said where the install starts: the
// server's first lines. Free shows a year of history; on a server of one's own, one setting shows
// every account all of it.

/** The line the server prints at start; a DEFAULT_PLAN that names no plan is a configuration error. */
export async function defaultPlanLine(db: Db, configured: string | undefined): Promise<string> {
  const id = configured ?? DEFAULT_PLAN_ID;
  const [plan] = await db.select({ name: plans.name, limits: plans.limits }).from(plans).where(eq(plans.id, id));
  if (!plan) {
    const ids = (await db.select({ id: plans.id }).from(plans)).map((p) => p.id);
    throw new ConfigError(`DEFAULT_PLAN: no plan "${id}" (the plans: ${ids.join(', ')})`);
  }
  const days = effectiveLimits(plan.limits as Record<string, unknown>).history_days;
  return days === null
    ? `new accounts start on the ${plan.name} plan: all of their history shown`
    : `new accounts start on the ${plan.name} plan: the last ${days} days of history shown (older activity is kept); on your own server, DEFAULT_PLAN=pro shows every new account all of it (npm run admin -- set-plan moves an existing one)`;
}
