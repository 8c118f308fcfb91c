import { randomBytes } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { teamMembers, teams, users } from '../db/schema';
import { ApiError } from '../http/problem';
import { assertWithin, HARD_CAPS, limitPhrase, limitsOf, MAX_TEAMS_OWNED, planOf } from '../plans/limits';
import { isHandle, isUuid } from '../ids';
import type { TeamRole, TeamShare } from './schemas';

// Teams: making one, joining by its invite code, roles, consent, removing and leaving. Every read
// goes to the database (no cache): a leave or a consent change shows in the very next request, on
// every process. A team is visible to its members only: to anyone else a team is a 404, the same
// answer as an id that names no team.

export interface Membership {
  id: string;
  name: string;
  role: TeamRole;
  share: TeamShare;
  inviteCode: string;
  inviteExpiresAt: Date | null;
}

const noTeam = () => new ApiError('not_found', 'No such team.');
const notAllowed = (what: string) => new ApiError('forbidden', `Only ${what}.`);
const lastOwner = () => new ApiError('last_owner', "The team's only owner cannot leave or step down: make another member owner first, or delete the team.");

/** 128 random bits, URL-safe: the code is also the invite link's last segment. */
export const newInviteCode = () => randomBytes(16).toString('base64url');

/** The caller's membership of a team, or 404 (outsiders and unknown ids alike). */
export async function membershipOf(db: Db, userId: string, teamId: string): Promise<Membership> {
  if (!isUuid(teamId)) throw noTeam();
  const [found] = await db
    .select({ id: teams.id, name: teams.name, role: teamMembers.role, share: teamMembers.share, inviteCode: teams.inviteCode, inviteExpiresAt: teams.inviteExpiresAt })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  if (!found) throw noTeam();
  return { ...found, role: found.role as TeamRole, share: found.share as TeamShare };
}

const canManage = (role: TeamRole) => role === 'owner' || role === 'admin';

/**
 * The one way into a team: the owner at creation (createTeam), anyone else by the invite code
 * (joinTeam, which checks the team's room first: teamRoom). Joining again keeps the
 * member's role and consent.
 */
export async function addMember(db: Db, teamId: string, userId: string, role: TeamRole): Promise<{ role: TeamRole; share: TeamShare }> {
  const [row] = await rows<{ role: TeamRole; share: TeamShare }>(
    db,
    sql`WITH added AS (
          INSERT INTO ${teamMembers} (team_id, user_id, role) VALUES (${teamId}::uuid, ${userId}::uuid, ${role})
          ON CONFLICT (team_id, user_id) DO NOTHING RETURNING role, share)
        SELECT role, share FROM added
        UNION ALL
        SELECT role, share FROM ${teamMembers} WHERE team_id = ${teamId}::uuid AND user_id = ${userId}::uuid AND NOT EXISTS (SELECT 1 FROM added)`,
  );
  return row;
}

/** Teams the user owns (alone or with others). */
async function teamsOwned(db: Db, userId: string): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(teamMembers).where(and(eq(teamMembers.userId, userId), eq(teamMembers.role, 'owner')));
  return Number(n);
}

const tooManyTeams = () =>
  new ApiError('plan_limit', `A user may own at most ${MAX_TEAMS_OWNED} teams, whatever the plan: delete one, or hand it to another member, first.`, {
    errors: [{ path: 'teams', code: 'plan_limit', message: `at most ${MAX_TEAMS_OWNED} teams owned` }],
  });

/**
 * Whether the user may own one more team of `members` members: under the user's row lock (as
 * createTeam takes it), fewer than MAX_TEAMS_OWNED owned, and a plan that has teams and whose
 * team_members admits that many. A hand-over (handOverTeams) or a promotion (setRole) gives a team only to such a user.
 */
async function roomForTeam(db: Db, userId: string, members: number): Promise<boolean> {
  await db.execute(sql`SELECT 1 FROM ${users} WHERE ${users.id} = ${userId}::uuid FOR UPDATE`);
  const allowed = (await limitsOf(db, userId)).team_members;
  return (allowed === null || (allowed > 0 && members <= allowed)) && (await teamsOwned(db, userId)) < MAX_TEAMS_OWNED;
}

/** How many members a team has, the most it may have (null: no limit), and whether it is full. */
export interface TeamRoom {
  members: number;
  limit: number | null;
  full: boolean;
}

/**
 * The team's room: its members (the owners included) against the `team_members` limit of its
 * first owner's plan as enforced (lib/plans' planOf: on an install that sells no plans, only the
 * cap that protects the server, HARD_CAPS). Read under the team's row lock where it decides a join.
 */
export async function teamRoom(db: Db, teamId: string): Promise<TeamRoom> {
  const [size] = await rows<{ first_owner: string | null; members: number }>(
    db,
    sql`SELECT (SELECT user_id FROM ${teamMembers} WHERE team_id = ${teamId}::uuid AND role = 'owner' ORDER BY joined_at, user_id LIMIT 1) AS first_owner,
               count(*)::int AS members
        FROM ${teamMembers} WHERE team_id = ${teamId}::uuid`,
  );
  const members = Number(size?.members ?? 0);
  const limit = size?.first_owner ? (await planOf(db, size.first_owner)).limits.team_members : null;
  return { members, limit, full: limit !== null && members >= limit };
}

/**
 * A team's size as its pages say it: "3 of 3 members" where a limit can be met, only "12
 * members" where the one bound is the server's cap, far off (an install that sells no plans).
 */
export function roomText({ members, limit, full }: TeamRoom): string {
  const noun = members === 1 ? 'member' : 'members';
  return limit === null || (limit >= HARD_CAPS.team_members && !full) ? `${members} ${noun}` : `${members} of ${limit} members`;
}

/**
 * The refusal of one more member: the team's own figures ("3 of 3"), never the name of its
 * owner's plan (which is the owner's business), and what would make room.
 */
export const teamFull = ({ members, limit }: TeamRoom) =>
  new ApiError('plan_limit', `This team allows ${limitPhrase('team_members', limit)}, and has them: it is full, ${members} of ${limit}. Its owners can make room by removing a member.`, {
    errors: [{ path: 'team_members', code: 'plan_limit', message: `the team is full: ${members} of ${limit} members` }],
  });

export async function createTeam(db: Db, userId: string, name: string): Promise<Membership> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    // The user's row is the lock every team made or handed to them takes: two at once cannot pass the cap.
    await tx.execute(sql`SELECT 1 FROM ${users} WHERE ${users.id} = ${userId}::uuid FOR UPDATE`);
    await assertWithin(tx, userId, 'team_members', 0); // a plan without teams makes none
    if ((await teamsOwned(tx, userId)) >= MAX_TEAMS_OWNED) throw tooManyTeams();
    const [team] = await tx.insert(teams).values({ name, inviteCode: newInviteCode() }).returning();
    await addMember(tx, team.id, userId, 'owner');
    return { id: team.id, name: team.name, role: 'owner', share: 'total', inviteCode: team.inviteCode, inviteExpiresAt: team.inviteExpiresAt };
  });
}

/** Joins the team whose live code this is; an unknown or expired code is a 404. */
export async function joinTeam(db: Db, userId: string, code: string, now = new Date()): Promise<{ id: string; name: string; role: TeamRole; share: TeamShare }> {
  const unknownCode = () => new ApiError('not_found', 'No team has this invite code, or it has expired: ask for a new one.');
  const [found] = await db.select({ id: teams.id }).from(teams).where(eq(teams.inviteCode, code));
  if (!found) throw unknownCode();
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    // The team's row is the lock every join, removal and new code takes: the code is read again
    // under it (one replaced or expired meanwhile lets nobody in), and two joins at once cannot
    // both pass the limit.
    const [team] = await rows<{ id: string; name: string; invite_code: string; invite_expires_at: Date | string | null }>(
      tx,
      sql`SELECT id, name, invite_code, invite_expires_at FROM ${teams} WHERE ${teams.id} = ${found.id}::uuid FOR UPDATE`,
    );
    if (!team || team.invite_code !== code || (team.invite_expires_at !== null && new Date(team.invite_expires_at) <= now)) throw unknownCode();
    const [mine] = await tx.select({ role: teamMembers.role }).from(teamMembers).where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, userId)));
    // Joining again changes nothing; anyone else is told the team's limit, never the owner's plan.
    if (!mine) {
      const room = await teamRoom(tx, team.id);
      if (room.full) throw teamFull(room);
    }
    return { id: team.id, name: team.name, ...(await addMember(tx, team.id, userId, 'member')) };
  });
}

/** My teams, by name. */
export async function myTeams(db: Db, userId: string) {
  const m = teamMembers;
  const list = await rows<{ id: string; name: string; role: TeamRole; share: TeamShare; members: number }>(
    db,
    sql`SELECT t.id, t.name, m.role, m.share, (SELECT count(*)::int FROM ${teamMembers} o WHERE o.team_id = t.id) AS members
        FROM ${m} m JOIN ${teams} t ON t.id = m.team_id
        WHERE m.user_id = ${userId}::uuid ORDER BY lower(t.name), t.id`,
  );
  return list.map((t) => ({ ...t, members: Number(t.members) }));
}

export async function setShare(db: Db, userId: string, teamId: string, share: TeamShare): Promise<Membership> {
  const me = await membershipOf(db, userId, teamId);
  await db.update(teamMembers).set({ share }).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  return { ...me, share };
}

/** Rotates the invite code (owners and admins): the old one stops working at once. */
export async function rotateInviteCode(db: Db, userId: string, teamId: string, expiresInDays: number | null, now = new Date()) {
  const me = await membershipOf(db, userId, teamId);
  if (!canManage(me.role)) throw notAllowed("a team's owners and admins may change its invite code");
  const inviteExpiresAt = expiresInDays === null ? null : new Date(now.getTime() + expiresInDays * 86_400_000);
  const [team] = await db.update(teams).set({ inviteCode: newInviteCode(), inviteExpiresAt }).where(eq(teams.id, teamId)).returning();
  return { inviteCode: team.inviteCode, inviteExpiresAt: team.inviteExpiresAt };
}

/** Deletes the team and every membership (owners only). */
export async function deleteTeam(db: Db, userId: string, teamId: string): Promise<void> {
  const me = await membershipOf(db, userId, teamId);
  if (me.role !== 'owner') throw notAllowed('a team\'s owners may delete it');
  await db.delete(teams).where(eq(teams.id, teamId));
}

/** The team's member with this handle (any case), or 404. */
async function memberByHandle(db: Db, teamId: string, handle: string): Promise<{ userId: string; handle: string; role: TeamRole }> {
  if (!isHandle(handle)) throw new ApiError('not_found', 'No member of this team has that handle.');
  const [found] = await db
    .select({ userId: teamMembers.userId, handle: users.handle, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, teamId), sql`lower(${users.handle}) = lower(${handle})`));
  if (!found) throw new ApiError('not_found', 'No member of this team has that handle.');
  return { ...found, role: found.role as TeamRole };
}

/**
 * Runs a change to the team's members with the team row locked, the caller's and the target's
 * roles read under the lock (a role changed or a member removed a moment before counts), so that
 * two owners stepping down at once cannot leave it without one; the change must keep an owner.
 */
async function lockedChange<T>(db: Db, userId: string, teamId: string, handle: string, change: (tx: Db, me: Membership, target: { userId: string; handle: string; role: TeamRole }) => Promise<T>): Promise<T> {
  if (!isUuid(teamId)) throw noTeam();
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx.execute(sql`SELECT 1 FROM ${teams} WHERE ${teams.id} = ${teamId}::uuid FOR UPDATE`);
    const me = await membershipOf(tx, userId, teamId);
    const result = await change(tx, me, await memberByHandle(tx, teamId, handle));
    const [{ owners }] = await tx.select({ owners: count() }).from(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, 'owner')));
    if (Number(owners) === 0) throw lastOwner();
    return result;
  });
}

/**
 * Removes a member, or the caller leaves. Owners remove anyone; admins remove members only
 * (never an owner or another admin); members only themselves. The last owner cannot leave. A
 * member removed by another knows the invite code: it is replaced, so they cannot join again.
 */
export async function removeMember(db: Db, userId: string, teamId: string, handle: string): Promise<void> {
  await lockedChange(db, userId, teamId, handle, async (tx, me, target) => {
    if (target.userId !== userId) {
      if (me.role === 'member') throw notAllowed("a team's owners and admins may remove other members");
      if (me.role === 'admin' && target.role !== 'member') throw notAllowed("a team's owners may remove an owner or an admin");
      await tx.update(teams).set({ inviteCode: newInviteCode() }).where(eq(teams.id, teamId));
    }
    await tx.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, target.userId)));
  });
}

/**
 * Changes a member's role (owners only); the last owner cannot step down. A member becomes an
 * owner only with room for the team (roomForTeam): MAX_TEAMS_OWNED, and a plan that has teams.
 */
export async function setRole(db: Db, userId: string, teamId: string, handle: string, role: TeamRole) {
  return lockedChange(db, userId, teamId, handle, async (tx, me, target) => {
    if (me.role !== 'owner') throw notAllowed("a team's owners may change roles");
    if (role === 'owner' && target.role !== 'owner' && !(await roomForTeam(tx, target.userId, 1))) {
      throw new ApiError('plan_limit', `@${target.handle} cannot own another team: they own ${MAX_TEAMS_OWNED} already, or their plan has no teams.`, {
        errors: [{ path: 'role', code: 'plan_limit', message: 'the member cannot own one more team' }],
      });
    }
    await tx.update(teamMembers).set({ role }).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, target.userId)));
    return { handle: target.handle, role };
  });
}

/**
 * Before an account is deleted: each team it is the only owner of passes to the longest-standing
 * admin with room for it (roomForTeam: fewer than MAX_TEAMS_OWNED teams owned, and a plan whose
 * team_members admits the team's members), else the longest-standing member with room; a team
 * nobody else has room for, or with nobody else, is deleted. A team never outlives its last owner
 * without another, and a hand-over never gives anyone more than their plan allows.
 */
export async function handOverTeams(db: Db, userId: string): Promise<void> {
  // The rows of the user's teams first, in one order, as every change of members locks them: an
  // owner stepping down meanwhile cannot leave a team without one.
  await db.execute(sql`SELECT 1 FROM ${teams} WHERE id IN (SELECT team_id FROM ${teamMembers} WHERE user_id = ${userId}::uuid) ORDER BY id FOR UPDATE`);
  const sole = await rows<{ team_id: string }>(
    db,
    sql`SELECT m.team_id FROM ${teamMembers} m
        WHERE m.user_id = ${userId}::uuid AND m.role = 'owner'
          AND NOT EXISTS (SELECT 1 FROM ${teamMembers} o WHERE o.team_id = m.team_id AND o.role = 'owner' AND o.user_id <> ${userId}::uuid)
        ORDER BY m.team_id`,
  );
  for (const { team_id: teamId } of sole) {
    const others = await rows<{ user_id: string }>(
      db,
      sql`SELECT user_id FROM ${teamMembers} WHERE team_id = ${teamId}::uuid AND user_id <> ${userId}::uuid
          ORDER BY (role = 'admin') DESC, joined_at, user_id`,
    );
    let heir: string | undefined;
    for (const { user_id: candidate } of others) {
      if (await roomForTeam(db, candidate, others.length)) {
        heir = candidate;
        break;
      }
    }
    if (heir) await db.update(teamMembers).set({ role: 'owner' }).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, heir)));
    else await db.delete(teams).where(eq(teams.id, teamId));
  }
}
