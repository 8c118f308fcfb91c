import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// Relays (lib/wakatime/relaying/): the user's old service (WakaTime, Wakapi, Hackatime, another
// Codetally) kept in step, and the heartbeats waiting to be forwarded to it (decision 0036).

/** One service a user's heartbeats are forwarded to. At most 3 a user (lib/wakatime/relaying/relays.ts). */
export const relays = pgTable(
  'relays',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The service's WakaTime-compatible base, without a trailing slash (`https://wakatime.com/api/v1`). */
    apiUrl: text('api_url').notNull(),
    /** The service's key, sealed under a key derived from AUTH_SECRET and bound to this row's id (lib/wakatime/relaying/sealed.ts). */
    keySealed: text('key_sealed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    /** What went wrong last, in words for the owner (never the key); null after a success. */
    lastError: text('last_error'),
    /** Failed attempts on `failures_day` (UTC); the 100th pauses the relay. */
    failuresToday: integer('failures_today').notNull().default(0),
    failuresDay: text('failures_day'),
    /** Failures since the last success: the backoff's step. */
    failuresInRow: integer('failures_in_row').notNull().default(0),
    /** Nothing is sent before this (backoff); null: at once. */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    /** Paused (after 100 failed attempts in a day) until its owner resumes it, and why. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    pausedReason: text('paused_reason'),
  },
  (t) => [index('relays_user_idx').on(t.userId)],
);

/**
 * Heartbeats waiting to be forwarded, one row per heartbeat and relay: the fields WakaTime's
 * clients send (the entity included: the relay is its owner's choice to send it on), the request's
 * User-Agent and X-Machine-Name. A row leaves when the relay's service accepted or refused it, or 24
 * hours after it was queued when it could not be delivered.
 */
export const relayQueue = pgTable(
  'relay_queue',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    relayId: uuid('relay_id')
      .notNull()
      .references(() => relays.id, { onDelete: 'cascade' }),
    heartbeat: jsonb('heartbeat').notNull(),
    userAgent: text('user_agent'),
    machine: text('machine'),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    /** Not taken before this: a sender's lease while it sends. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    index('relay_queue_relay_idx').on(t.relayId, t.id),
    index('relay_queue_queued_idx').on(t.queuedAt),
    check('relay_queue_attempts_check', sql`${t.attempts} >= 0`),
  ],
);
