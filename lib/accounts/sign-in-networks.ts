import { createHmac } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { passwordLogins } from '../db/schema';
import { authSecret } from '../auth/secret';
import { clientNetwork, isClientAddress } from '../http/client-network';

// Where a login's owner signs in from: the client networks (an IPv6 /64, an IPv4 address) its
// current password signed in from, so that a mail asked for from one of them is taken as the
// owner's (lib/mail/budget.ts: beyond the ceiling strangers can spend). Bounded (the newest 10)
// and stored as a keyed hash under the session key: a backup shows no address, and a list of
// every IPv4 address hashed cannot be matched against it. A new password (a reset, a change, a
// sign-up replacing a waiting one) starts the list over: the networks were those of whoever knew
// the old one.

export const MAX_SIGN_IN_NETWORKS = 10;

const digestOf = (address: string) =>
  isClientAddress(address) ? createHmac('sha256', authSecret()).update(`sign-in network\n${clientNetwork(address)}`).digest('base64url') : null;

/**
 * Puts the client's network first in the login's list, keeping the newest 10, in one statement.
 * Only for a confirmed login (a waiting one's password may be a stranger's), and never for a
 * client whose address nobody recorded.
 */
export async function rememberSignInNetwork(db: Db, userId: string, address: string): Promise<void> {
  const digest = digestOf(address);
  if (!digest) return;
  const list = passwordLogins.signInNetworks;
  await db
    .update(passwordLogins)
    .set({ signInNetworks: sql`(ARRAY[${digest}]::text[] || array_remove(${list}, ${digest}))[1:${MAX_SIGN_IN_NETWORKS}]` })
    .where(and(eq(passwordLogins.userId, userId), eq(passwordLogins.awaitingConfirmation, false), sql`${list}[1] IS DISTINCT FROM ${digest}`));
}

/** Whether the login's current password has signed in from this client address's network. */
export function signedInFrom(networks: readonly string[], address: string): boolean {
  const digest = digestOf(address);
  return digest !== null && networks.includes(digest);
}

/** What a new password's update sets: no network yet (see above). */
export const forgetSignInNetworks = { signInNetworks: [] as string[] };
