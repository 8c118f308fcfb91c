import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { configuredOrigin } from '../http/origin';
import { attemptPolicies, takeAttempt } from '../auth/attempts';
import { ApiError } from '../http/problem';
import { htmlOf, textOf, type Part } from '../mail/messages';
import { deliver, mailConfigured, type Mail } from '../mail/transport';
import { membershipOf } from './teams';

// Invitations by mail (owners and admins, where the site sends mail): the team's current invite
// link, sent to an address. The address is not kept; the mail is the code, so rotating the code
// ends every invitation sent with it.

/** The page that joins by code: a signed-out visitor signs in first and comes back to it. */
export const inviteLink = (code: string) => `${configuredOrigin()}/dashboard/teams?${new URLSearchParams({ code })}`;

export function invitationMail(to: string, team: string, from: string, link: string, expires: Date | null): Mail {
  const subject = `${from} invites you to the team ${team} on Codetally`;
  const parts: Part[] = [
    { p: `${from} invites you to join the team "${team}" on Codetally, where members see each other's coding time. You choose what the team sees of yours (nothing, your total, or your total and languages), and can change it or leave at any time.` },
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
  // As every mail the site sends on a visitor's word: at most 5 an hour to one address and 20 an
  // hour from one inviter (429 with Retry-After past them), so a team is no way to mail anyone at will.
  await takeAttempt(db, [
    { policy: attemptPolicies.mailTo, subject: email.toLowerCase() },
    { policy: attemptPolicies.mailFrom, subject: `user:${userId}` },
  ]);
  const [from] = await db.select({ name: users.displayName, handle: users.handle }).from(users).where(eq(users.id, userId));
  // Sent in the background: a failure is logged without the address, and the inviter may send again.
  void deliver(invitationMail(email, me.name, `${from.name} (@${from.handle})`, inviteLink(me.inviteCode), me.inviteExpiresAt), 'team invitation');
  return { email, invite_expires_at: me.inviteExpiresAt?.toISOString() ?? null };
}
