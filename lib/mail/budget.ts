import type { Db } from '../db/client';
import { attemptPolicies, refundAttempt, takeAttempt, type Counter } from '../auth/attempts';

// Every mail the site sends to an address on someone's word (a sign-up's confirmation or notice, a
// password reset, a confirmation link sent again, a team invitation) spends that address's budget,
// counted together with whoever asked: a client address for a visitor, `user:<id>` for a signed-in
// user. So nobody can fill a mailbox, and nobody can spend the budget of an address for its owner:
// a stranger's requests count against the stranger's own pair, and the owner asking from anywhere
// else still gets their mail. The asker's own budget (mailFrom) bounds the addresses one asker
// mails. The weekly report, which its owner turned on, spends nothing.

/** Who asks for a mail: a visitor's client address, or a signed-in user. */
export type Asker = { address: string } | { userId: string };

const askerKey = (asker: Asker) => ('userId' in asker ? `user:${asker.userId}` : asker.address);

/** The counters a mail to `email` on `asker`'s word takes from. */
export function mailCounters(email: string, asker: Asker): Counter[] {
  const who = askerKey(asker);
  return [
    { policy: attemptPolicies.mailTo, subject: `${email.trim().toLowerCase()}\n${who}` },
    { policy: attemptPolicies.mailFrom, subject: who },
  ];
}

/** Spends one mail of the budget; throws TooManyAttempts (429 with Retry-After) past it. */
export async function spendMailBudget(db: Db, email: string, asker: Asker): Promise<void> {
  await takeAttempt(db, mailCounters(email, asker));
}

/**
 * Runs `send` (which decides what, if anything, to mail) within the budget; when it throws before
 * any mail is sent (a taken handle, a limit of its own), the budget is given back.
 */
export async function withinMailBudget<T>(db: Db, email: string, asker: Asker, send: () => Promise<T>): Promise<T> {
  const counters = mailCounters(email, asker);
  await takeAttempt(db, counters);
  try {
    return await send();
  } catch (err) {
    await refundAttempt(db, counters);
    throw err;
  }
}
