import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// Coding goals (lib/figures/goals.ts): the owner's own, never shown publicly.

/** "Code this long per day or ISO week", optionally in one language and/or project. At most 20 a user. */
export const goals = pgTable(
  'goals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** day or week. */
    period: text('period').notNull(),
    seconds: integer('seconds').notNull(),
    language: text('language'),
    project: text('project'),
    /** As the owner gave it; null: one is made from the goal when shown. */
    title: text('title'),
    /** A day goal: Saturdays and Sundays are neither met nor missed; a week goal: their time does not count. */
    ignoreWeekends: boolean('ignore_weekends').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('goals_user_idx').on(t.userId, t.createdAt),
    check('goals_period_check', sql`${t.period} IN ('day', 'week')`),
    check('goals_seconds_check', sql`${t.seconds} > 0`),
  ],
);
