import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  doublePrecision,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  jsonb,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

// What the database itself refuses, whatever a statement computes: an hour outside the day, and
// time below zero. Validation refuses both long before (lib/ingest/schemas.ts); these make a bug
// in a statement fail loudly instead of storing a figure no chart can show.
const hourOfDay = (table: string, hour: AnyPgColumn) => check(`${table}_hour_check`, sql`${hour} BETWEEN 0 AND 23`);
const notNegative = (table: string, millis: AnyPgColumn) => check(`${table}_millis_check`, sql`${millis} >= 0`);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    handle: text('handle').notNull(),
    displayName: text('display_name').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    profilePublic: boolean('profile_public').notNull().default(false),
    shareLanguages: boolean('share_languages').notNull().default(false),
    shareEditors: boolean('share_editors').notNull().default(false),
    shareApps: boolean('share_apps').notNull().default(false),
    leaderboard: boolean('leaderboard').notNull().default(false),
    communityStats: boolean('community_stats').notNull().default(true),
    /** Bumped by every write of the user's activity: per-user read caches key on it. */
    statsVersion: bigint('stats_version', { mode: 'number' }).notNull().default(0),
    /** Every sign-in session carries the value it was made with; bumping it ends them all. */
    sessionVersion: integer('session_version').notNull().default(0),
    /**
     * The earliest heartbeat stored through the heartbeat path (lib/wakatime/heartbeat-store.ts), epoch
     * ms: from it on that path has counted every heartbeat, so an import leaves older-than-14-days
     * heartbeats at or after it alone (lib/wakatime/imports.ts).
     */
    heartbeatsSince: bigint('heartbeats_since', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_handle_lower_idx').on(sql`lower(${t.handle})`)],
);

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The first characters of the token, safe to show in a token list. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole token, hex. The token itself is never stored. */
    hash: text('hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_tokens_hash_idx').on(t.hash), index('api_tokens_user_idx').on(t.userId)],
);

// Activity tables are keyed by user first so they can be distributed by user_id.
// Empty string, not NULL, stands for "no project" / "no editor" so the key is a plain primary key.
// ide_activity alone has no foreign key to users: a key is checked row by row, a third of the
// cost of storing a batch of new buckets. The statement that stores them also upserts the
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
    /** Time in milliseconds: integer sums stay exact however many uploads add to a bucket. */
    millis: bigint('millis', { mode: 'number' }).notNull(),
    lines: bigint('lines', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.date, t.hour, t.language, t.project, t.editor] }),
    hourOfDay('ide_activity', t.hour),
    notNegative('ide_activity', t.millis),
  ],
);

/**
 * Heartbeats of the WakaTime-compatible API (lib/wakatime/heartbeat-store.ts), kept for 14 days: what
 * recomputing the hours a late heartbeat changes needs, and nothing more. No entity (a keyed
 * digest tells duplicates apart; for `type: app` the entity is the application's name and is kept
 * as `app`), no branch, dependencies, line or cursor numbers. Each row keeps what it is credited
 * now (its start to `credited_until`, split into hours in `zone`), so that a recomputation takes
 * back exactly what it added. No foreign key (as ide_activity: checked row by row, it was an
 * eighth of storing a bulk of 1000): the one statement that inserts heartbeats updates the user's
 * row first and inserts nothing when it is gone; `deleteAccount` deletes them.
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
    creditedUntil: bigint('credited_until', { mode: 'number' }).notNull(),
    zone: text('zone').notNull(),
  },
  // No index but the key: the purge of old rows goes user by user through it (purgeOldHeartbeats).
  (t) => [primaryKey({ columns: [t.userId, t.at, t.type, t.entityDigest] })],
);

/**
 * Imports of WakaTime data dumps (lib/wakatime/imports.ts): the upload is spooled to a file on
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  // One unfinished import per user: uploads wait their turn (and cannot fill the disk in parallel).
  (t) => [index('imports_user_idx').on(t.userId), uniqueIndex('imports_one_unfinished_idx').on(t.userId).where(sql`${t.status} IN ('receiving', 'queued', 'running')`)],
);

/**
 * What imports credited per UTC day of heartbeats older than the 14 days the heartbeat path keeps
 * (lib/wakatime/imports.ts): importing a day again replaces its credits when that import holds at
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

/** A counter in a fixed window (lib/http/rate-limit.ts, lib/auth/attempts.ts): when it began, and the count in it. */
const windowCounter = () => ({
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/** One fixed one-minute window per token, shared by every server process. */
export const rateLimits = pgTable('rate_limits', {
  tokenId: uuid('token_id')
    .primaryKey()
    .references(() => apiTokens.id, { onDelete: 'cascade' }),
  ...windowCounter(),
});

/** One fixed one-minute window per user, over all the user's tokens. */
export const userRateLimits = pgTable('user_rate_limits', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  ...windowCounter(),
});

/**
 * Attempts at guessing a secret (password sign-in, the admin token) and sign-ups, counted per
 * account and per client address in fixed windows, shared by every server process. The key is
 * a hash: no email or address is kept.
 */
export const authAttempts = pgTable('auth_attempts', {
  key: text('key').primaryKey(),
  ...windowCounter(),
});

/** Subscription plans for the pricing page; only `listed` ones are public. */
export const plans = pgTable('plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  /** Minor units (cents). */
  priceAmount: integer('price_amount').notNull(),
  currency: text('currency').notNull(),
  /** 'month', 'year', or NULL for a free plan. */
  interval: text('interval'),
  features: jsonb('features').$type<string[]>().notNull(),
  limits: jsonb('limits').$type<Record<string, number | boolean | null>>().notNull(),
  highlighted: boolean('highlighted').notNull().default(false),
  listed: boolean('listed').notNull().default(true),
  position: integer('position').notNull(),
});

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

/** A badge publishes exactly one figure of its owner: creating it is the owner's consent. */
export const badges = pgTable(
  'badges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    metric: text('metric').notNull(),
    range: text('range').notNull(),
    language: text('language'),
    label: text('label').notNull(),
    color: text('color').notNull(),
    style: text('style').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Bumped by POST /badges/{id}/refresh: cached images key on it. */
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('badges_user_idx').on(t.userId, t.createdAt)],
);

/** Email + password sign-in (self-hosted installs). The hash is scrypt with its own salt. */
export const passwordLogins = pgTable(
  'password_logins',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('password_logins_email_lower_idx').on(sql`lower(${t.email})`)],
);

/** An account at an outside sign-in provider (GitHub, OpenID Connect) linked to a user. */
export const authAccounts = pgTable(
  'auth_accounts',
  {
    provider: text('provider').notNull(),
    providerAccountId: text('provider_account_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] }), index('auth_accounts_user_idx').on(t.userId)],
);

/** Secrets the service generates for itself once (the session key when AUTH_SECRET is unset). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

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
