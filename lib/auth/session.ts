import { decode } from '@auth/core/jwt';
import { eq } from 'drizzle-orm';
import { getDb } from '../db/client';
import { users } from '../db/schema';
import { decodedSegment } from '../http/url';
import { authSecret } from './secret';

// Reading the Auth.js session cookie: the user it names, looked up again on every request.

export const sessionCookieNames = ['__Secure-authjs.session-token', 'authjs.session-token'] as const;

export type SessionUser = typeof users.$inferSelect;

/** A cookie's value; a value whose encoding is malformed is no session (never an error). */
function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eqAt = part.indexOf('=');
    if (eqAt > 0 && part.slice(0, eqAt).trim() === name) return decodedSegment(part.slice(eqAt + 1).trim()) ?? undefined;
  }
  return undefined;
}

/**
 * The signed-in user of a Cookie header, or null (no cookie, a forged or expired one, a deleted
 * user, a session that was ended).
 */
export async function sessionUser(cookieHeader: string | null): Promise<SessionUser | null> {
  const db = await getDb();
  for (const name of sessionCookieNames) {
    const token = cookieValue(cookieHeader, name);
    if (!token) continue;
    const payload = await decode({ token, salt: name, secret: authSecret() }).catch(() => null);
    if (!payload?.sub) return null;
    const [user] = await db.select().from(users).where(eq(users.id, payload.sub));
    return user && payload.sv === user.sessionVersion ? user : null;
  }
  return null;
}
