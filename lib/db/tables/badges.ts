import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// Badges (lib/badges/).

/** A badge publishes exactly one figure of its owner: creating it is the owner's consent. */
export const badges = pgTable(
  'badges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    metric: text('metric').notNull(),
    range: text('range').notNull(),
    language: text('language'),
    label: text('label').notNull(),
    color: text('color').notNull(),
    style: text('style').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Bumped by POST /badges/{id}/refresh: cached images key on it. */
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('badges_user_idx').on(t.userId, t.createdAt)],
);
