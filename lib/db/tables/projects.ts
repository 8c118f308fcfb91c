import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
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
