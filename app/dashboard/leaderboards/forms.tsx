'use client';

import { useActionState } from 'react';
import { Field, FormMessage } from '../../components/form-bits';
import { createBoardAction, joinBoardAction } from './actions';
import { submitted, type FormState } from '@/lib/web/account/forms';

/** Makes a private leaderboard; works as a plain form post without JavaScript. */
export function CreateBoardForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(createBoardAction, {});
  return (
    <form action={action} aria-label="Make a private leaderboard">
      <Field name="name" label="Name" state={state}>
        {(p) => <input {...p} type="text" required maxLength={100} defaultValue={submitted(state, 'name')} />}
      </Field>
      <button type="submit" disabled={pending}>
        Make leaderboard
      </button>
      <FormMessage state={state} />
    </form>
  );
}

/** Joins a private leaderboard by its invite code. */
export function JoinBoardForm({ code, label = 'Join' }: { code?: string; label?: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(joinBoardAction, {});
  return (
    <form action={action} aria-label="Join a private leaderboard">
      {code ? (
        <input type="hidden" name="code" value={code} />
      ) : (
        <Field name="code" label="Invite code" state={state}>
          {(p) => <input {...p} type="text" required maxLength={64} autoComplete="off" defaultValue={submitted(state, 'code')} />}
        </Field>
      )}
      <button type="submit" disabled={pending}>
        {label}
      </button>
      <FormMessage state={state} />
    </form>
  );
}
