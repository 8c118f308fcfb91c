import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, not, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailTokens } from '../db/schema';

// One-time links sent by mail (a password reset, the confirmation of a new login's address): 32
// random bytes, only their SHA-256 stored, one live link per user and purpose (asking again
// replaces the one before), each used once: using one deletes it in the statement that checks it,
// so two uses at the same moment cannot both succeed.

export type MailTokenPurpose = 'reset' | 'confirm';

/** 32 bytes in base64url: 43 characters. */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Makes the user's new link for `purpose`, valid for `seconds`; the one before stops working. */
export async function issueMailToken(db: Db, userId: string, purpose: MailTokenPurpose, seconds: number): Promise<string> {
  return (await issue(db, userId, purpose, seconds))!;
}

/**
 * As issueMailToken, unless the user's link for `purpose` was made less than `quietSeconds` ago
 * and still works: then null, and that link stays (decided in the one statement that writes).
 */
export async function issueMailTokenUnlessRecent(db: Db, userId: string, purpose: MailTokenPurpose, seconds: number, quietSeconds: number): Promise<string | null> {
  return issue(db, userId, purpose, seconds, quietSeconds);
}

async function issue(db: Db, userId: string, purpose: MailTokenPurpose, seconds: number, quietSeconds?: number): Promise<string | null> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = sql`now() + make_interval(secs => ${seconds})`;
  // With a quiet time, the link stored stays when it was made within it and still works.
  const stays = quietSeconds === undefined ? undefined : and(gt(mailTokens.createdAt, sql`now() - make_interval(secs => ${quietSeconds})`), gt(mailTokens.expiresAt, sql`now()`));
  const [made] = await db
    .insert(mailTokens)
    .values({ userId, purpose, hash: hashOf(token), expiresAt })
    .onConflictDoUpdate({
      target: [mailTokens.userId, mailTokens.purpose],
      set: { hash: hashOf(token), expiresAt, createdAt: sql`now()` },
      setWhere: stays && not(stays),
    })
    .returning({ userId: mailTokens.userId });
  return made ? token : null;
}

const live = (token: string, purpose: MailTokenPurpose) =>
  and(eq(mailTokens.hash, hashOf(token)), eq(mailTokens.purpose, purpose), gt(mailTokens.expiresAt, sql`now()`));

/** The user a live link names, without using it (a page shows its form only for a link that works). */
export async function peekMailToken(db: Db, token: string, purpose: MailTokenPurpose): Promise<string | null> {
  if (!tokenPattern.test(token)) return null;
  const [row] = await db.select({ userId: mailTokens.userId }).from(mailTokens).where(live(token, purpose));
  return row?.userId ?? null;
}

/** Uses the link: the user it names, or null when it is unknown, expired or already used. */
export async function useMailToken(db: Db, token: string, purpose: MailTokenPurpose): Promise<string | null> {
  if (!tokenPattern.test(token)) return null;
  const [row] = await db.delete(mailTokens).where(live(token, purpose)).returning({ userId: mailTokens.userId });
  return row?.userId ?? null;
}

/** Removes the user's links (all, or one purpose's): a successful reset ends the others. */
export async function dropMailTokens(db: Db, userId: string, purpose?: MailTokenPurpose): Promise<void> {
  await db.delete(mailTokens).where(purpose ? and(eq(mailTokens.userId, userId), eq(mailTokens.purpose, purpose)) : eq(mailTokens.userId, userId));
}
