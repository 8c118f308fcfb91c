import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { sessionUser, type SessionUser } from '../../auth/session';
import { clientAddress, siteOrigin } from '../../http/origin';
import { config } from '../../config';
import type { Asker } from '../../mail/budget';

// The signed-in user of the page being rendered (server components and server actions).

export async function currentUser(): Promise<SessionUser | null> {
  return sessionUser(await cookies());
}

/** The signed-in user, or a redirect to sign-in that comes back here. */
export async function requireUser(back = '/dashboard'): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(back)}`);
  return user;
}

/** The address of the visitor whose request is being answered (lib/http/origin.ts). */
export async function visitorAddress(): Promise<string> {
  return clientAddress(await headers());
}

/**
 * Who asks for a mail from this page (lib/mail/budget.ts): the visitor's address, and the
 * signed-in user if any (a signed-in owner asking for their own mail is never held off by strangers).
 */
export async function visitorAsker(): Promise<Asker> {
  const [address, user] = await Promise.all([visitorAddress(), currentUser()]);
  return user ? { address, userId: user.id } : { address };
}

/** The browser's User-Agent, for the record of where a token was made (lib/accounts/token-origin.ts). */
export async function visitorAgent(): Promise<string | null> {
  return (await headers()).get('user-agent');
}

/** The origin visitors reach the site at (lib/http/origin.ts). */
export async function requestOrigin(): Promise<string> {
  return siteOrigin(await headers());
}

/** The site's address as the server rendered it, and whether the visitor's replaces it. */
export interface SiteAddress {
  origin: string;
  follow: boolean;
}

/**
 * The site's address for the links and snippets a signed-in page shows: the request's origin,
 * which the browser's own replaces once the page runs (app/dashboard/visitor-origin.tsx), unless
 * SITE_URL names it.
 */
export async function siteAddress(): Promise<SiteAddress> {
  return { origin: await requestOrigin(), follow: !config().SITE_URL };
}
