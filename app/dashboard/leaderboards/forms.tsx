'use client';

import { useActionState, useState } from 'react';
import { Field, FormMessage } from '../../components/form-bits';
import { createBoardAction, joinBoardAction } from './actions';
import { submitted, type FormState } from '@/lib/web/account/forms';
import type { SiteAddress } from '@/lib/web/account/session';
import { useVisitorText } from '../visitor-origin';

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

/** The invite link, with a button that copies it (the link stays selectable without JavaScript). */
export function InviteLink({ link: made, site }: { link: string; site: SiteAddress }) {
  const link = useVisitorText(made, site);
  const [copied, setCopied] = useState(false);
  return (
    <p>
      <label htmlFor="invite-link">Invite link</label>
      <input id="invite-link" type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      <button
        type="button"
        className="secondary"
        onClick={() => navigator.clipboard.writeText(link).then(() => setCopied(true), () => setCopied(false))}
      >
        Copy invite link
      </button>
      <span role="status" className="muted">
        {copied ? ' Copied.' : ''}
      </span>
    </p>
  );
}
