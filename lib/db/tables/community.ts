import { bigserial, boolean, date, doublePrecision, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { hourOfDay } from './checks';

// Site-wide rollups over the users who take part in community statistics, one row per date
// (and language, editor or hour): a cell. Each figure is capped per user-hour like every other;
// `users` is the number of distinct users behind the cell. They are recomputed for the dates
// marked in community_dirty, so a write only appends a mark and never waits on a site-wide row.
// What the public reads is `released`: the cell's figure with noise and rounding, drawn once per
// release (lib/stats/community.ts), never `millis` itself.

/** Dates whose site-wide rollups must be recomputed: appended by writes and settings changes. */
export const communityDirty = pgTable('community_dirty', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  date: date('date').notNull(),
});

/** What every community table holds besides its key: the true figure and its released form. */
const communityCell = () => ({
  millis: doublePrecision('millis').notNull(),
  users: integer('users').notNull(),
  /** The figure as published: millis plus noise, rounded to the minute; null until first released. */
  released: doublePrecision('released'),
  /** How many times the cell was released: the noise of each release is drawn afresh and grows with it. */
  release: integer('release').notNull().default(0),
  releasedAt: timestamp('released_at', { withTimezone: true }),
  /** The figure changed since its last release, which was too recent to release it again. */
  pending: boolean('pending').notNull().default(false),
});

export const communityDays = pgTable('community_days', {
  date: date('date').primaryKey(),
  ...communityCell(),
});

export const communityDayLanguages = pgTable(
  'community_day_languages',
  {
    date: date('date').notNull(),
    language: text('language').notNull(),
    ...communityCell(),
  },
  (t) => [primaryKey({ columns: [t.date, t.language] })],
);

export const communityDayEditors = pgTable(
  'community_day_editors',
  {
    date: date('date').notNull(),
    editor: text('editor').notNull(),
    ...communityCell(),
  },
  (t) => [primaryKey({ columns: [t.date, t.editor] })],
);

export const communityHours = pgTable(
  'community_hours',
  {
    date: date('date').notNull(),
    hour: smallint('hour').notNull(),
    ...communityCell(),
  },
  (t) => [primaryKey({ columns: [t.date, t.hour] }), hourOfDay('community_hours', t.hour)],
);
