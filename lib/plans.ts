import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from './db/client';
import { plans } from './db/schema';

// The plan list of the pricing page: public metadata only, no checkout.

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
    features: z.array(z.string()),
    limits: z.record(z.string(), z.union([z.number(), z.boolean(), z.null()])).meta({
      description: 'Numeric limits; null means unlimited. history_days: days of history kept.',
    }),
    highlighted: z.boolean(),
  })
  .meta({ id: 'Plan' });

export const planListSchema = z.object({ plans: z.array(planSchema) }).meta({ id: 'PlanList' });

export type Plan = z.infer<typeof planSchema>;

/** Publicly listable plans in display order, built field by field. */
export async function listPublicPlans(db: Db): Promise<Plan[]> {
  const rows = await db.select().from(plans).where(eq(plans.listed, true)).orderBy(asc(plans.position), asc(plans.id));
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    price: { amount: p.priceAmount, currency: p.currency, interval: p.interval as Plan['price']['interval'] },
    features: p.features,
    limits: p.limits,
    highlighted: p.highlighted,
  }));
}
