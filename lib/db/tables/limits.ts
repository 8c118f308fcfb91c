import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apiTokens, users } from './accounts';

// Counters in fixed windows, shared by every server process: write and read rates and attempts at secrets.

/** A counter in a fixed window (lib/http/rate-limit.ts, lib/auth/attempts.ts): when it began, and the count in it. */
const windowCounter = () => ({
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/** One fixed one-minute window per token, shared by every server process. */
export const rateLimits = pgTable('rate_limits', {
  tokenId: uuid('token_id')
    .primaryKey()
    .references(() => apiTokens.id, { onDelete: 'cascade' }),
  ...windowCounter(),
});

/** One fixed one-minute window per user, over all the user's tokens. */
export const userRateLimits = pgTable('user_rate_limits', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  ...windowCounter(),
});

/**
 * The read budgets' counters (lib/http/rate-limit.ts), apart from the write ones so that reads
 * never spend what a plugin needs to write, and the other way round: one window per token...
 */
export const readRateLimits = pgTable('read_rate_limits', {
  tokenId: uuid('token_id')
    .primaryKey()
    .references(() => apiTokens.id, { onDelete: 'cascade' }),
  ...windowCounter(),
});

/** ...and one per user, over all the user's tokens and sessions. */
export const userReadRateLimits = pgTable('user_read_rate_limits', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  ...windowCounter(),
});

/**
 * Attempts at guessing a secret (password sign-in, the admin token) and sign-ups, counted per
 * account and per client address in fixed windows, shared by every server process. The key is
 * a hash: no email or address is stored.
 */
export const authAttempts = pgTable('auth_attempts', {
  key: text('key').primaryKey(),
  ...windowCounter(),
});
