import { sql } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// The leaderboard's snapshots (lib/stats/leaderboard/snapshot.ts).

/** When each leaderboard range was last rebuilt, and the dates it covers. */
export const leaderboardSnapshots = pgTable('leaderboard_snapshots', {
  range: text('range').primaryKey(),
  generatedAt: timestamp('generated_at', { withTimezone: true }).notNull(),
  fromDate: date('from_date').notNull(),
  toDate: date('to_date').notNull(),
  /** Moves when what a page shows of a user changes between rebuilds (settings, deletion): cached pages of the snapshot are stale. */
  revision: integer('revision').notNull().default(0),
});

/**
 * One row per user who is or was on the leaderboard (even with no time: the row remembers that it
 * is known): the capped total over the snapshot's dates it is ranked by, and the user's stats
 * version it was computed at (a rebuild recomputes only users whose version moved). Reads show
 * listed users with time only.
 */
export const leaderboardEntries = pgTable(
  'leaderboard_entries',
  {
    range: text('range').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    totalMillis: bigint('total_millis', { mode: 'number' }).notNull(),
    statsVersion: bigint('stats_version', { mode: 'number' }).notNull().default(0),
    /** Whether the user is on the leaderboard: set by each rebuild and at once when they join or leave. */
    listed: boolean('listed').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.range, t.userId] }), index('leaderboard_entries_rank_idx').on(t.range, t.totalMillis.desc(), t.userId).where(sql`listed`)],
);

/**
 * The snapshot's per-language totals (capped) of the users on the leaderboard who share
 * languages: what the leaderboard ranked by one language reads, in order from one index. Kept
 * up to date by the same rebuild as leaderboard_entries; a user who stops sharing or leaves the
 * leaderboard loses their rows at once (lib/stats/leaderboard/snapshot.ts).
 */
export const leaderboardLanguages = pgTable(
  'leaderboard_languages',
  {
    range: text('range').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    millis: doublePrecision('millis').notNull(),
  },
  (t) => [primaryKey({ columns: [t.range, t.userId, t.language] }), index('leaderboard_languages_rank_idx').on(t.range, t.language, t.millis.desc(), t.userId)],
);
