import { boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';

// The plans of the pricing page.

/** Subscription plans for the pricing page; only `listed` ones are public. */
export const plans = pgTable('plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  /** Minor units (cents). */
  priceAmount: integer('price_amount').notNull(),
  currency: text('currency').notNull(),
  /** 'month', 'year', or NULL for a free plan. */
  interval: text('interval'),
  features: jsonb('features').$type<string[]>().notNull(),
  limits: jsonb('limits').$type<Record<string, number | boolean | null>>().notNull(),
  highlighted: boolean('highlighted').notNull().default(false),
  listed: boolean('listed').notNull().default(true),
  position: integer('position').notNull(),
});
