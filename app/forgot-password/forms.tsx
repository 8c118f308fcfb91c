'use client';

import { useActionState } from 'react';
import { Field, FormMessage } from '../components/form-bits';
import { chooseNewPassword, confirmAddress, requestReset, sendConfirmationAgain } from './actions';
import { submitted, type FormState } from '@/lib/web/account/forms';

export function ForgotPasswordForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(requestReset, {});
  return (
    <form action={action} noValidate>
      <Field name="email" label="Email" state={state}>
        {(p) => <input {...p} type="email" autoComplete="email" required defaultValue={submitted(state, 'email')} />}
      </Field>
      <FormMessage state={state} />
      <p>
        <button type="submit" disabled={pending}>
          Send me a link
        </button>
      </p>
    </form>
  );
}

export function NewPasswordForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(chooseNewPassword, {});
  return (
    <form action={action} noValidate>
      <input type="hidden" name="token" value={token} />
      <Field name="password" label="New password" state={state} hint="At least 10 characters. Every device signed in is signed out.">
        {(p) => <input {...p} type="password" autoComplete="new-password" required minLength={10} />}
      </Field>
      <label className="check">
        <input type="checkbox" name="revoke_tokens" defaultChecked aria-describedby="revoke-hint" />
        <span>
          Also revoke every API token and editor key
          <span id="revoke-hint" className="muted">
            {' '}
            (recommended: someone who knew your old password may have made one; make new keys in the dashboard afterwards)
          </span>
        </span>
      </label>
      <FormMessage state={state} />
      <p>
        <button type="submit" disabled={pending}>
          Set the new password
        </button>
      </p>
    </form>
  );
}

/** `next`: where the sign-up was going (an invite link), where confirming lands. */
export function ConfirmForm({ token, next }: { token: string; next?: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(confirmAddress, {});
  return (
    <form action={action} noValidate>
      <input type="hidden" name="token" value={token} />
      {next && <input type="hidden" name="next" value={next} />}
      <Field name="password" label="The password you chose when you signed up" state={state}>
        {(p) => <input {...p} type="password" autoComplete="current-password" required />}
      </Field>
      <FormMessage state={state} />
      <p>
        <button type="submit" disabled={pending}>
          Confirm my email and sign in
        </button>
      </p>
    </form>
  );
}

/**
 * After a sign-in refused for an unconfirmed address: one button that mails a new link. `next`:
 * where the sign-in was going (an invite link), carried by the new link as by the first.
 */
export function SendAgainForm({ email, next }: { email: string; next?: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(sendConfirmationAgain, {});
  return (
    <form action={action}>
      <input type="hidden" name="email" value={email} />
      {next && <input type="hidden" name="next" value={next} />}
      <FormMessage state={state} />
      <p>
        <button type="submit" className="secondary" disabled={pending || state.ok}>
          Send the link again
        </button>
      </p>
    </form>
  );
}
