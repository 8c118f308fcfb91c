import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// What an owner decided about their projects besides their names (renames live on the users row,
// users.project_aliases): the projects whose names no surface but the owner's project list shows.

/** A hidden project: its time still counts in every total, its name shows only in the owner's project list. */
export const hiddenProjects = pgTable(
  'hidden_projects',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The stored name ('' for time without a project). */
    project: text('project').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.project] })],
);

/**
 * A project whose badge its owner made public (off until they do): Wakapi's badge URLs
 * (`/api/badge/{user}/…/project:{name}`, lib/badges/wakapi.ts) show its time, and nothing else does.
 */
export const projectBadges = pgTable(
  'project_badges',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The name as the owner's project list shows it. */
    project: text('project').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.project] })],
);

/**
 * A merge that can still be split back out (lib/projects/merges.ts): what the rename that merged
 * `project` into `into` moved, kept apart so that it can be subtracted again. A later rename of
 * either name ends it; an import that replaces one of its days makes it refuse.
 */
export const projectMerges = pgTable(
  'project_merges',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The merged project, as shown ('(no project)' for time without one). */
    project: text('project').notNull(),
    /** The project it was merged into, as shown. */
    into: text('into').notNull(),
    mergedAt: timestamp('merged_at', { withTimezone: true }).notNull().defaultNow(),
    /** What the merge moved (MergeRecord in lib/projects/merges.ts). */
    moved: jsonb('moved').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.project] })],
);
