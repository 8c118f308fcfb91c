import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { passwordLogins } from '../db/schema';
import { configuredOrigin } from '../http/origin';
import { takeAttempt } from '../auth/attempts';
import { alreadyRegisteredMail, confirmMail } from '../mail/messages';
import { deliver } from '../mail/transport';
import { issueMailToken, useMailToken } from './mail-tokens';
import { mailCounters } from './password-reset';
import { emailSchema, signUp, type SignUpInput } from './sign-in';

// Confirming the address of a new email + password login, where the site sends mail: the account
// is made at once but cannot sign in until the link mailed to the address is used. A sign-up
// answers "check your mail" whether the address was new or not; the mail says which it was
// (a new account's link, a fresh link for one still waiting, or "you already have an account").

export const CONFIRM_HOURS = 24;

const confirmLink = (token: string) => `${configuredOrigin()}/confirm-email?${new URLSearchParams({ token })}`;

async function mailConfirmation(db: Db, userId: string, email: string): Promise<{ delivered: Promise<void> }> {
  const token = await issueMailToken(db, userId, 'confirm', CONFIRM_HOURS * 3600);
  return { delivered: deliver(confirmMail(email, confirmLink(token), CONFIRM_HOURS), 'confirmation') };
}

/** Where the login of this address stands, if there is one. */
async function loginOf(db: Db, email: string) {
  const [login] = await db.select().from(passwordLogins).where(sql`lower(${passwordLogins.email}) = lower(${email})`);
  return login;
}

/**
 * Signs up awaiting confirmation and mails the address (see above). `delivered` settles once the
 * mail is sent or its failure logged; the caller does not make the visitor wait for it.
 */
export async function signUpByMail(db: Db, input: SignUpInput, clientAddress: string): Promise<{ delivered: Promise<void> }> {
  const created = await signUp(db, input, clientAddress, { awaitingConfirmation: true });
  if (created) return mailConfirmation(db, created, input.email);
  const login = await loginOf(db, input.email);
  if (!login) return { delivered: Promise.resolve() }; // deleted in between: nothing to tell anyone
  if (login.awaitingConfirmation) return mailConfirmation(db, login.userId, login.email);
  const mail = alreadyRegisteredMail(login.email, `${configuredOrigin()}/signin`, `${configuredOrigin()}/forgot-password`);
  return { delivered: deliver(mail, 'sign-up notice') };
}

/**
 * "Send the link again", from the sign-in page after a refusal: a new link when the address's
 * login still waits for one; nothing otherwise. Limited as password-reset mails are.
 */
export async function resendConfirmation(db: Db, email: string, clientAddress: string): Promise<{ delivered: Promise<void> }> {
  const address = emailSchema.parse(email);
  await takeAttempt(db, mailCounters(address, clientAddress));
  const login = await loginOf(db, address);
  if (!login?.awaitingConfirmation) return { delivered: Promise.resolve() };
  return mailConfirmation(db, login.userId, login.email);
}

/** Uses a confirmation link: the login can sign in from now on. False for an unknown, used or expired link. */
export async function confirmEmail(db: Db, token: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const userId = await useMailToken(tx, token, 'confirm');
    if (!userId) return false;
    await tx.update(passwordLogins).set({ awaitingConfirmation: false }).where(eq(passwordLogins.userId, userId));
    return true;
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

