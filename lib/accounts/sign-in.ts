import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { authAccounts, passwordLogins, users } from '../db/schema';
import { ApiError } from '../http/problem';
import { hashPassword, verifyPassword } from '../auth/password';
import { insertUser } from './users';
import { handleSchema, timezoneSchema } from './schemas';

// Accounts behind sign-in: email + password logins and links to outside providers. A user made
// by signing up starts with everything private.

export const emailSchema = z
  .string({ error: 'email must be a string' })
  .trim()
  .max(254, { error: 'email must be at most 254 characters' })
  .pipe(z.email({ error: 'email must be an email address' }));

export const passwordSchema = z
  .string({ error: 'password must be a string' })
  .min(10, { error: 'password must be at least 10 characters' })
  .max(200, { error: 'password must be at most 200 characters' });

export const signUpSchema = z.object({
  handle: handleSchema,
  email: emailSchema,
  password: passwordSchema,
  timezone: timezoneSchema.optional(),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

const emailTaken = () =>
  new ApiError(422, 'invalid_payload', 'That email already has an account.', {
    errors: [{ path: 'email', code: 'email_taken', message: 'an account with this email exists: sign in instead' }],
  });

/** Creates a private user with an email + password login; returns the user id. */
export async function signUp(db: Db, input: SignUpInput): Promise<string> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: passwordLogins.userId }).from(passwordLogins).where(sql`lower(${passwordLogins.email}) = lower(${input.email})`);
    if (existing) throw emailTaken();
    const user = await insertUser(tx, { handle: input.handle, timezone: input.timezone });
    const [login] = await tx.insert(passwordLogins).values({ userId: user.id, email: input.email, passwordHash }).onConflictDoNothing().returning();
    if (!login) throw emailTaken();
    return user.id;
  });
}

/** The user id for this email and password, or null; unknown emails take as long as wrong passwords. */
export async function checkPassword(db: Db, email: string, password: string): Promise<string | null> {
  const [login] = await db.select().from(passwordLogins).where(sql`lower(${passwordLogins.email}) = lower(${email.trim()})`);
  return (await verifyPassword(password, login?.passwordHash)) && login ? login.userId : null;
}

/** A handle made from what a provider says the person is called, free and valid. */
async function freeHandle(db: Db, wish: string): Promise<string> {
  const base = wish.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^[-_]+/, '').slice(0, 32) || 'coder';
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!handleSchema.safeParse(candidate).success) continue;
    const [taken] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.handle}) = lower(${candidate})`);
    if (!taken) return candidate;
  }
  return `coder-${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * The user linked to this provider account; the first sign-in creates a private user, named
 * after the provider's username when that handle is free.
 */
export async function userForProviderAccount(
  db: Db,
  provider: string,
  providerAccountId: string,
  profile: { login?: unknown; preferred_username?: unknown; email?: unknown; name?: unknown } = {},
): Promise<string> {
  const link = and(eq(authAccounts.provider, provider), eq(authAccounts.providerAccountId, providerAccountId));
  const [found] = await db.select({ userId: authAccounts.userId }).from(authAccounts).where(link);
  if (found) return found.userId;
  const wish = [profile.login, profile.preferred_username, typeof profile.email === 'string' ? profile.email.split('@')[0] : undefined].find(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
  const displayName = typeof profile.name === 'string' && profile.name.trim() ? profile.name.trim().slice(0, 100) : undefined;
  const created = await db.transaction(async (tx) => {
    const user = await insertUser(tx, { handle: await freeHandle(tx, wish ?? 'coder'), display_name: displayName });
    const [linked] = await tx.insert(authAccounts).values({ provider, providerAccountId, userId: user.id }).onConflictDoNothing().returning();
    if (!linked) tx.rollback(); // a simultaneous first sign-in linked it: use that user
    return user.id;
  }).catch((err) => {
    if (err instanceof TransactionRollbackError) return null;
    throw err;
  });
  if (created) return created;
  const [raced] = await db.select({ userId: authAccounts.userId }).from(authAccounts).where(link);
  if (!raced) throw new Error('could not link the provider account');
  return raced.userId;
}
