import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { handleTag, LEADERBOARD_TAG, PROFILES_TAG } from '../cache/tags';
import { usersChanged } from '../db/changes';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { handOverBoards } from '../leaderboards/boards';
import { handOverTeams } from '../teams/teams';
import { authAccounts, badges, desktopActivity, goals, heartbeats, ideActivity, imports, lateHeartbeatKeys, passwordLogins, teamMembers, teams, users } from '../db/schema';
import { ApiError } from '../http/problem';
import { displayNameSchema, handleSchema, settingsSchema, timezoneSchema, tokenFormatSchema, tokenNameSchema, tokenScopesSchema, userSchema, type UserDto } from './schemas';
import { listTokens } from './tokens';
import { accountPlan, accountPlanSchema } from '../plans/account';
import { markUserDates } from '../stats/community';
import { leaderboardUserChanged } from '../stats/leaderboard/snapshot';
import { handleTaken, settingColumns, userDto } from './users';

// The signed-in user's own account: read, change, export, delete. Used by the /me routes and
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
  })
  .meta({ id: 'Account' });
export type AccountDto = z.infer<typeof accountSchema>;

export async function getAccount(db: Db, userId: string): Promise<AccountDto> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new ApiError('not_found', 'This account no longer exists.');
  const [login] = await db.select({ email: passwordLogins.email }).from(passwordLogins).where(eq(passwordLogins.userId, userId));
  const linked = await db.select({ provider: authAccounts.provider }).from(authAccounts).where(eq(authAccounts.userId, userId));
  return { ...userDto(user), email: login?.email ?? null, sign_in_providers: linked.map((l) => l.provider).sort(), plan: await accountPlan(db, userId) };
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

const day = (d: string | Date) => (typeof d === 'string' ? d : d.toISOString().slice(0, 10));

/** Everything stored about the user, as JSON: account, tokens (never their values), badges, activity. */
export async function exportAccount(db: Db, userId: string) {
  const account = await getAccount(db, userId);
  const ide = await db.select().from(ideActivity).where(eq(ideActivity.userId, userId)).orderBy(asc(ideActivity.date), asc(ideActivity.hour));
  const desktop = await db
    .select()
    .from(desktopActivity)
    .where(eq(desktopActivity.userId, userId))
    .orderBy(asc(desktopActivity.date), asc(desktopActivity.hour));
  const ownBadges = await db.select().from(badges).where(eq(badges.userId, userId)).orderBy(asc(badges.createdAt));
  const beats = await db.select().from(heartbeats).where(eq(heartbeats.userId, userId)).orderBy(asc(heartbeats.at));
  const ownImports = await db.select().from(imports).where(eq(imports.userId, userId)).orderBy(asc(imports.createdAt));
  const ownGoals = await db.select().from(goals).where(eq(goals.userId, userId)).orderBy(asc(goals.createdAt));
  // My memberships only: the other members' data is theirs.
  const memberships = await db
    .select({ id: teams.id, name: teams.name, role: teamMembers.role, share: teamMembers.share, joinedAt: teamMembers.joinedAt })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teamMembers.joinedAt));
  return {
    exported_at: new Date().toISOString(),
    account,
    tokens: await listTokens(db, userId),
    badges: ownBadges.map((b) => ({ id: b.id, metric: b.metric, range: b.range, language: b.language, label: b.label, color: b.color, style: b.style, created_at: new Date(b.createdAt).toISOString() })),
    goals: ownGoals.map((g) => ({ id: g.id, period: g.period, seconds: g.seconds, language: g.language, project: g.project, title: g.title, created_at: new Date(g.createdAt).toISOString() })),
    teams: memberships.map((t) => ({ id: t.id, name: t.name, role: t.role, share: t.share, joined_at: t.joinedAt.toISOString() })),
    activities: ide.map((a) => ({
      date: day(a.date),
      hour: a.hour,
      language: a.language,
      project_name: a.project || null,
      ide_name: a.editor || null,
      time: a.millis / 1000,
      lines: a.lines,
    })),
    desktop_activities: desktop.map((a) => ({ date: day(a.date), hour: a.hour, platform: a.platform, app: a.app, time: a.millis / 1000 })),
    // Heartbeats of the last 14 days, as stored (their files only as a keyed digest, not exported).
    heartbeats: beats.map((h) => ({
      time: h.at / 1000,
      type: h.type,
      category: h.category,
      language: h.language,
      project: h.project || null,
      editor: h.editor,
      operating_system: h.os,
      app: h.app || null,
      counted_seconds: (h.creditedUntil - h.at) / 1000,
    })),
    imports: ownImports.map((i) => ({
      id: i.id,
      status: i.status,
      bytes: i.bytes,
      heartbeats_read: i.heartbeatsRead,
      heartbeats_skipped: i.heartbeatsSkipped,
      error: i.error,
      created_at: i.createdAt.toISOString(),
      finished_at: i.finishedAt?.toISOString() ?? null,
    })),
  };
}
