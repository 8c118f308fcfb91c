import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { sessionUser, type SessionUser } from '../auth/session';

// The signed-in user of the page being rendered (server components and server actions).

export async function currentUser(): Promise<SessionUser | null> {
  return sessionUser((await cookies()).toString());
}

/** The signed-in user, or a redirect to sign-in that comes back here. */
export async function requireUser(back = '/dashboard'): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(back)}`);
  return user;
}

/** The origin the visitor used (behind a proxy: its forwarded host and protocol). */
export async function requestOrigin(): Promise<string> {
  const h = await headers();
  const host = h.get('x-forwarded-host') ?? h.get('host') ?? 'localhost:3000';
  const proto = h.get('x-forwarded-proto') ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto}://${host}`;
}
