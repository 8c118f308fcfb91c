import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { passwordLogins } from '../db/schema';
import { configuredOrigin } from '../http/origin';
import { hashPassword } from '../auth/password';
import { endSessions } from '../auth/sessions';
import { resetMail } from '../mail/messages';
import { deliver, mailConfigured } from '../mail/transport';
import { spendMailBudget, type Asker } from '../mail/budget';
import { dropMailTokens, issueMailToken, peekMailToken, useMailToken } from './mail-tokens';
import { revokeAllTokens } from './tokens';
import { emailSchema, loginByEmail } from './sign-in';
import { forgetSignInNetworks } from './sign-in-networks';

// A forgotten password, reset by a link mailed to the login's address (only where the site sends
// mail; elsewhere an operator resets it: lib/admin/commands.ts). Asking answers the same whether
// or not the address has an account, and takes as long: the mail leaves after the answer.

export const RESET_MINUTES = 30;

/** The link of a reset token, at the site's configured origin (never a request's Host). */
export const resetLink = (token: string) => `${configuredOrigin()}/reset-password?${new URLSearchParams({ token })}`;

/**
 * Mails a reset link to `email` when it is a login's address; nothing otherwise. `delivered`
 * settles once the mail is sent or its failure logged (the caller keeps the process alive for it
 * but does not make the visitor wait: the time an answer takes must not tell accounts apart).
 * Throws TooManyAttempts past the mail budgets (lib/mail/budget.ts), whether or not the address
 * has an account; the address's owner (signed in, or asking from where they sign in) is never
 * held off by what strangers spent.
 */
export async function requestPasswordReset(db: Db, email: string, asker: Asker): Promise<{ delivered: Promise<void> }> {
  if (!mailConfigured()) throw new Error('password reset by mail needs SMTP_URL and MAIL_FROM');
  const address = emailSchema.parse(email);
  await spendMailBudget(db, address, asker);
  const login = await loginByEmail(db, address);
  if (!login) return { delivered: Promise.resolve() };
  const token = await issueMailToken(db, login.userId, 'reset', RESET_MINUTES * 60);
  return { delivered: deliver(resetMail(login.email, resetLink(token), RESET_MINUTES), 'password reset') };
}

/** Whether a reset link still works (the page asks before showing its form; it does not use it). */
export async function resetLinkWorks(db: Db, token: string): Promise<boolean> {
  return (await peekMailToken(db, token, 'reset')) !== null;
}

/**
 * Sets the password of the login a reset link names and uses the link; false when the link is
 * unknown, expired, used, or replaced by a newer one. Every session of the user ends, and the
 * address counts as confirmed: the link reached its mailbox. With `revokeTokens` (the form's
 * default) every API token of the user is revoked too: someone who knew the old password may
 * have made one, and a token outlives any session.
 */
export async function resetPassword(db: Db, token: string, password: string, options: { revokeTokens: boolean }): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const userId = await useMailToken(tx, token, 'reset');
    if (!userId) return false;
    await tx.update(passwordLogins).set({ passwordHash, awaitingConfirmation: false, emailConfirmedAt: sql`now()`, ...forgetSignInNetworks }).where(eq(passwordLogins.userId, userId));
    await dropMailTokens(tx, userId);
    await endSessions(tx, userId);
    if (options.revokeTokens) await revokeAllTokens(tx, userId);
    return true;
  });
}

/**
 * An operator's reset (npm run admin -- reset-password): the new password of the user's login,
 * every session ended, links mailed before unusable, and (`revokeTokens`) every API token revoked.
 * Null when the user has no password login.
 */
export async function setPasswordByOperator(db: Db, userId: string, password: string, options: { revokeTokens: boolean }): Promise<{ tokensRevoked: number } | null> {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [login] = await tx.update(passwordLogins).set({ passwordHash, awaitingConfirmation: false, ...forgetSignInNetworks }).where(eq(passwordLogins.userId, userId)).returning();
    if (!login) return null;
    await dropMailTokens(tx, userId);
    await endSessions(tx, userId);
    return { tokensRevoked: options.revokeTokens ? await revokeAllTokens(tx, userId) : 0 };
  });
}
