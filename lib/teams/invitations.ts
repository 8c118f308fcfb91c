import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { teamMembers, teams, users } from '../db/schema';
import { configuredOrigin } from '../http/origin';
import { spendMailBudget } from '../mail/budget';
import { ApiError } from '../http/problem';
import { htmlOf, textOf, type Part } from '../mail/messages';
import { deliver, mailConfigured, type Mail } from '../mail/transport';
import { membershipOf, teamFull, teamRoom, type TeamRoom } from './teams';

// Invitations by mail (owners and admins, where the site sends mail): the team's current invite
// link, sent to an address. The address is not kept; the mail is the code, so rotating the code
// ends every invitation sent with it.

/** The page that joins by code: a signed-out visitor signs in first and comes back to it. */
export const inviteLink = (code: string) => `${configuredOrigin()}/dashboard/teams?${new URLSearchParams({ code })}`;

/**
 * The invitation. Its subject is the site's own words only, and the one thing in it another user
 * wrote, the team's name, is set apart and labelled as a name they chose (a name such as "your
 * account is suspended, sign in at ..." reads as what it is); the inviter is named by handle, which
 * holds only letters, digits, - and _.
 */
export function invitationMail(to: string, team: string, inviterHandle: string, link: string, expires: Date | null): Mail {
  const subject = 'An invitation to a team on Codetally';
  const parts: Part[] = [
    { p: `The Codetally user @${inviterHandle} invites you to join a team on Codetally, where members see each other's coding time. You choose what the team sees of yours (nothing, your total, or your total and languages), and can change it or leave at any time.` },
    { p: `The team's name, as @${inviterHandle} wrote it: «${team}». Codetally did not write it: it is only the team's name.` },
    { link, label: 'Join the team' },
    { p: expires ? `The link works until ${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC, unless the team makes a new one first.` : 'The link works until the team makes a new one.' },
    { p: 'If you do not know this person, ignore this mail.' },
  ];
  return { to, subject, text: textOf(parts), html: htmlOf(subject, parts) };
}

export async function inviteByMail(db: Db, userId: string, teamId: string, email: string, now = new Date()) {
  const me = await membershipOf(db, userId, teamId);
  if (me.role === 'member') throw new ApiError('forbidden', "Only a team's owners and admins may invite by mail.");
  if (!mailConfigured()) throw new ApiError('mail_disabled', 'This site sends no mail: share the invite code or link instead.');
  if (me.inviteExpiresAt !== null && me.inviteExpiresAt <= now) throw new ApiError('invite_expired', "The team's invite code has expired: make a new one first.");
  // A full team would refuse the person invited: nothing is mailed, and the inviter is told why.
  const room = await teamRoom(db, teamId);
  if (room.full) throw teamFull(room);
  // As every mail the site sends on someone's word (lib/mail/budget.ts): within the
  // budget of this address and this inviter, and the inviter's own (429 with Retry-After past
  // them), so a team is no way to mail anyone at will, nor to spend an address's budget for others.
  await spendMailBudget(db, email, { userId });
  const [from] = await db.select({ handle: users.handle }).from(users).where(eq(users.id, userId));
  // Sent in the background: a failure is logged without the address, and the inviter may send again.
  void deliver(invitationMail(email, me.name, from.handle, inviteLink(me.inviteCode), me.inviteExpiresAt), 'team invitation');
  return { email, invite_expires_at: me.inviteExpiresAt?.toISOString() ?? null };
}

/** What an invite link leads to, as the page it opens shows it before anyone joins. */
export interface OpenTeamInvitation extends TeamRoom {
  status: 'open' | 'full' | 'member';
  id: string;
  name: string;
  owner: string | null;
}
export type TeamInvitation = OpenTeamInvitation | { status: 'expired' | 'unknown' };

/**
 * The team of a live invite code, named for whoever holds the code (the code is what lets one in,
 * so its holder may know what it opens): its name, its first owner's handle, its room, and
 * whether `userId` (if signed in) is in it already. An expired code says only that; an unknown
 * one, nothing.
 */
export async function teamInvitation(db: Db, code: string, userId: string | null, now = new Date()): Promise<TeamInvitation> {
  if (code === '' || code.length > 100) return { status: 'unknown' };
  const [team] = await db.select({ id: teams.id, name: teams.name, expires: teams.inviteExpiresAt }).from(teams).where(eq(teams.inviteCode, code));
  if (!team) return { status: 'unknown' };
  if (team.expires !== null && team.expires <= now) return { status: 'expired' };
  const [owner] = await db
    .select({ handle: users.handle })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.role, 'owner')))
    .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId))
    .limit(1);
  const room = await teamRoom(db, team.id);
  const mine = userId
    ? (await db.select({ role: teamMembers.role }).from(teamMembers).where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, userId)))).length > 0
    : false;
  return { status: mine ? 'member' : room.full ? 'full' : 'open', id: team.id, name: team.name, owner: owner?.handle ?? null, ...room };
}
