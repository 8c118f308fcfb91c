import { sql } from 'drizzle-orm';
import { check, date, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// Mail (lib/mail/): the one-time links it sends, and which weekly reports went out.

/**
 * A one-time link mailed to a user: a password reset or the confirmation of a new login's address.
 * One live link per user and purpose (a newer one replaces it); used once (deleted when used).
 */
export const mailTokens = pgTable(
  'mail_tokens',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** reset or confirm. */
    purpose: text('purpose').notNull(),
    /** SHA-256 of the token, hex. The token itself is only in the mail. */
    hash: text('hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.purpose] }),
    uniqueIndex('mail_tokens_hash_idx').on(t.hash),
    check('mail_tokens_purpose_check', sql`${t.purpose} IN ('reset', 'confirm')`),
  ],
);

/**
 * The claim on one user's weekly report for one week, taken by the process that sends it: the
 * key makes it one per user and week, whatever number of processes look at once.
 */
export const mailReports = pgTable(
  'mail_reports',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The Monday of the week reported on (the owner's local dates). */
    weekStart: date('week_start', { mode: 'string' }).notNull(),
    /**
     * sending (claimed; a process that stopped while sending leaves it so: never sent again),
     * sent, empty (nothing to report), failed (the server refused it: tried again from retry_at),
     * unknown (the connection broke while the server may have taken it: not tried again).
     */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(1),
    retryAt: timestamp('retry_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.weekStart] }),
    check('mail_reports_status_check', sql`${t.status} IN ('sending', 'sent', 'empty', 'failed', 'unknown')`),
  ],
);

/**
 * The claim on one user's year-in-review mail for one year (lib/mail/year.ts), as mail_reports
 * is for a week: one per user and year, whatever number of processes look at once.
 */
export const mailYearReviews = pgTable(
  'mail_year_reviews',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The year reviewed (the owner's local calendar year). */
    year: integer('year').notNull(),
    /** As mail_reports.status; empty: no time that year. */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(1),
    retryAt: timestamp('retry_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.year] }),
    check('mail_year_reviews_status_check', sql`${t.status} IN ('sending', 'sent', 'empty', 'failed', 'unknown')`),
  ],
);
