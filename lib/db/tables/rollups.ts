import { sql } from 'drizzle-orm';
import { bigint, date, index, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { hourOfDay, notNegative } from './checks';

// Rollups of IDE time, maintained by the same statement that stores a batch (lib/ingest/store.ts),
// so they can never disagree with ide_activity. All are plain sums except user_days, which holds
// the day's time with every hour capped at 3600 s (the cap applies to what is counted, never to
// what is stored). Their primary keys also carry millis (INCLUDE, migration 0015, which drizzle
// cannot express): one user's chart over a year reads a few adjacent index pages, never the
// scattered heap rows.

/** Coding time per user and local date-hour, uncapped. */
export const userHours = pgTable(
  'user_hours',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date').notNull(),
    hour: smallint('hour').notNull(),
    millis: bigint('millis', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.date, t.hour] }),
    // The rare hours over the cap, which need a correction when languages or editors are counted.
    index('user_hours_over_cap_idx').on(t.userId, t.date).where(sql`millis > 3600000`),
    index('user_hours_date_idx').on(t.date),
    hourOfDay('user_hours', t.hour),
    notNegative('user_hours', t.millis),
  ],
);

/** Coding time per user and local date, each hour capped at 3600 s. */
export const userDays = pgTable(
  'user_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date').notNull(),
    millis: bigint('millis', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.date] }), index('user_days_date_idx').on(t.date), notNegative('user_days', t.millis)],
);

/** Coding time per user, date and language, uncapped. */
export const userDayLanguages = pgTable(
  'user_day_languages',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date').notNull(),
    language: text('language').notNull(),
    millis: bigint('millis', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.date, t.language] }),
    index('user_day_languages_date_idx').on(t.date),
    notNegative('user_day_languages', t.millis),
  ],
);

/** Coding time per user, date and editor ('' when the plugin sent none), uncapped. */
export const userDayEditors = pgTable(
  'user_day_editors',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date').notNull(),
    editor: text('editor').notNull(),
    millis: bigint('millis', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.date, t.editor] }),
    index('user_day_editors_date_idx').on(t.date),
    notNegative('user_day_editors', t.millis),
  ],
);
