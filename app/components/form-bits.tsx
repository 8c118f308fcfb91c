import type { ReactNode } from 'react';
import type { FormState } from '@/lib/web/account/forms';

// Labelled inputs with their error next to them, tied together for screen readers.

export function Field({
  name,
  label,
  state,
  hint,
  children,
}: {
  name: string;
  label: string;
  state?: FormState;
  hint?: string;
  children: (props: { id: string; name: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = `f-${name.replace(/\W/g, '-')}`;
  const error = state?.fieldErrors?.[name];
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <div id={`${id}-hint`} className="muted">
          {hint}
        </div>
      )}
      {children({ id, name, 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function FormMessage({ state }: { state?: FormState }) {
  if (!state?.message) return null;
  return (
    <p className={state.ok ? 'notice' : 'form-error'} role="status">
      {state.message}
    </p>
  );
}
