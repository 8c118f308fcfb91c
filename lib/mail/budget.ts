import type { Db } from '../db/client';
import { attemptPolicies, refundAttempt, takeAttempt, type Counter } from '../auth/attempts';
import { clientNetwork } from '../http/client-network';
import { loginByEmail } from '../accounts/sign-in';
import { signedInFrom } from '../accounts/sign-in-networks';

// Every mail the site sends to an address on someone's word (a sign-up's confirmation or notice, a
// password reset, a confirmation link sent again, a team invitation) spends three budgets:
// - the address's own ceiling (mailRecipient: 5 an hour, 15 a day), whoever asks: however many
//   client addresses a stranger holds, a mailbox gets no more than that;
// - the pair (address, asker), 5 an hour, so that one asker cannot spend the whole ceiling alone;
// - the asker's own (mailFrom, and mailFromBlock for a client address's /48), which bounds the
//   addresses one asker mails.
// The asker is a visitor's client address, counted by its network (an IPv6 /64:
// lib/http/client-network.ts), or `user:<id>` for a signed-in user asking through the API (an
// inviter); a page's visitor counts by address, signed in or not. The address's owner spends
// no ceiling: signed in to the login of the address, or asking from a network that login signed in
// from (lib/accounts/sign-in-networks.ts). So a stranger who spends the ceiling cannot keep the
// owner from their own reset mail. Requests count whether or not a mail leaves (an unknown
// address, a link already on its way): the answers must not tell addresses apart. The weekly
// report, which its owner turned on, spends nothing.

/** Who asks for a mail: a visitor's client address (and who is signed in, if anyone), or a signed-in user. */
export type Asker = { address: string; userId?: string } | { userId: string; address?: undefined };

const { mailTo, mailRecipient, mailRecipientDay, mailFrom, mailFromBlock } = attemptPolicies;

/** The counters a mail to `email` on `asker`'s word takes from; the owner of the address takes no ceiling. */
export function mailCounters(email: string, asker: Asker, owner: boolean): Counter[] {
  const recipient = email.trim().toLowerCase();
  const from = asker.address ?? `user:${asker.userId}`;
  const counters: Counter[] = [
    { policy: mailTo, subject: `${recipient}\n${asker.address ? clientNetwork(from) : from}` },
    { policy: mailFrom, subject: from },
  ];
  if (asker.address) counters.push({ policy: mailFromBlock, subject: from });
  if (!owner) counters.push({ policy: mailRecipient, subject: recipient }, { policy: mailRecipientDay, subject: recipient });
  return counters;
}

/** Whether the asker is the owner of the address's login: signed in as it, or from a network it signed in from. */
async function ownerAsks(db: Db, email: string, asker: Asker): Promise<boolean> {
  const login = await loginByEmail(db, email.trim());
  if (!login) return false;
  return asker.userId === login.userId || (asker.address !== undefined && signedInFrom(login.signInNetworks, asker.address));
}

/** The counters this mail takes from, with whether the asker owns the address. */
const countersFor = async (db: Db, email: string, asker: Asker) => mailCounters(email, asker, await ownerAsks(db, email, asker));

/** Spends one mail of the budgets; throws TooManyAttempts (429 with Retry-After) past any of them. */
export async function spendMailBudget(db: Db, email: string, asker: Asker): Promise<void> {
  await takeAttempt(db, await countersFor(db, email, asker));
}

/**
 * Runs `send` (which decides what, if anything, to mail) within the budgets; when it throws before
 * any mail is sent (a taken handle, a limit of its own), the budgets are given back.
 */
export async function withinMailBudget<T>(db: Db, email: string, asker: Asker, send: () => Promise<T>): Promise<T> {
  const counters = await countersFor(db, email, asker);
  await takeAttempt(db, counters);
  try {
    return await send();
  } catch (err) {
    await refundAttempt(db, counters);
    throw err;
  }
}
