import { sql } from 'drizzle-orm';
import { handleTag, PROFILES_TAG } from '../cache/tags';
import { usersChanged } from '../db/changes';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { ApiError } from '../http/problem';
import { config } from '../config';
import { DEFAULT_PLAN_ID } from '../plans/limits';
import { issueToken } from './tokens';
import { defaultSettings, type CreateUserInput, type Settings, type UserDto } from './schemas';

type UserRow = typeof users.$inferSelect;

/** The account as its owner and operators see it, built field by field. */
export function userDto(u: UserRow): UserDto {
  return {
    id: u.id,
    handle: u.handle,
    display_name: u.displayName,
    timezone: u.timezone,
    settings: {
      profile_public: u.profilePublic,
      share_languages: u.shareLanguages,
      share_editors: u.shareEditors,
      share_apps: u.shareApps,
      share_ai: u.shareAi,
      share_machines: u.shareMachines,
      leaderboard: u.leaderboard,
      community_stats: u.communityStats,
      weekly_report: u.weeklyReport,
    },
    created_at: new Date(u.createdAt).toISOString(),
  };
}

/** The users columns of (some of) the sharing settings. */
export function settingColumns(s: Partial<Settings>) {
  return {
    profilePublic: s.profile_public,
    shareLanguages: s.share_languages,
    shareEditors: s.share_editors,
    shareApps: s.share_apps,
    shareAi: s.share_ai,
    shareMachines: s.share_machines,
    leaderboard: s.leaderboard,
    communityStats: s.community_stats,
    weeklyReport: s.weekly_report,
  };
}

export const handleTaken = (handle: string | undefined) =>
  new ApiError('invalid_payload', `The handle "${handle}" is taken.`, {
    errors: [{ path: 'handle', code: 'handle_taken', message: 'handle is already taken (handles are case-insensitive)' }],
  });

/** Inserts a user (everything private unless settings say otherwise); 422 when the handle is taken. */
export async function insertUser(db: Db, input: CreateUserInput): Promise<UserDto> {
  const s = { ...defaultSettings, ...input.settings };
  const [created] = await db
    .insert(users)
    .values({
      handle: input.handle,
      displayName: input.display_name ?? input.handle,
      timezone: input.timezone ?? 'UTC',
      planId: config().DEFAULT_PLAN ?? DEFAULT_PLAN_ID,
      ...(settingColumns(s) as Required<ReturnType<typeof settingColumns>>),
    })
    .onConflictDoNothing()
    .returning();
  if (!created) throw handleTaken(input.handle);
  return userDto(created);
}

/** Creates a user and a first token (by default a plugin's `ct` token: sync + badges) in one transaction: an operator's (the admin API and CLI). */
export async function createUser(db: Db, input: CreateUserInput, userAgent?: string | null): Promise<{ user: UserDto; token: string }> {
  const created = await db.transaction(async (tx) => {
    const user = await insertUser(tx, input);
    const { token } = await issueToken(tx, user.id, { name: 'first token', ...input.token }, { via: 'operator', userAgent });
    return { user, token };
  });
  // It may be public from the start: its cached 404 goes, and the sitemap lists it.
  await usersChanged(db, [], [handleTag(created.user.handle), ...(created.user.settings.profile_public ? [PROFILES_TAG] : [])]);
  return created;
}

export async function findUserByHandle(db: Db, handle: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.handle}) = lower(${handle})`);
  return row;
}
