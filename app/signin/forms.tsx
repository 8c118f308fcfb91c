'use client';

import { useActionState, useSyncExternalStore } from 'react';
import { Field, FormMessage } from '../components/form-bits';
import { signInWithPassword, signUpWithPassword } from './actions';
import { SendAgainForm } from '../forgot-password/forms';
import { submitted, type FormState } from '@/lib/web/account/forms';

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(signInWithPassword, {});
  return (
    <>
      <form action={action} noValidate>
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <Field name="email" label="Email" state={state}>
          {(p) => <input {...p} type="email" autoComplete="email" required defaultValue={submitted(state, 'email')} />}
        </Field>
        <Field name="password" label="Password" state={state}>
          {(p) => <input {...p} type="password" autoComplete="current-password" required />}
        </Field>
        <FormMessage state={state} />
        <p>
          <button type="submit" disabled={pending}>
            Sign in
          </button>
        </p>
      </form>
      {state.result?.unconfirmed === true && <SendAgainForm email={submitted(state, 'email') ?? ''} next={callbackUrl === '/dashboard' ? undefined : callbackUrl} />}
    </>
  );
}

const noChanges = () => () => {};
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';

/**
 * `plan`: the plan chosen on the pricing page, sent with the form so the next page can still name
 * it; `callbackUrl`: where the visitor was going (an invite link), carried through sign-up.
 */
export function SignUpForm({ plan, callbackUrl }: { plan?: string; callbackUrl?: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(signUpWithPassword, {});
  // The browser's timezone, known only in the browser (empty in the server's HTML: the server's default applies).
  const timezone = useSyncExternalStore(noChanges, browserTimeZone, () => '');
  return (
    <form action={action} noValidate>
      <input type="hidden" name="timezone" value={timezone} />
      {plan && <input type="hidden" name="plan" value={plan} />}
      {callbackUrl && <input type="hidden" name="callbackUrl" value={callbackUrl} />}
      <Field name="handle" label="Handle" state={state} hint="Your public name in URLs: letters, digits, - and _.">
        {(p) => <input {...p} type="text" autoComplete="username" required maxLength={39} defaultValue={submitted(state, 'handle')} />}
      </Field>
      <Field name="email" label="Email" state={state}>
        {(p) => <input {...p} type="email" autoComplete="email" required defaultValue={submitted(state, 'email')} />}
      </Field>
      <Field name="password" label="Password" state={state} hint="At least 10 characters.">
        {(p) => <input {...p} type="password" autoComplete="new-password" required minLength={10} />}
      </Field>
      <FormMessage state={state} />
      <p>
        <button type="submit" disabled={pending}>
          Create account
        </button>
      </p>
    </form>
  );
}
