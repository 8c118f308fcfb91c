import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// Private leaderboards (lib/leaderboards/): a named board, its invite code, and its members.
// Nothing of a board is public; only its members read it.

export const privateLeaderboards = pgTable(
  'private_leaderboards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Whoever holds it may join; the owner replaces it (the old one then joins nobody). */
    inviteCode: text('invite_code').notNull(),
    /** The owner: its creator, or the member it passed to when the owner's account was deleted (lib/leaderboards/boards.ts). */
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('private_leaderboards_invite_code_idx').on(t.inviteCode), index('private_leaderboards_owner_idx').on(t.ownerId)],
);

/** One row per member (the owner too). Leaving deletes the row: gone from the board at once. */
export const privateLeaderboardMembers = pgTable(
  'private_leaderboard_members',
  {
    boardId: uuid('board_id')
      .notNull()
      .references(() => privateLeaderboards.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // (board_id, user_id): a board's members, read by the ranking; (user_id): my boards.
  (t) => [primaryKey({ columns: [t.boardId, t.userId] }), index('private_leaderboard_members_user_idx').on(t.userId, t.boardId)],
);
