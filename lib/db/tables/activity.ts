import { bigint, date, index, integer, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { hourOfDay, notNegative } from './checks';

// Activity as the sync routes store it (lib/ingest/store.ts): hourly buckets of IDE and desktop
// time, and the idempotency records of the writes.
//
// Activity tables are keyed by user first so they can be distributed by user_id.
// Empty string, not NULL, stands for "no project" / "no editor" so the key is a plain primary key.
// ide_activity alone has no foreign key to users: a key is checked row by row, a large share of
// storing a batch of new buckets (decision 0003). The statement that stores them also upserts the
// user's user_hours rows for the same date-hours, whose key check (and the users row it updates)
// refuses or waits for an account's deletion just the same; deleteAccount deletes the rows.
export const ideActivity = pgTable(
  'ide_activity',
  {
    userId: uuid('user_id').notNull(),
    date: date('date').notNull(),
    hour: smallint('hour').notNull(),
    language: text('language').notNull(),
    project: text('project').notNull().default(''),
    editor: text('editor').notNull().default(''),
    /** Time in milliseconds: integer sums stay exact however many uploads add to a bucket. */
    millis: bigint('millis', { mode: 'number' }).notNull(),
    lines: bigint('lines', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.date, t.hour, t.language, t.project, t.editor] }),
    hourOfDay('ide_activity', t.hour),
    notNegative('ide_activity', t.millis),
  ],
);

export const desktopActivity = pgTable(
  'desktop_activity',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date').notNull(),
    hour: smallint('hour').notNull(),
    platform: text('platform').notNull(),
    app: text('app').notNull(),
    millis: bigint('millis', { mode: 'number' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.date, t.hour, t.platform, t.app] }),
    hourOfDay('desktop_activity', t.hour),
    notNegative('desktop_activity', t.millis),
  ],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of route and body: the same key with another request is a reuse. */
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    /** The first answer's body as sent (text, not jsonb: a replay must send the same bytes). */
    response: text('response').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
