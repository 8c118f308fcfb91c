import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { handleTag, LEADERBOARD_TAG, PROFILES_TAG } from '../cache/tags';
import { usersChanged } from '../db/changes';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { handOverBoards } from '../leaderboards/boards';
import { handOverTeams } from '../teams/teams';
import { authAccounts, heartbeats, ideActivity, lateHeartbeatKeys, passwordLogins, users } from '../db/schema';
import { ApiError } from '../http/problem';
import { displayNameSchema, handleSchema, settingsSchema, timezoneSchema, tokenFormatSchema, tokenNameSchema, tokenScopesSchema, userSchema, type UserDto } from './schemas';
import { accountPlan, accountPlanSchema } from '../plans/account';
import { markUserDates } from '../stats/community';
import { leaderboardUserChanged } from '../stats/leaderboard/snapshot';
import { hiddenSchema } from '../leaderboards/trust/schemas';
import { hiddenState } from '../leaderboards/trust/hides';
import { handleTaken, settingColumns, userDto } from './users';

// The signed-in user's own account: read, change, delete (its export: ./export.ts). Used by the /me routes and
// by the dashboard's forms alike, with the same schemas.

export const updateAccountSchema = z
  .object({
    handle: handleSchema.optional(),
    display_name: displayNameSchema.optional(),
    timezone: timezoneSchema.optional(),
    settings: settingsSchema.partial().optional(),
  })
  .meta({ id: 'UpdateAccount' });
export type UpdateAccountInput = z.infer<typeof updateAccountSchema>;

export const createTokenSchema = z
  .object({
    name: tokenNameSchema,
    scopes: tokenScopesSchema('scopes'),
    format: tokenFormatSchema,
  })
  .meta({ id: 'CreateToken' });

export const accountSchema = userSchema
  .extend({
    email: z.string().nullable().meta({ description: 'The email of an email + password login, if any.' }),
    sign_in_providers: z.array(z.string()).meta({ description: 'Outside providers linked for sign-in (github, oidc).' }),
    plan: accountPlanSchema.meta({ description: 'My plan, its limits, and what I use of each.' }),
    leaderboard_hidden: hiddenSchema.nullable().meta({
      description: 'An operator has hidden me from the public leaderboard, /leaders and site-wide figures: why, and until when; null when not. My own figures, profile and private boards are not affected.',
    }),
  })
  .meta({ id: 'Account' });
export type AccountDto = z.infer<typeof accountSchema>;

export async function getAccount(db: Db, userId: string): Promise<AccountDto> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new ApiError('not_found', 'This account no longer exists.');
  const [login] = await db.select({ email: passwordLogins.email }).from(passwordLogins).where(eq(passwordLogins.userId, userId));
  const linked = await db.select({ provider: authAccounts.provider }).from(authAccounts).where(eq(authAccounts.userId, userId));
  return {
    ...userDto(user),
    email: login?.email ?? null,
    sign_in_providers: linked.map((l) => l.provider).sort(),
    plan: await accountPlan(db, userId),
    leaderboard_hidden: await hiddenState(db, userId),
  };
}

export async function updateAccount(db: Db, userId: string, input: UpdateAccountInput): Promise<UserDto> {
  const s = input.settings ?? {};
  const changes = {
    handle: input.handle,
    displayName: input.display_name,
    timezone: input.timezone,
    ...settingColumns(s),
  };
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  try {
    const [row] = await db.transaction(async (tx) => {
      if (s.community_stats !== undefined) await markUserDates(tx, userId); // site-wide figures gain or lose this user
      await leaderboardUserChanged(tx, userId, s);
      return Object.keys(set).length === 0
        ? tx.select().from(users).where(eq(users.id, userId))
        : tx.update(users).set(set).where(eq(users.id, userId)).returning();
    });
    if (!row) throw new ApiError('not_found', 'This account no longer exists.');
    // Public pages of every process show the new settings at once, a newly taken or shown handle
    // too, and the sitemap a profile made public or private, or renamed.
    const listing = s.profile_public !== undefined || input.handle !== undefined ? [PROFILES_TAG] : [];
    await usersChanged(db, [userId], [handleTag(row.handle), handleTag(userId), LEADERBOARD_TAG, ...listing]);
    return userDto(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw handleTaken(input.handle);
    throw err;
  }
}

/** Removes the user and, through the foreign keys, every row that belongs to them. */
export async function deleteAccount(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await markUserDates(tx, userId);
    await leaderboardUserChanged(tx, userId);
    await handOverTeams(tx as unknown as Db, userId);
    await handOverBoards(tx as unknown as Db, userId);
    // Every other table follows the user by its foreign key; ide_activity, heartbeats and late_heartbeat_keys have none
    // (see the schema). Once the user is gone no write can store more (its rollup rows would fail
    // their key check; a heartbeat batch finds no user row), and these later statements see
    // whatever a write committed before.
    await tx.delete(users).where(eq(users.id, userId));
    await tx.delete(ideActivity).where(eq(ideActivity.userId, userId));
    await tx.delete(heartbeats).where(eq(heartbeats.userId, userId));
    await tx.delete(lateHeartbeatKeys).where(eq(lateHeartbeatKeys.userId, userId));
  });
  await usersChanged(db, [userId], [LEADERBOARD_TAG, PROFILES_TAG]);
}
