import { Auth, skipCSRFCheck, type AuthConfig } from '@auth/core';
import { CredentialsSignin } from '@auth/core/errors';
import Credentials from '@auth/core/providers/credentials';
import GitHub from '@auth/core/providers/github';
import type { Provider } from '@auth/core/providers';
import { RequestCookies } from '@edge-runtime/cookies';
import { config } from '../config';
import { getDb } from '../db/client';
import { problemResponse } from '../http/problem';
import { clientAddress, siteOrigin } from '../http/origin';
import { sameOriginPath } from '../http/url';
import { attemptPolicies, TooManyAttempts } from './attempts';
import { checkPassword, userForProviderAccount } from '../accounts/sign-in';
import { awaitingConfirmation } from '../accounts/confirmation';
import { signInOptions } from './providers';
import { authSecret } from './secret';
import { endSessions, sessionVersion } from './sessions';

// Sign-in is Auth.js (@auth/core) under /auth: GitHub and a generic OpenID Connect provider when
// configured, and email + password. Sessions are Auth.js's encrypted JWT cookie holding only the
// user id and the user's session version (lib/auth/sessions.ts); every request looks the user up
// again, so a deleted account or a session that was ended has no session.

export const authBasePath = '/auth';

/** Auth.js's answer to a guess past the limit: its redirect carries `code=rate_limited`. */
class SignInLimited extends CredentialsSignin {
  override code = 'rate_limited';
}

/**
 * The right password of a login whose address is not confirmed yet: its redirect carries
 * `code=unconfirmed` (said only to whoever knows the password).
 */
class SignInUnconfirmed extends CredentialsSignin {
  override code = 'unconfirmed';
}

/** Whether an Auth.js answer is a sign-in refused for too many attempts. */
export function signInLimited(response: Response): boolean {
  const location = response.headers.get('location');
  return !!location && URL.canParse(location, 'http://x') && new URL(location, 'http://x').searchParams.get('code') === 'rate_limited';
}
export const sessionMaxAgeSeconds = 30 * 24 * 3600;

/**
 * What Auth.js reports. A sign-in it refused (a wrong password, too many attempts) is an answer
 * to the visitor: one line, no stack. Anything else is a fault, logged whole. Its errors are told
 * apart by `type`: `name` is the class's name, which the production build minifies.
 */
function logAuthError(err: Error): void {
  const { type, code } = err as Error & { type?: string; code?: string };
  if (type === 'CredentialsSignin') console.warn(`[auth] sign-in refused (${code ?? 'credentials'})`);
  else console.error('[auth]', err);
}

function providers(): Provider[] {
  const c = config();
  const options = signInOptions();
  const list: Provider[] = [];
  for (const o of options.oauth) {
    if (o.id === 'github') list.push(GitHub({ clientId: c.AUTH_GITHUB_ID, clientSecret: c.AUTH_GITHUB_SECRET }));
    if (o.id === 'oidc') {
      list.push({ id: 'oidc', name: o.name, type: 'oidc', issuer: c.AUTH_OIDC_ISSUER, clientId: c.AUTH_OIDC_ID, clientSecret: c.AUTH_OIDC_SECRET });
    }
  }
  if (options.password) {
    list.push(
      Credentials({
        credentials: { email: {}, password: {} },
        async authorize(input, request) {
          if (typeof input.email !== 'string' || typeof input.password !== 'string') return null;
          try {
            const db = await getDb();
            const id = await checkPassword(db, input.email, input.password, clientAddress(request.headers));
            if (id && (await awaitingConfirmation(db, id))) throw new SignInUnconfirmed();
            return id ? { id } : null;
          } catch (err) {
            if (err instanceof TooManyAttempts) throw new SignInLimited();
            throw err;
          }
        },
      }),
    );
  }
  return list;
}

export async function authConfig(): Promise<AuthConfig> {
  const db = await getDb();
  return {
    basePath: authBasePath,
    secret: authSecret(),
    trustHost: true,
    providers: providers(),
    session: { strategy: 'jwt', maxAge: sessionMaxAgeSeconds },
    pages: { signIn: '/signin', error: '/signin' },
    logger: { error: logAuthError },
    callbacks: {
      // Every return address Auth.js is given (a callbackUrl in a query, a form or its cookie) is
      // a path of this site; anything else returns to the home page.
      redirect: ({ url, baseUrl }) => `${baseUrl}${sameOriginPath(url, baseUrl) ?? '/'}`,
      // The token carries the user id and session version, nothing else (no name, email or picture).
      async jwt({ token, user, account, profile }) {
        if (account && user) {
          const id =
            account.type === 'credentials'
              ? user.id!
              : await userForProviderAccount(db, account.provider, account.providerAccountId, profile ?? {});
          return { sub: id, sv: await sessionVersion(db, id) };
        }
        // A session read or renewed (/auth/session): only while it has not been ended.
        const current = typeof token.sub === 'string' ? await sessionVersion(db, token.sub) : null;
        return current !== null && token.sv === current ? { sub: token.sub, sv: current } : null;
      },
    },
    events: {
      // Signing out ends every session of the user, copied cookies included.
      async signOut(message) {
        const sub = 'token' in message ? message.token?.sub : undefined;
        if (typeof sub === 'string') await endSessions(db, sub);
      },
    },
  };
}

const callbackCookies = new Set(['authjs.callback-url', '__Secure-authjs.callback-url']);

/**
 * Handles Auth.js's own routes (provider callbacks, session, sign-out), at the site's origin:
 * Auth.js builds its callback URLs from the request's, which Next gives with the listen address.
 * A return address in the query or its cookie is made the path it resolves to, or dropped when
 * it is no path of the site: Auth.js answers one it cannot parse (`90d`) with a 500 "server
 * configuration" error, and it is the client's mistake.
 */
export async function handleAuth(request: Request): Promise<Response> {
  const { pathname, search } = new URL(request.url);
  const origin = siteOrigin(request.headers);
  const url = new URL(pathname + search, origin);
  const callback = url.searchParams.get('callbackUrl');
  const callbackPath = callback === null ? null : sameOriginPath(callback, origin);
  if (callbackPath === null) url.searchParams.delete('callbackUrl');
  else url.searchParams.set('callbackUrl', callbackPath);
  const headers = new Headers(request.headers);
  // Cookies whose encoding is malformed are dropped too (RequestCookies does not keep them).
  const jar = new RequestCookies(headers);
  for (const name of callbackCookies) {
    const value = jar.get(name)?.value;
    const path = value === undefined ? null : sameOriginPath(value, origin);
    if (path === null) jar.delete(name);
    else jar.set(name, path);
  }
  headers.set('cookie', jar.toString());
  const atSite = new Request(url, {
    method: request.method,
    headers,
    body: request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer(),
  });
  const response = await Auth(atSite, await authConfig());
  // A direct post of credentials past the limit: 429, as the API answers it.
  if (signInLimited(response)) return problemResponse(new TooManyAttempts(attemptPolicies.account.windowSeconds));
  return response;
}

/**
 * Runs one Auth.js action for a server action (which Next already guards against cross-site
 * posts, hence no second CSRF token): returns Auth.js's answer, whose cookies the caller keeps.
 */
export async function runAuthAction(
  origin: string,
  action: string,
  form: Record<string, string>,
  from: { cookie: string; forwardedFor?: string | null },
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', cookie: from.cookie };
  // The visitor's address, as the page's request carried it: sign-in attempts are counted per address.
  if (from.forwardedFor) headers['x-forwarded-for'] = from.forwardedFor;
  const request = new Request(`${origin}${authBasePath}/${action}`, { method: 'POST', headers, body: new URLSearchParams(form) });
  return Auth(request, { ...(await authConfig()), skipCSRFCheck });
}
