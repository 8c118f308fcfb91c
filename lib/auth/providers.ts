import { config } from '../config';

// Which ways of signing in this installation offers, from its environment.

export interface SignInOptions {
  password: boolean;
  oauth: { id: 'github' | 'oidc'; name: string }[];
}

export function signInOptions(): SignInOptions {
  const c = config();
  const oauth: SignInOptions['oauth'] = [];
  if (c.AUTH_GITHUB_ID && c.AUTH_GITHUB_SECRET) oauth.push({ id: 'github', name: 'GitHub' });
  if (c.AUTH_OIDC_ISSUER && c.AUTH_OIDC_ID && c.AUTH_OIDC_SECRET) oauth.push({ id: 'oidc', name: c.AUTH_OIDC_NAME });
  // Email + password is on by default with the embedded database, so a fresh install needs no outside service.
  const password = c.AUTH_PASSWORD ? c.AUTH_PASSWORD === 'on' : !c.DATABASE_URL;
  return { password, oauth };
}
