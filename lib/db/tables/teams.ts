import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// Teams (lib/teams/): private groups whose members see each other's totals, each member deciding
// what of theirs the team sees. Nothing of a team is public.

export const teams = pgTable(
  'teams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** The code (and link) that lets anyone signed in join; rotating it ends the old one. */
    inviteCode: text('invite_code').notNull().unique(),
    /** Null: the code never expires. */
    inviteExpiresAt: timestamp('invite_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
);

/** One row a member: their role and what of their figures the team sees. */
export const teamMembers = pgTable(
  'team_members',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** owner, admin or member. */
    role: text('role').notNull(),
    /** none, total or languages: what the member shows this team. */
    share: text('share').notNull().default('total'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    index('team_members_user_idx').on(t.userId),
    check('team_members_role_check', sql`${t.role} IN ('owner', 'admin', 'member')`),
    check('team_members_share_check', sql`${t.share} IN ('none', 'total', 'languages')`),
  ],
);
