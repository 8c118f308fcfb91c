'use server';

import { redirect } from 'next/navigation';
import { signUp, signUpSchema } from '@/lib/accounts/sign-in';
import { signInOptions } from '@/lib/auth/providers';
import { getDb } from '@/lib/db/client';
import { authAction } from '@/lib/web/account/auth-actions';
import { formError, parseForm, safeCallback, signedUpLocation, type FormState } from '@/lib/web/account/forms';
import { chosenPlan } from '@/lib/web/public/pricing';
import { requestOrigin, visitorAddress } from '@/lib/web/account/session';

/** Where Auth.js sends the browser after a password sign-in (a path of the site), or why it did not sign in. */
async function passwordSignIn(email: string, password: string, callbackUrl: string, origin: string): Promise<string | 'refused' | 'limited'> {
  const answer = await authAction('callback/credentials', { email, password, callbackUrl });
  const location = new URL(answer, origin);
  if (location.searchParams.get('code') === 'rate_limited') return 'limited';
  return location.searchParams.has('error') ? 'refused' : safeCallback(answer, origin);
}

export async function signInWithPassword(_: FormState, form: FormData): Promise<FormState> {
  const email = String(form.get('email') ?? '');
  const password = String(form.get('password') ?? '');
  const values = { email };
  if (!email || !password) {
    return { fieldErrors: { ...(!email && { email: 'Enter your email.' }), ...(!password && { password: 'Enter your password.' }) }, values };
  }
  const origin = await requestOrigin();
  const location = await passwordSignIn(email, password, safeCallback(form.get('callbackUrl'), origin), origin);
  if (location === 'limited') return { message: 'Too many sign-in attempts for this account or from your address. Try again in 15 minutes.', values };
  if (location === 'refused') return { message: 'That email and password do not match an account.', values };
  redirect(location);
}

export async function signInWithProvider(form: FormData): Promise<void> {
  const provider = String(form.get('provider'));
  if (!signInOptions().oauth.some((o) => o.id === provider)) redirect('/signin');
  redirect(await authAction(`signin/${provider}`, { callbackUrl: safeCallback(form.get('callbackUrl'), await requestOrigin()) }));
}

export async function signUpWithPassword(_: FormState, form: FormData): Promise<FormState> {
  if (!signInOptions().password) return { message: 'Email and password sign-up is turned off here.' };
  const input = {
    handle: String(form.get('handle') ?? ''),
    email: String(form.get('email') ?? ''),
    password: String(form.get('password') ?? ''),
    timezone: String(form.get('timezone') ?? '') || undefined,
  };
  const values = { handle: input.handle, email: input.email };
  const parsed = parseForm(signUpSchema, input);
  if ('state' in parsed) return { ...parsed.state, values };
  try {
    await signUp(await getDb(), parsed.data, await visitorAddress());
  } catch (err) {
    return formError(err, values);
  }
  // The same answer whether the email was new or already had an account: sign in next (still
  // naming the plan chosen on the pricing page, if any).
  redirect(signedUpLocation((await chosenPlan(await getDb(), form.get('plan')))?.id));
}

export async function signOut(): Promise<void> {
  await authAction('signout', { callbackUrl: '/' });
  redirect('/');
}
