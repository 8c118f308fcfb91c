import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { authAccounts, passwordLogins, users } from '../db/schema';
import { ApiError } from '../http/problem';
import { hashPassword, verifyPassword } from '../auth/password';
import { attemptPolicies, limitedAttempt, takeAttempt, type Counter } from '../auth/attempts';
import { endSessions } from '../auth/sessions';
import { isUniqueViolation } from '../db/errors';
import { forgetSignInNetworks, rememberSignInNetwork } from './sign-in-networks';
import { findUserByHandle, handleTaken, insertUser } from './users';
import { displayNameSchema, handleSchema, timezoneSchema } from './schemas';

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

/** The login of an address (any case), if there is one. */
export async function loginByEmail(db: Db, email: string, lock = false) {
  const query = db.select().from(passwordLogins).where(sql`lower(${passwordLogins.email}) = lower(${email})`);
  const [login] = lock ? await query.for('update') : await query;
  return login;
}

/**
 * Creates a private user with an email + password login; returns the user id, or null when the
 * email already has an account. The caller answers both the same way (nobody learns from
 * signing up whether an email is registered), and both cost one password hash. A taken handle
 * is said (422): handles are public anyway, and it is checked before the email, whatever the email.
 * Sign-ups are limited per client address.
 *
 * `awaitingConfirmation`: the login cannot sign in until the address is confirmed
 * (lib/accounts/confirmation.ts). A sign-up for an address whose login still awaits its
 * confirmation then replaces that login's credentials (handle, password, timezone) and returns
 * its id: whoever signed up first never chose the credentials a later confirmation confirms, so a
 * stranger who signs up with someone's address cannot have that person confirm the stranger's
 * password. A link mailed before now confirms the new credentials, with their password
 * (lib/accounts/confirmation.ts decides whether to mail a new one).
 */
export async function signUp(db: Db, input: SignUpInput, clientAddress: string, options: { awaitingConfirmation?: boolean } = {}): Promise<string | null> {
  await takeAttempt(db, [{ policy: attemptPolicies.signUp, subject: clientAddress }]);
  const passwordHash = await hashPassword(input.password);
  const holder = await findUserByHandle(db, input.handle);
  const pending = options.awaitingConfirmation ? await loginByEmail(db, input.email) : undefined;
  if (holder && !(pending?.awaitingConfirmation && pending.userId === holder.id)) throw handleTaken(input.handle);
  return db
    .transaction(async (tx) => {
      const existing = await loginByEmail(tx, input.email, true);
      if (existing) return options.awaitingConfirmation && existing.awaitingConfirmation ? replacePending(tx, existing.userId, input, passwordHash) : null;
      const user = await insertUser(tx, { handle: input.handle, timezone: input.timezone });
      const [login] = await tx.insert(passwordLogins).values({ userId: user.id, email: input.email, passwordHash, awaitingConfirmation: options.awaitingConfirmation ?? false }).onConflictDoNothing().returning();
      if (!login) tx.rollback(); // the same email signed up at the same moment: no user either
      return user.id;
    })
    .catch((err) => {
      if (err instanceof TransactionRollbackError) return null;
      if (isUniqueViolation(err)) throw handleTaken(input.handle); // the handle was taken meanwhile
      throw err;
    });
}

/** A new sign-up's credentials for a login still awaiting its confirmation (see signUp). */
async function replacePending(tx: Db, userId: string, input: SignUpInput, passwordHash: string): Promise<string> {
  await tx.update(users).set({ handle: input.handle, displayName: input.handle, timezone: input.timezone ?? 'UTC' }).where(eq(users.id, userId));
  await tx.update(passwordLogins).set({ email: input.email, passwordHash, emailConfirmedAt: null, ...forgetSignInNetworks }).where(eq(passwordLogins.userId, userId));
  return userId;
}

export const changePasswordSchema = z.object({
  current: z.string({ error: 'current must be a string' }).min(1, { error: 'Enter your current password.' }),
  password: passwordSchema,
});

/**
 * Replaces the password of the user's email + password login after checking the current one,
 * and ends every session of the user (lib/auth/sessions.ts). False when the current password is
 * wrong; guesses count as sign-in guesses do.
 */
export async function changePassword(db: Db, userId: string, input: z.infer<typeof changePasswordSchema>, clientAddress: string): Promise<boolean> {
  const [login] = await db.select().from(passwordLogins).where(eq(passwordLogins.userId, userId));
  if (!login) throw new ApiError('not_found', 'This account signs in through an outside provider: it has no password.');
  const current = () => verifyPassword(input.current, login.passwordHash);
  if (!(await limitedAttempt(db, passwordCounters(login.email, clientAddress), current))) return false;
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx.update(passwordLogins).set({ passwordHash, ...forgetSignInNetworks }).where(eq(passwordLogins.userId, userId));
    await endSessions(tx, userId);
  });
  return true;
}

/** The counters a password guess for this account, from this client address, takes from. */
export const passwordCounters = (email: string, clientAddress: string): Counter[] => [
  { policy: attemptPolicies.account, subject: email },
  { policy: attemptPolicies.address, subject: clientAddress },
];

/**
 * The user id for this email and password, or null; unknown emails take as long as wrong
 * passwords. Guesses are limited per account and per client address (lib/auth/attempts.ts):
 * past the limit this throws TooManyAttempts without checking the password. The right password
 * of a confirmed login remembers the client's network (lib/accounts/sign-in-networks.ts).
 */
export async function checkPassword(db: Db, email: string, password: string, clientAddress: string): Promise<string | null> {
  const address = emailSchema.safeParse(email);
  let userId: string | null = null;
  await limitedAttempt(db, passwordCounters(address.success ? address.data : email, clientAddress), async () => {
    const [login] = address.success
      ? await db.select().from(passwordLogins).where(sql`lower(${passwordLogins.email}) = lower(${address.data})`)
      : [];
    userId = (await verifyPassword(password, login?.passwordHash)) && login ? login.userId : null;
    return userId !== null;
  });
  if (userId) await rememberSignInNetwork(db, userId, clientAddress);
  return userId;
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
  const named = displayNameSchema.safeParse(typeof profile.name === 'string' ? profile.name.slice(0, 100) : undefined);
  const displayName = named.success ? named.data : undefined;
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
