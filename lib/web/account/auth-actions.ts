import { cookies, headers } from 'next/headers';
import { ResponseCookies } from '@edge-runtime/cookies';
import { runAuthAction } from '../../auth/authjs';
import { safeCallback } from './forms';
import { requestOrigin } from './session';

// Server actions reach Auth.js through here: run the action, keep the cookies it set.

async function keepCookies(response: Response): Promise<void> {
  const jar = await cookies();
  for (const cookie of new ResponseCookies(response.headers).getAll()) jar.set(cookie);
}

/** Runs an Auth.js action (sign-in, sign-out) and returns where Auth.js sends the browser. */
export async function authAction(action: string, form: Record<string, string>): Promise<string> {
  const h = await headers();
  const response = await runAuthAction(await requestOrigin(), action, form, { cookie: h.get('cookie') ?? '', forwardedFor: h.get('x-forwarded-for') });
  await keepCookies(response);
  return response.headers.get('location') ?? '/';
}

/** Where Auth.js sends the browser after a password sign-in (a path of the site), or why it did not sign in. */
export async function passwordSignIn(email: string, password: string, callbackUrl: string, origin: string): Promise<string | 'refused' | 'limited' | 'unconfirmed'> {
  const answer = await authAction('callback/credentials', { email, password, callbackUrl });
  const location = new URL(answer, origin);
  if (location.searchParams.get('code') === 'rate_limited') return 'limited';
  if (location.searchParams.get('code') === 'unconfirmed') return 'unconfirmed';
  return location.searchParams.has('error') ? 'refused' : safeCallback(answer, origin);
}
