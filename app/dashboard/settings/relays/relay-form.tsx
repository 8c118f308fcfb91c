'use client';

import { useActionState } from 'react';
import { Field, FormMessage } from '../../../components/form-bits';
import { createRelayAction } from './actions';
import { submitted, type FormState } from '@/lib/web/account/forms';

// Adding a relay; works as a plain form post without JavaScript. The key is never shown again,
// not even after a refused submit.

export function RelayForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(createRelayAction, {});
  return (
    <form action={action} aria-label="Add a relay">
      <Field name="api_url" label="API address of the other service" state={state} hint="For example https://wakatime.com/api/v1, https://wakapi.dev/api, or another Codetally's https://host/api/v1">
        {(p) => <input {...p} type="url" required maxLength={2048} inputMode="url" autoComplete="off" defaultValue={submitted(state, 'api_url')} />}
      </Field>
      <Field name="api_key" label="Your key there" state={state} hint="Stored encrypted; never shown again">
        {(p) => <input {...p} type="password" required maxLength={512} autoComplete="off" />}
      </Field>
      <Field name="name" label="Name (optional)" state={state}>
        {(p) => <input {...p} type="text" maxLength={64} defaultValue={submitted(state, 'name')} />}
      </Field>
      {state.fieldErrors?.[''] && (
        <p className="field-error" role="alert">
          {state.fieldErrors['']}
        </p>
      )}
      <button type="submit" disabled={pending}>
        Add relay
      </button>
      <FormMessage state={state} />
    </form>
  );
}
