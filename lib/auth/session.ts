import { decode } from '@auth/core/jwt';
import { eq } from 'drizzle-orm';
import { getDb } from '../db/client';
import { users } from '../db/schema';
import { authSecret } from './secret';

// Reading the Auth.js session cookie: the user it names, looked up again on every request.

export const sessionCookieNames = ['__Secure-authjs.session-token', 'authjs.session-token'] as const;

export type SessionUser = typeof users.$inferSelect;

/** The cookies of a request: Next's `cookies()`, or `new RequestCookies(request.headers)` (@edge-runtime/cookies, the parser behind it). */
export interface CookieReader {
  get(name: string): { value: string } | undefined;
}

/**
 * The signed-in user of a request's cookies, or null (no cookie, one whose encoding is malformed,
 * a forged or expired one, a deleted user, a session that was ended).
 */
export async function sessionUser(cookies: CookieReader): Promise<SessionUser | null> {
  const db = await getDb();
  for (const name of sessionCookieNames) {
    const token = cookies.get(name)?.value;
    if (!token) continue;
    const payload = await decode({ token, salt: name, secret: authSecret() }).catch(() => null);
    if (!payload?.sub) return null;
    const [user] = await db.select().from(users).where(eq(users.id, payload.sub));
    return user && payload.sv === user.sessionVersion ? user : null;
  }
  return null;
}
