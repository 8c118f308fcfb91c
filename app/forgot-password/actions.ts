'use server';

import { after } from 'next/server';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { confirmEmail, resendConfirmation } from '@/lib/accounts/confirmation';
import { requestPasswordReset, resetPassword, RESET_MINUTES } from '@/lib/accounts/password-reset';
import { emailSchema, passwordSchema } from '@/lib/accounts/sign-in';
import { getDb } from '@/lib/db/client';
import { mailConfigured } from '@/lib/mail/transport';
import { formError, parseForm, type FormState } from '@/lib/web/account/forms';
import { passwordSignIn } from '@/lib/web/account/auth-actions';
import { requestOrigin, visitorAddress, visitorAsker } from '@/lib/web/account/session';
import { sameOriginPath } from '@/lib/http/url';

// The forms of links sent by mail: asking for a password reset, choosing the new password,
// confirming an address, and asking for a confirmation link again. Mails leave after the answer
// (`after`): how long an answer takes must not tell whether an address has an account.

const notAvailable: FormState = { message: 'This site sends no mail: ask its operator to set a new password for you.' };

export async function requestReset(_: FormState, form: FormData): Promise<FormState> {
  if (!mailConfigured()) return notAvailable;
  const values = { email: String(form.get('email') ?? '') };
  const parsed = parseForm(z.object({ email: emailSchema }), values);
  if ('state' in parsed) return { ...parsed.state, values };
  try {
    after((await requestPasswordReset(await getDb(), parsed.data.email, await visitorAsker())).delivered);
  } catch (err) {
    return formError(err, values);
  }
  return {
    ok: true,
    message: `If an account has this address, a link to choose a new password is on its way. It works once, for ${RESET_MINUTES} minutes. No mail? Look in the spam folder, or ask again in a few minutes.`,
    values,
  };
}

export async function chooseNewPassword(_: FormState, form: FormData): Promise<FormState> {
  const parsed = parseForm(z.object({ token: z.string(), password: passwordSchema }), { token: String(form.get('token') ?? ''), password: String(form.get('password') ?? '') });
  if ('state' in parsed) return parsed.state;
  // The box is checked unless its owner unticked it: a form without it sends nothing for it.
  const revokeTokens = form.get('revoke_tokens') === 'on';
  if (!(await resetPassword(await getDb(), parsed.data.token, parsed.data.password, { revokeTokens }))) {
    return { message: 'This link does not work any more: it was used, it expired, or a newer one was sent. Ask for a new one.' };
  }
  redirect('/signin?reset=1');
}

export async function confirmAddress(_: FormState, form: FormData): Promise<FormState> {
  const password = String(form.get('password') ?? '');
  if (!password) return { fieldErrors: { password: 'Enter the password you chose when you signed up.' } };
  let outcome;
  try {
    outcome = await confirmEmail(await getDb(), String(form.get('token') ?? ''), password, await visitorAddress());
  } catch (err) {
    return formError(err);
  }
  if (!outcome.confirmed && outcome.why === 'link') {
    return { message: 'This link does not work any more: it was used, it expired, or the address was signed up again since (the newest mail has the link that works). Sign in to have a new one sent.' };
  }
  if (!outcome.confirmed) {
    return {
      fieldErrors: { password: 'That is not the password this sign-up was made with.' },
      message: 'Only the password chosen at sign-up confirms this address. Did not sign up yourself? Ignore the mail. Forgot the password? Reset it with “Forgot your password”: that proves the address too.',
    };
  }
  // Confirmed: signed in at once, with the password just given, and on to where the sign-up was
  // going (an invite link the mailed link carried: a path of this site only), else the welcome.
  const origin = await requestOrigin();
  const callbackUrl = sameOriginPath(form.get('next'), origin) ?? '/dashboard?welcome=1';
  const location = await passwordSignIn(outcome.email, password, callbackUrl, origin);
  redirect(location === 'refused' || location === 'limited' || location === 'unconfirmed' ? `/signin?${new URLSearchParams({ confirmed: '1', callbackUrl })}` : location);
}

export async function sendConfirmationAgain(_: FormState, form: FormData): Promise<FormState> {
  if (!mailConfigured()) return { message: 'This site sends no mail.' };
  const email = emailSchema.safeParse(form.get('email'));
  if (!email.success) return { message: 'Enter your email and password again first.' };
  try {
    // Where the sign-in was going (an invite link): a path of this site only, as sign-up keeps it.
    const next = sameOriginPath(form.get('next'), await requestOrigin());
    after((await resendConfirmation(await getDb(), email.data, await visitorAsker(), next)).delivered);
  } catch (err) {
    return formError(err);
  }
  // The same words whether a link left now or one sent in the last minutes is still on its way.
  return { ok: true, message: 'A link is on its way to your address (if one was sent in the last few minutes, that one). It works once, for 24 hours.' };
}
