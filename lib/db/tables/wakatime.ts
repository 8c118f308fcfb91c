import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// The WakaTime-compatible API's own tables: heartbeats of the last 14 days and data dump imports.

/**
 * Heartbeats of the WakaTime-compatible API (lib/wakatime/sending/heartbeat-store.ts), retained for 14
 * days: what recomputing the hours a late heartbeat changes needs, and nothing more. No entity (a
 * keyed digest tells duplicates apart; for `type: app` the entity is the application's name and is
 * stored as `app`), no branch, dependencies, line or cursor numbers. Each row stores what it is
 * credited now (its start to `credited_until`, split into hours in `zone`), so that a recomputation
 * subtracts exactly what it added. No foreign key (as ide_activity: checked row by row, it was a
 * real share of storing a bulk; decision 0011): the one statement that inserts heartbeats updates
 * the user's row first and inserts nothing when it is gone; `deleteAccount` deletes them.
 */
export const heartbeats = pgTable(
  'heartbeats',
  {
    userId: uuid('user_id').notNull(),
    /** Epoch milliseconds. */
    at: bigint('at', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    /** 52 bits of an HMAC of the entity, under a server secret. */
    entityDigest: bigint('entity_digest', { mode: 'number' }).notNull(),
    category: text('category').notNull(),
    language: text('language').notNull(),
    project: text('project').notNull(),
    editor: text('editor').notNull(),
    os: text('os').notNull(),
    app: text('app').notNull(),
    // The columns of migration 0017 hold NULL for what most heartbeats have (no machine, no AI
    // agent, no line changes, not late): a NULL takes no room in the row, where '' and 0 took 18
    // bytes of every heartbeat stored (docs/scaling.md). Rows stored before hold '' and 0: both
    // read the same (coalesce).
    /** The machine (X-Machine-Name, or the heartbeat's `hostname`); NULL or '' unknown. */
    machine: text('machine'),
    /** The AI agent named in the User-Agent; NULL or '' for none. */
    aiAgent: text('ai_agent'),
    /** WakaTime's ai_line_changes and human_line_changes of this heartbeat (may be negative); NULL or 0 none. */
    aiLines: integer('ai_lines'),
    humanLines: integer('human_lines'),
    /**
     * The heartbeat's `is_write` (a save) when true; NULL otherwise, and for rows stored before it
     * was kept (read as false: GET heartbeats?date= answers it, nothing counts by it).
     */
    isWrite: boolean('is_write'),
    creditedUntil: bigint('credited_until', { mode: 'number' }).notNull(),
    zone: text('zone').notNull(),
    /**
     * Epoch ms before which the row is not purged, for a heartbeat that arrived already older than
     * the 14 days (NULL, or 0 before, for the others, purged by their time): late ones a client sends in several
     * requests find each other's times for their credits while it sends them.
     */
    purgeAfter: bigint('purge_after', { mode: 'number' }),
  },
  // No index but the key: the purge of old rows goes user by user through it (purgeOldHeartbeats).
  (t) => [primaryKey({ columns: [t.userId, t.at, t.type, t.entityDigest] })],
);

/**
 * The heartbeats whose rows the purge deleted, late or not, by a 64-bit hash of what tells two
 * heartbeats apart (time, type, entity digest): a heartbeat sent again after its row is gone (a
 * long offline queue, wakatime-cli's AI sync sending agents' history again) is found here and
 * counts no second time. Written by the purge as it deletes the rows, kept until `forget_after`
 * (KEYS_KEPT_MS after the row went or the heartbeat was last sent again), then pruned by the same
 * purge through its index (decision 0026). Nothing else of the heartbeat. (The name is from when
 * only late heartbeats had keys, kept for good.)
 */
export const lateHeartbeatKeys = pgTable(
  'late_heartbeat_keys',
  {
    userId: uuid('user_id').notNull(),
    key: bigint('key', { mode: 'number' }).notNull(),
    /** Epoch ms after which the key is pruned. */
    forgetAfter: bigint('forget_after', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('late_heartbeat_keys_forget_idx').on(t.forgetAfter)],
);

/**
 * The User-Agents a user's heartbeats came with (GET /users/current/user_agents): recorded by the
 * heartbeat statement at most once an hour per process and value (lib/wakatime/sending/heartbeat-store.ts).
 */
export const userAgents = pgTable(
  'user_agents',
  {
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    editor: text('editor').notNull(),
    os: text('os').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.value] })],
);

/**
 * Imports of WakaTime data dumps (lib/wakatime/importing/imports.ts): the upload is spooled to a file on
 * the server that received it, then read in the background; these rows say how far it got.
 */
export const imports = pgTable(
  'imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** receiving, queued, running, done or failed. */
    status: text('status').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    bytesRead: bigint('bytes_read', { mode: 'number' }).notNull().default(0),
    heartbeatsRead: bigint('heartbeats_read', { mode: 'number' }).notNull().default(0),
    heartbeatsSkipped: bigint('heartbeats_skipped', { mode: 'number' }).notNull().default(0),
    /** How many times reading began: one a stop interrupted stays counted, and the third is the last. */
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    /**
     * The user's User-Agents as WakaTime listed them at the import (`{id, value, editor, os}`,
     * lib/wakatime/importing/user-agents-fetch.ts), for the reader to look the dump's `user_agent_id`s up
     * in; null without a WakaTime key, and once the import has ended.
     */
    userAgents: jsonb('user_agents').$type<{ id: string; value: string | null; editor: string | null; os: string | null }[]>(),
    /** The user's machine names as WakaTime listed them at the import (`{id, name}`), for the dump's `machine_name_id`s; null as userAgents. */
    machineNames: jsonb('machine_names').$type<{ id: string; name: string }[]>(),
    /** Where the history comes from: `file` (an upload), `wakatime` or `compatible` (an import by key, lib/wakatime/importing/remote.ts). */
    source: text('source').notNull().default('file'),
    /** An import by key from a compatible server: the days to read, and those read so far. */
    daysTotal: integer('days_total').notNull().default(0),
    daysDone: integer('days_done').notNull().default(0),
    /** What an import by key is doing now, in words for its owner (waiting for WakaTime's dump, downloading it, ...). */
    stage: text('stage'),
    /**
     * While an import by key holds its key (in memory only): when its run last made progress. Null
     * otherwise (a WakaTime dump once downloaded is read like an upload). A start of the server finds
     * such a run's key gone and ends it.
     */
    remoteSeenAt: timestamp('remote_seen_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  // One unfinished import per user (the user's import slot): uploads queue, and cannot fill the
  // disk in parallel.
  (t) => [index('imports_user_idx').on(t.userId), uniqueIndex('imports_one_unfinished_idx').on(t.userId).where(sql`${t.status} IN ('receiving', 'queued', 'running')`)],
);

/**
 * What imports credited per UTC day of heartbeats older than the 14 days the heartbeat path retains
 * (lib/wakatime/importing/imports.ts): importing a day again replaces its credits when that import holds at
 * least as much of the day, so a dump imported twice, or two dumps that overlap, count each day
 * once, from the fullest view of it.
 */
export const importedDays = pgTable(
  'imported_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Days since 1970-01-01 (UTC) of the heartbeats. */
    day: integer('day').notNull(),
    /** The buckets credited: { ide: [[date, hour, language, project, editor, millis]], desktop: [[date, hour, platform, app, millis]] }. */
    credits: jsonb('credits').notNull(),
    /** How many heartbeats of the day the import held. */
    heartbeats: integer('heartbeats').notNull(),
    /** Whether it held heartbeats after the day (so the day's last gap, into the next day, was known). */
    continues: boolean('continues').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
