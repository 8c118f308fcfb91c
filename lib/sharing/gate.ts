import { and, asc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import { config } from '../config';
import { rows, type Db } from '../db/client';
import { col, selected } from '../db/names';
import { ApiError } from '../http/problem';
import { badges, plans, users } from '../db/schema';
import { isAiAgentEditor } from '../editors';
import { effectiveLimits } from '../plans/limits';
import { isHandle, isUuid } from '../ids';
import { ownerCacheOf } from './owner-cache';
import type { PublicOwner, PublicUser } from './owner';

// The one place that decides what a public surface may show. Every public route, badge, the
// leaderboard and the public pages ask here; none decides on its own.

export const notPublic = () => new ApiError('not_found', 'No public profile with that handle or id.');

interface OwnerRow {
  id: string;
  handle: string;
  display_name: string;
  timezone: string;
  profile_public: boolean;
  share_languages: boolean;
  share_editors: boolean;
  share_apps: boolean;
  share_ai: boolean;
  share_machines: boolean;
  stats_version: number;
  plan_limits: Record<string, unknown> | null;
}

/**
 * The user named by handle or UUID, if their profile is public. Unknown and private answer the
 * same 404, so nobody can tell them apart. Public owners are cached in memory until they change.
 */
export async function publicOwner(db: Db, ref: string): Promise<PublicOwner> {
  const cache = ownerCacheOf(db);
  return cache ? cache.get(ref, () => readOwner(db, ref)) : readOwner(db, ref);
}

/** The public owner if it is already in memory (no promise, no database); otherwise ask publicOwner. */
export function knownPublicOwner(db: Db, ref: string): PublicOwner | undefined {
  return ownerCacheOf(db)?.peek(ref);
}

async function readOwner(db: Db, ref: string): Promise<PublicOwner> {
  // What can be no handle and no id names nobody: answered without asking the database.
  if (!isUuid(ref) && !isHandle(ref)) throw notPublic();
  const u = users;
  const match = isUuid(ref) ? sql`${u.id} = ${ref}::uuid` : sql`lower(${u.handle}) = lower(${ref})`;
  const [row] = await rows<OwnerRow>(
    db,
    sql`SELECT ${selected(u.id, u.handle, u.displayName, u.timezone, u.profilePublic, u.shareLanguages, u.shareEditors, u.shareApps, u.shareAi, u.shareMachines)},
               ${u.statsVersion}::float8 AS stats_version,
               (SELECT p.limits FROM ${plans} p WHERE p.id = ${u.planId}) AS plan_limits
        FROM ${u} WHERE ${match}`,
  );
  if (!row || !row.profile_public) throw notPublic();
  return {
    user: publicUserOf(row),
    timezone: row.timezone,
    shares: { languages: row.share_languages, editors: row.share_editors, apps: row.share_apps, ai: row.share_ai, machines: row.share_machines },
    statsVersion: Number(row.stats_version),
    historyDays: effectiveLimits(row.plan_limits ?? {}).history_days,
  };
}

/**
 * The handles of public profiles, in handle order, at most `limit`: what may be listed for crawlers
 * (the sitemap). A private profile is never among them.
 */
export async function publicProfileHandles(db: Db, limit: number): Promise<string[]> {
  const listed = await db
    .select({ handle: users.handle })
    .from(users)
    .where(eq(users.profilePublic, true))
    .orderBy(sql`lower(${users.handle})`)
    .limit(limit);
  return listed.map((u) => u.handle);
}

/**
 * An operator has hidden the user from public boards and site-wide figures, and the hide has not
 * ended (`u` is the users alias; lib/leaderboards/trust/hides.ts). Their own figures, profile and
 * private boards are not affected.
 */
export const hiddenFromPublic = (u: SQLWrapper) =>
  sql`(${u}.${col(users.hiddenReason)} IS NOT NULL AND (${u}.${col(users.hiddenUntil)} IS NULL OR ${u}.${col(users.hiddenUntil)} > now()))`;

/** Site-wide figures count only users who have not opted out of community statistics, nor been hidden. */
export const communityMembers = sql`SELECT ${users.id} AS id FROM ${users} WHERE ${users.communityStats} AND NOT ${hiddenFromPublic(users)}`;

/** The least number of distinct users behind any site-wide figure. */
export function minUsers(): number {
  return config().PUBLIC_MIN_USERS;
}

/** Keeps the site-wide entries that rest on enough distinct users. */
export function enoughUsers<T extends { users: number }>(entries: T[]): T[] {
  const k = minUsers();
  return entries.filter((e) => e.users >= k);
}

/** The leaderboard lists only users who opted in and are not hidden, read when answering (`u` is the users alias). */
export const listedOnLeaderboard = (u: SQLWrapper) => sql`(${u}.${col(users.leaderboard)} AND NOT ${hiddenFromPublic(u)})`;

/** Language figures of a user appear publicly only if the user shares languages. */
export const sharesLanguages = (u: SQLWrapper) => sql`${u}.${col(users.shareLanguages)}`;

/**
 * An editor's name as a user's public figures show it (they show editors only with
 * share_editors). Time of an editor no client named ('' or "Unknown" to its owner) counts in
 * "Other", never as a figure of its own; so does an AI agent's own plugin ("Claude Code") while
 * the owner keeps AI-assisted coding private (share_ai off), or its name alone would publish it.
 */
export function publicEditorName(name: string, shares: Pick<PublicOwner['shares'], 'ai'>): string {
  if (name === '' || name === 'Unknown') return 'Other';
  return !shares.ai && isAiAgentEditor(name) ? 'Other' : name;
}

/** The public identity of a user row, field by field. */
export function publicUserOf(row: { id: string; handle: string; display_name: string }): PublicUser {
  return { id: row.id, handle: row.handle, display_name: row.display_name };
}

/**
 * What a token with the `badges` scope may publish. The scope is its owner's consent, given once
 * to a program, to publish a badge's figure: the overall ones (total and daily average), which
 * are what a badge is for. A language's figure is published with a token only while the owner
 * shares languages: otherwise a token (a plugin's, on some machine) could read the languages its
 * owner keeps private by making badges and deleting them. The owner, signed in to the
 * dashboard, may make any badge. 403 otherwise.
 */
export async function assertTokenMayPublish(db: Db, userId: string, badge: { metric: string }): Promise<void> {
  if (badge.metric !== 'language') return assertMayPublish(db, userId, badge);
  const [owner] = await db.select({ shares: users.shareLanguages }).from(users).where(eq(users.id, userId));
  if (!owner?.shares) {
    throw new ApiError('forbidden', 'A language badge made with a token needs "share languages" on; or make it from the dashboard.', {
      errors: [{ path: 'metric', code: 'languages_not_shared', message: 'turn on share_languages, or create this badge from the dashboard' }],
    });
  }
}

/**
 * What any badge may publish, however it is made: AI-assisted coding only while its owner shares
 * it (share_ai). A badge of it made then stops showing (not found) when the setting goes off.
 */
export async function assertMayPublish(db: Db, userId: string, badge: { metric: string }): Promise<void> {
  if (badge.metric !== 'ai') return;
  const [owner] = await db.select({ shares: users.shareAi }).from(users).where(eq(users.id, userId));
  if (!owner?.shares) {
    throw new ApiError('forbidden', 'A badge of AI-assisted coding needs "share AI-assisted coding" on.', {
      errors: [{ path: 'metric', code: 'ai_not_shared', message: 'turn on share_ai first' }],
    });
  }
}

export interface PublishedBadge {
  badge: typeof badges.$inferSelect;
  timezone: string;
  statsVersion: number;
  /** The owner's plan's window of history (null: all; absent: read when needed): a badge shows no older day. */
  historyDays?: number | null;
}

/**
 * A badge its owner created (the owner's consent to publish exactly that figure), found by the
 * owner's UUID and, when given, the badge id; without one, the owner's first badge. Null for an
 * unknown owner, an unknown or deleted badge, or one of another user: all look the same.
 */
export async function publishedBadge(db: Db, ownerId: string, badgeId: string | null): Promise<PublishedBadge | null> {
  if (!isUuid(ownerId) || (badgeId !== null && !isUuid(badgeId))) return null;
  const [row] = await db
    .select({ badge: badges, timezone: users.timezone, statsVersion: users.statsVersion, limits: plans.limits, shareAi: users.shareAi })
    .from(badges)
    .innerJoin(users, eq(users.id, badges.userId))
    .innerJoin(plans, eq(plans.id, users.planId))
    .where(and(eq(badges.userId, ownerId), badgeId ? eq(badges.id, badgeId) : undefined))
    .orderBy(asc(badges.createdAt), asc(badges.id))
    .limit(1);
  // A badge of AI-assisted coding shows only while its owner shares it.
  if (!row || (row.badge.metric === 'ai' && !row.shareAi)) return null;
  return { badge: row.badge, timezone: row.timezone, statsVersion: Number(row.statsVersion), historyDays: effectiveLimits(row.limits).history_days };
}
