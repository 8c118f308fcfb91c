import { bigint, date, index, integer, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { hourOfDay, notNegative } from './checks';

// Activity as the sync routes store it (lib/ingest/store.ts): hourly buckets of IDE and desktop
// time, and the idempotency records of the writes.
//
// Activity tables are keyed by user first so they can be distributed by user_id.
// Empty string, not NULL, stands for "no project" / "no editor" (and no machine, operating system
// or AI agent known) so the key is a plain primary key. The key holds every dimension a figure is
// read by, over all history: language, project, editor, category (WakaTime's, `coding` by
// default), machine, operating system and AI agent; AI and human line changes are summed like
// time. Its primary key was rebuilt with them online (lib/db/online-steps.ts).
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
    /** WakaTime's category (lib/activity.ts CATEGORY_NAMES), lower case. */
    category: text('category').notNull().default('coding'),
    /** The machine's name (X-Machine-Name, or the sync bucket's `machine`); '' unknown. */
    machine: text('machine').notNull().default(''),
    /** The operating system, as heartbeats' User-Agents name it; '' unknown (sync buckets). */
    os: text('os').notNull().default(''),
    /** The AI agent whose heartbeats these are (`Claude`, `Cursor`); '' for a person's own. */
    aiAgent: text('ai_agent').notNull().default(''),
    /** Time in milliseconds: integer sums stay exact however many uploads add to a bucket. */
    millis: bigint('millis', { mode: 'number' }).notNull(),
    lines: bigint('lines', { mode: 'number' }).notNull().default(0),
    /** Lines an AI agent added and deleted, and lines a person did, in the hour (WakaTime's ai_/human_line_changes). */
    aiAdditions: bigint('ai_additions', { mode: 'number' }).notNull().default(0),
    aiDeletions: bigint('ai_deletions', { mode: 'number' }).notNull().default(0),
    humanAdditions: bigint('human_additions', { mode: 'number' }).notNull().default(0),
    humanDeletions: bigint('human_deletions', { mode: 'number' }).notNull().default(0),
    /**
     * What AI agents reported in the hour (wakatime-cli's ai_session, ai_input_tokens,
     * ai_output_tokens, ai_prompt_length; decision 0037): the sessions that began in it, the tokens,
     * the heartbeats carrying a prompt's length and those lengths summed.
     */
    aiSessions: bigint('ai_sessions', { mode: 'number' }).notNull().default(0),
    aiInputTokens: bigint('ai_input_tokens', { mode: 'number' }).notNull().default(0),
    aiOutputTokens: bigint('ai_output_tokens', { mode: 'number' }).notNull().default(0),
    aiPromptEvents: bigint('ai_prompt_events', { mode: 'number' }).notNull().default(0),
    aiPromptLengthSum: bigint('ai_prompt_length_sum', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'ide_activity_pkey', columns: [t.userId, t.date, t.hour, t.language, t.project, t.editor, t.category, t.machine, t.os, t.aiAgent] }),
    hourOfDay('ide_activity', t.hour),
    notNegative('ide_activity', t.millis),
  ],
);

/**
 * What each AI model (named in a heartbeat's User-Agent: lib/wakatime/sending/user-agent.ts) did
 * per local date: its AI line changes (additions plus deletions) and tokens. Apart from
 * ide_activity so that its key stays as it is (decision 0037): written by the same statements.
 */
export const userDayAiModels = pgTable(
  'user_day_ai_models',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date').notNull(),
    model: text('model').notNull(),
    lines: bigint('lines', { mode: 'number' }).notNull().default(0),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.date, t.model] })],
);

/**
 * The AI sessions (wakatime-cli's ai_session, as a keyed digest) a user's heartbeats named: a
 * session counts once, in the bucket of the first heartbeat that named it (decision 0037).
 */
export const userAiSessions = pgTable(
  'user_ai_sessions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    session: bigint('session', { mode: 'number' }).notNull(),
    // When the session is forgotten (milliseconds, KEYS_KEPT_MS after it was first named): an
    // agent's session lasts hours, and the table would otherwise grow with every one of them.
    forgetAfter: bigint('forget_after', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.session] }), index('user_ai_sessions_forget_idx').on(t.forgetAfter)],
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
