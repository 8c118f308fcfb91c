'use client';

import { useActionState, type ReactNode } from 'react';
import { FormMessage } from '../../../components/form-bits';
import { submitted, type FormState } from '@/lib/web/account/forms';
import { startRemoteImportAction } from './actions';
import styles from './import.module.css';

// The Import page's imports by key: from WakaTime (its data dump, or a download link the user
// pasted) and from a compatible server (its API address and a key). Plain form posts: they work
// without JavaScript. The key field is a password field and never filled in again.

/** A labelled input with its hint and error tied to it, its id under the form's `prefix` (both forms have an `api_key`). */
function Field({ prefix, name, label, state, hint, children }: { prefix: string; name: string; label: string; state: FormState; hint: string; children: (props: { id: string; name: string; 'aria-invalid'?: boolean; 'aria-describedby': string }) => ReactNode }) {
  const id = `${prefix}-${name.replace(/_/g, '-')}`;
  const error = state.fieldErrors?.[name];
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <div id={`${id}-hint`} className="muted">
        {hint}
      </div>
      {children({ id, name, 'aria-invalid': error ? true : undefined, 'aria-describedby': [`${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') })}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function WakatimeForm({ disabled }: { disabled: boolean }) {
  const [state, action, pending] = useActionState<FormState, FormData>(startRemoteImportAction, {});
  const mine = submitted(state, 'from') === 'wakatime' || !state.values;
  const shown = mine ? state : {};
  return (
    <form action={action} aria-labelledby="from-wakatime" className={`card ${styles.form}`}>
      <h3 id="from-wakatime">From WakaTime, by key</h3>
      <input type="hidden" name="from" value="wakatime" />
      <Field prefix="waka" name="api_key" label="WakaTime API key" state={shown} hint="wakatime.com, Settings, API Key. Used for this import only; never stored.">
        {(p) => <input {...p} type="password" autoComplete="off" spellCheck={false} placeholder="waka_…" required disabled={disabled || pending} />}
      </Field>
      <Field
        prefix="waka"
        name="download_url"
        label="Data dump download link (optional)"
        state={shown}
        hint="WakaTime sometimes makes no data dump by key: then export your heartbeats on wakatime.com (Settings, Export) and paste the link here."
      >
        {(p) => <input {...p} type="url" inputMode="url" defaultValue={mine ? submitted(state, 'download_url') : undefined} disabled={disabled || pending} />}
      </Field>
      <button type="submit" disabled={disabled || pending}>
        Import from WakaTime
      </button>
      <FormMessage state={shown} />
    </form>
  );
}

function CompatibleForm({ disabled }: { disabled: boolean }) {
  const [state, action, pending] = useActionState<FormState, FormData>(startRemoteImportAction, {});
  const shown = submitted(state, 'from') === 'compatible' || !state.values ? state : {};
  return (
    <form action={action} aria-labelledby="from-compatible" className={`card ${styles.form}`}>
      <h3 id="from-compatible">From a compatible server</h3>
      <input type="hidden" name="from" value="compatible" />
      <Field prefix="compat" name="api_url" label="API address" state={shown} hint="Wakapi: https://host/api (or /api/compat/wakatime/v1); Hackatime or another Codetally: https://host/api/v1.">
        {(p) => <input {...p} type="url" inputMode="url" required placeholder="https://wakapi.example.com/api" defaultValue={submitted(shown, 'api_url')} disabled={disabled || pending} />}
      </Field>
      <Field prefix="compat" name="api_key" label="API key there" state={shown} hint="Used for this import only; never stored.">
        {(p) => <input {...p} type="password" autoComplete="off" spellCheck={false} required disabled={disabled || pending} />}
      </Field>
      <button type="submit" disabled={disabled || pending}>
        Import from this server
      </button>
      <FormMessage state={shown} />
    </form>
  );
}

export function RemoteImportForms({ busy }: { busy: boolean }) {
  return (
    <div className="grid">
      <WakatimeForm disabled={busy} />
      <CompatibleForm disabled={busy} />
    </div>
  );
}
