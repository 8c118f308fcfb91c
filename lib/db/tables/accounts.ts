import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { plans } from './plans';

// Accounts: users, their tokens, their ways of signing in, and the service's own secrets.

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
    /** Whether public surfaces show AI-assisted coding (AI time, agents, AI and human lines); off by default. */
    shareAi: boolean('share_ai').notNull().default(false),
    /** Whether public surfaces name the user's machines; off by default. */
    shareMachines: boolean('share_machines').notNull().default(false),
    /** Opt-in: a summary of the week before, mailed on Monday morning (lib/mail/weekly.ts). */
    weeklyReport: boolean('weekly_report').notNull().default(false),
    /** Bumped by every write of the user's activity: per-user read caches key on it. */
    statsVersion: bigint('stats_version', { mode: 'number' }).notNull().default(0),
    /** Every sign-in session carries the value it was made with; bumping it ends them all. */
    sessionVersion: integer('session_version').notNull().default(0),
    /**
     * The earliest heartbeat stored through the heartbeat path (lib/wakatime/sending/heartbeat-store.ts), epoch
     * ms: from it on that path has counted every heartbeat, so an import leaves older-than-14-days
     * heartbeats at or after it alone (lib/wakatime/importing/imports.ts).
     */
    heartbeatsSince: bigint('heartbeats_since', { mode: 'number' }),
    /**
     * Epoch ms until which heartbeats that arrived late (older than 14 days) are kept
     * (heartbeats.purge_after); null when none is: the purge reads it to find whose to delete.
     */
    lateHeartbeatsUntil: bigint('late_heartbeats_until', { mode: 'number' }),
    /**
     * Projects renamed away: old name -> the name its time counts under now, always a final name
     * (never itself a key). Every write maps a project through it (lib/projects/aliases.ts); it is
     * on this row because the writes lock the row to read it, so a rename (which locks the row
     * first) and a write never pass each other.
     */
    projectAliases: jsonb('project_aliases').$type<Record<string, string>>().notNull().default({}),
    /**
     * The plan whose limits apply (lib/plans/limits.ts). An operator sets it (PATCH
     * /admin/users/{handle}); a plan in use cannot be deleted.
     */
    planId: text('plan_id')
      .notNull()
      .default('free')
      .references(() => plans.id, { onUpdate: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Made an operator (`npm run admin -- grant-operator`): signs in to the console at /admin. ADMIN_EMAILS makes others. */
    operator: boolean('operator').notNull().default(false),
    /**
     * Hidden from public boards and site-wide figures by an operator (lib/leaderboards/trust/hides.ts):
     * why, and until when (null: until shown again). Hidden only while the reason is set and the
     * end has not passed (lib/sharing/gate.ts, `hiddenFromPublic`).
     */
    hiddenReason: text('hidden_reason'),
    hiddenUntil: timestamp('hidden_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_handle_lower_idx').on(sql`lower(${t.handle})`),
    // The weekly report's check every few minutes reads only the few who opted in.
    index('users_weekly_report_idx').on(t.id).where(sql`${t.weeklyReport}`),
    // The few hidden accounts: the console lists them, and the end of a hide is found through it.
    index('users_hidden_idx').on(t.hiddenUntil).where(sql`${t.hiddenReason} IS NOT NULL`),
  ],
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
    /**
     * Where the token was made (lib/accounts/token-origin.ts): `dashboard`, `api` (POST /me/tokens
     * with another token) or `operator` (the admin API or CLI); null for tokens made before it was kept.
     */
    createdVia: text('created_via'),
    /** What made it, as its owner recognises it ("Firefox on Linux", "curl/8.5.0"): never the whole User-Agent, never an address. */
    createdAgent: text('created_agent'),
    /** The shown prefix of the token a token made through the API was made with. */
    createdWith: text('created_with'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * An editor key (WakaTime's format, scopes within sync and stats) sealed under a key derived
     * from the session key (lib/auth/sealed-keys.ts), so that its owner's session can show it again
     * for another machine; null for every other token, for keys made before, and once revoked.
     */
    sealed: text('sealed'),
  },
  (t) => [uniqueIndex('api_tokens_hash_idx').on(t.hash), index('api_tokens_user_idx').on(t.userId)],
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
    /**
     * Signed up while the site sends mail, and the link mailed to the address not used yet: signing
     * in is refused until it is (or a password reset by mail proves the address).
     */
    awaitingConfirmation: boolean('awaiting_confirmation').notNull().default(false),
    /**
     * When a link mailed to the address was last used (the sign-up confirmation, a password reset):
     * the address is proven to be the holder's. Null without mail, where sign-up confirms nothing;
     * ADMIN_EMAILS counts only a proven address (lib/admin/operators.ts).
     */
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    /**
     * The client networks (an IPv6 /64, an IPv4 address) the current password signed in from,
     * newest first, at most 10, each a keyed hash (lib/accounts/sign-in-networks.ts): a mail asked
     * for from one of them is the owner's, beyond the address's ceiling (lib/mail/budget.ts).
     */
    signInNetworks: text('sign_in_networks').array().notNull().default(sql`'{}'::text[]`),
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
