'use server';

import { redirect } from 'next/navigation';
import { after } from 'next/server';
import { signUpByMail } from '@/lib/accounts/confirmation';
import { signUp, signUpSchema } from '@/lib/accounts/sign-in';
import { signInOptions } from '@/lib/auth/providers';
import { getDb } from '@/lib/db/client';
import { mailConfigured } from '@/lib/mail/transport';
import { authAction, passwordSignIn } from '@/lib/web/account/auth-actions';
import { formError, parseForm, safeCallback, signedUpLocation, welcomeLocation, type FormState } from '@/lib/web/account/forms';
import { sameOriginPath } from '@/lib/http/url';
import { chosenPlan } from '@/lib/web/public/pricing';
import { requestOrigin, visitorAddress } from '@/lib/web/account/session';

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
  if (location === 'unconfirmed') return { message: 'Confirm your email first: open the link we mailed to it when you signed up.', values, result: { unconfirmed: true } };
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
  // Where the visitor was going before signing up (an invite link): a path of this site only,
  // anything else is dropped, as sign-in drops it (no open redirect).
  const next = sameOriginPath(form.get('callbackUrl'), await requestOrigin());
  const parsed = parseForm(signUpSchema, input);
  if ('state' in parsed) return { ...parsed.state, values };
  let created: string | null;
  try {
    // With mail: the account waits for its address to be confirmed; new and taken emails get the
    // same answer, and the mail says which it was (lib/accounts/confirmation.ts).
    if (mailConfigured()) {
      after((await signUpByMail(await getDb(), parsed.data, await visitorAddress(), next)).delivered);
      created = null;
    } else created = await signUp(await getDb(), parsed.data, await visitorAddress());
  } catch (err) {
    return formError(err, values);
  }
  if (mailConfigured()) redirect(`/signup?${new URLSearchParams({ sent: '1', ...(next && { callbackUrl: next }) })}`);
  const plan = (await chosenPlan(await getDb(), form.get('plan')))?.id;
  // A new email: the account is the visitor's, signed in at once and sent where it was going, or
  // to the dashboard's welcome. Without mail a new email is told apart from a taken one by where the browser lands;
  // sign-ups are limited per client address (attemptPolicies.signUp), which bounds how many
  // emails one can test that way.
  if (created) {
    const origin = await requestOrigin();
    const location = await passwordSignIn(parsed.data.email, parsed.data.password, welcomeLocation(plan, next), origin);
    if (location !== 'refused' && location !== 'limited') redirect(location);
  }
  // The email already had an account (or signing in was refused, e.g. over its limit): sign in
  // next, still naming the plan chosen on the pricing page, if any.
  redirect(signedUpLocation(plan, next));
}

export async function signOut(): Promise<void> {
  await authAction('signout', { callbackUrl: '/' });
  redirect('/');
}
