import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';

// Sign-in sessions are encrypted cookies that the server does not store, so ending one needs a
// fact the server does keep: each user's session version. A session holds the version it was
// made with and is honoured (and renewed) only while the user's version is still that one.
// Signing out, changing the password and deleting the account move it: every session of that
// user, on every device and in every copied cookie, ends at once.

/** The user's current session version, or null when there is no such user. */
export async function sessionVersion(db: Db, userId: string): Promise<number | null> {
  const [row] = await db.select({ version: users.sessionVersion }).from(users).where(eq(users.id, userId));
  return row?.version ?? null;
}

/** Ends every session of the user. */
export async function endSessions(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, userId));
}
