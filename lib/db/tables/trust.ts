import { sql } from 'drizzle-orm';
import { bigint, bigserial, date, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// Leaderboards people can trust (lib/leaderboards/trust/): the signals found in what is already
// kept, and what operators did. Handles, days and figures only: never an address, an email or a
// User-Agent (docs/decisions/0035-signals-and-hides.md).

/**
 * A signal raised for one user on one day (the user's own date for hours, UTC for heartbeats,
 * machines and intervals). `detail` is the figure that raised it ("23.1 h", "4 machines at 14:00").
 */
export const trustFlags = pgTable(
  'trust_flags',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    signal: text('signal').notNull(),
    day: date('day').notNull(),
    detail: text('detail').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.signal, t.day] }), index('trust_flags_seen_idx').on(t.firstSeenAt)],
);

/** The stats version of each user at their last scan for signals: a scan reads only who wrote since. */
export const trustScans = pgTable('trust_scans', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  statsVersion: bigint('stats_version', { mode: 'number' }).notNull(),
});

/**
 * Every operator action. Handles, not ids: the record outlives an account. `operator` is the
 * operator's handle, or `admin-token` for the holder of ADMIN_TOKEN, or `automatic`.
 */
export const operatorAudit = pgTable(
  'operator_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    operator: text('operator').notNull(),
    action: text('action').notNull(),
    handle: text('handle'),
    reason: text('reason'),
    until: timestamp('until', { withTimezone: true }),
  },
  (t) => [index('operator_audit_handle_idx').on(sql`lower(${t.handle})`, t.id)],
);
