import { Auth, skipCSRFCheck, type AuthConfig } from '@auth/core';
import Credentials from '@auth/core/providers/credentials';
import GitHub from '@auth/core/providers/github';
import type { Provider } from '@auth/core/providers';
import { config } from '../config';
import { getDb } from '../db/client';
import { checkPassword, userForProviderAccount } from '../accounts/sign-in';
import { signInOptions } from './providers';
import { authSecret } from './secret';

// Sign-in is Auth.js (@auth/core) under /auth: GitHub and a generic OpenID Connect provider when
// configured, and email + password. Sessions are Auth.js's encrypted JWT cookie holding only the
// user id; every request looks the user up again, so a deleted account has no session.

export const authBasePath = '/auth';
export const sessionMaxAgeSeconds = 30 * 24 * 3600;

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
        async authorize(input) {
          if (typeof input.email !== 'string' || typeof input.password !== 'string') return null;
          const id = await checkPassword(await getDb(), input.email, input.password);
          return id ? { id } : null;
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
    secret: await authSecret(db),
    trustHost: true,
    providers: providers(),
    session: { strategy: 'jwt', maxAge: sessionMaxAgeSeconds },
    pages: { signIn: '/signin', error: '/signin' },
    // A wrong password is an answer, not a server error; everything else is logged.
    logger: { error: (err) => (err.name === 'CredentialsSignin' ? undefined : console.error('[auth]', err)) },
    callbacks: {
      // The token carries the user id and nothing else (no name, email or picture).
      async jwt({ token, user, account, profile }) {
        if (!account || !user) return { sub: token.sub };
        const id =
          account.type === 'credentials'
            ? user.id
            : await userForProviderAccount(db, account.provider, account.providerAccountId, profile ?? {});
        return { sub: id };
      },
    },
  };
}

/** Handles Auth.js's own routes (provider callbacks, session, sign-out). */
export async function handleAuth(request: Request): Promise<Response> {
  return Auth(request, await authConfig());
}

/**
 * Runs one Auth.js action for a server action (which Next already guards against cross-site
 * posts, hence no second CSRF token): returns Auth.js's answer, whose cookies the caller keeps.
 */
export async function runAuthAction(origin: string, action: string, form: Record<string, string>, cookie: string): Promise<Response> {
  const request = new Request(`${origin}${authBasePath}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(form),
  });
  return Auth(request, { ...(await authConfig()), skipCSRFCheck });
}
