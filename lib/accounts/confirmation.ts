import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { passwordLogins } from '../db/schema';
import { configuredOrigin } from '../http/origin';
import { limitedAttempt } from '../auth/attempts';
import { verifyPassword } from '../auth/password';
import { alreadyRegisteredMail, confirmMail } from '../mail/messages';
import { deliver } from '../mail/transport';
import { withinMailBudget, type Asker } from '../mail/budget';
import { issueMailTokenUnlessRecent, peekMailToken, useMailToken } from './mail-tokens';
import { emailSchema, loginByEmail, passwordCounters, signUp, type SignUpInput } from './sign-in';

// Confirming the address of a new email + password login, where the site sends mail: the account
// is made at once but cannot sign in until the link mailed to the address is used, together with
// the password chosen at sign-up. So a link confirms only credentials its mailbox's holder knows:
// a stranger who signs up with someone else's address never has their password confirmed by that
// person's click, and a later sign-up for the same address replaces the credentials still waiting
// (lib/accounts/sign-in.ts). A sign-up answers "check your mail" whether the address was new or
// not; the mail says which it was (a new account's link, or "you already have an account").
// Every mail spends the address's budgets (lib/mail/budget.ts). One confirmation mail is pending
// at a time: while the link mailed in the last QUIET_MINUTES still works, a sign-up or "send again"
// for the address mails nothing and answers the same; that link confirms the newest credentials,
// with their password (docs/decisions/0027-a-ceiling-per-recipient.md).

export const CONFIRM_HOURS = 24;
/** How long a confirmation link mailed keeps the next one from being mailed. */
export const QUIET_MINUTES = 10;

/**
 * The mailed link; `next` (a same-site path the sign-up was on its way to, such as a team's invite
 * link) rides along, so confirming lands there (the confirmation page checks it again).
 */
const confirmLink = (token: string, next: string | null) => `${configuredOrigin()}/confirm-email?${new URLSearchParams({ token, ...(next && { next }) })}`;

/** Mails a new confirmation link, unless one mailed in the last QUIET_MINUTES still works. */
async function mailConfirmation(db: Db, userId: string, email: string, next: string | null = null): Promise<{ delivered: Promise<void> }> {
  const token = await issueMailTokenUnlessRecent(db, userId, 'confirm', CONFIRM_HOURS * 3600, QUIET_MINUTES * 60);
  if (!token) return { delivered: Promise.resolve() };
  return { delivered: deliver(confirmMail(email, confirmLink(token, next), CONFIRM_HOURS), 'confirmation') };
}

/**
 * Signs up awaiting confirmation and mails the address (see above). `delivered` settles once the
 * mail is sent or its failure logged; the caller does not make the visitor wait for it. `next`:
 * where the visitor was going (a same-site path, checked by the caller), carried by the mailed
 * link, so an invitation survives the detour through the mailbox.
 */
export async function signUpByMail(db: Db, input: SignUpInput, clientAddress: string, next: string | null = null): Promise<{ delivered: Promise<void> }> {
  return withinMailBudget(db, input.email, { address: clientAddress }, async () => {
    const pending = await signUp(db, input, clientAddress, { awaitingConfirmation: true });
    if (pending) return mailConfirmation(db, pending, input.email, next);
    const login = await loginByEmail(db, input.email);
    if (!login) return { delivered: Promise.resolve() }; // deleted in between: nothing to tell anyone
    if (login.awaitingConfirmation) return mailConfirmation(db, login.userId, login.email, next); // made at the same moment
    const signIn = `${configuredOrigin()}/signin${next ? `?${new URLSearchParams({ callbackUrl: next })}` : ''}`;
    const mail = alreadyRegisteredMail(login.email, signIn, `${configuredOrigin()}/forgot-password`);
    return { delivered: deliver(mail, 'sign-up notice') };
  });
}

/**
 * "Send the link again", from the sign-in page after a refusal: a new link when the address's
 * login still waits for one and none was mailed in the last QUIET_MINUTES; nothing otherwise.
 * Within the address's mail budgets. `next`, as for signUpByMail: the invitation the sign-in page
 * was on its way to rides along in the new link too.
 */
export async function resendConfirmation(db: Db, email: string, asker: Asker, next: string | null = null): Promise<{ delivered: Promise<void> }> {
  const address = emailSchema.parse(email);
  return withinMailBudget(db, address, asker, async () => {
    const login = await loginByEmail(db, address);
    if (!login?.awaitingConfirmation) return { delivered: Promise.resolve() };
    return mailConfirmation(db, login.userId, login.email, next);
  });
}

/** Whether a confirmation link still works (its page asks before showing the form; it does not use it). */
export async function confirmLinkWorks(db: Db, token: string): Promise<boolean> {
  return (await peekMailToken(db, token, 'confirm')) !== null;
}

export type ConfirmOutcome = { confirmed: true; email: string } | { confirmed: false; why: 'link' | 'password' };

/**
 * Uses a confirmation link with the password chosen at sign-up: the login can sign in from now on.
 * Refused (`why: 'link'`) for an unknown, used, replaced or expired link, and (`why: 'password'`)
 * for another password, which counts as a sign-in guess does; the link then keeps working.
 */
export async function confirmEmail(db: Db, token: string, password: string, clientAddress: string): Promise<ConfirmOutcome> {
  const userId = await peekMailToken(db, token, 'confirm');
  const [login] = userId ? await db.select().from(passwordLogins).where(eq(passwordLogins.userId, userId)) : [];
  if (!login) return { confirmed: false, why: 'link' };
  const known = await limitedAttempt(db, passwordCounters(login.email, clientAddress), () => verifyPassword(password, login.passwordHash));
  if (!known) return { confirmed: false, why: 'password' };
  return db.transaction(async (tx) => {
    // The link is used in the statement that checks it; credentials replaced since the password
    // was checked are not confirmed (the answer sends the visitor to sign up again).
    if ((await useMailToken(tx, token, 'confirm')) !== login.userId) return { confirmed: false, why: 'link' } as const;
    const [confirmed] = await tx
      .update(passwordLogins)
      .set({ awaitingConfirmation: false, emailConfirmedAt: sql`now()` })
      .where(and(eq(passwordLogins.userId, login.userId), eq(passwordLogins.passwordHash, login.passwordHash)))
      .returning({ email: passwordLogins.email });
    return confirmed ? ({ confirmed: true, email: confirmed.email } as const) : ({ confirmed: false, why: 'link' } as const);
  });
}

/** Whether the user's password login still waits for its address to be confirmed. */
export async function awaitingConfirmation(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: passwordLogins.userId })
    .from(passwordLogins)
    .where(and(eq(passwordLogins.userId, userId), eq(passwordLogins.awaitingConfirmation, true)));
  return row !== undefined;
}
