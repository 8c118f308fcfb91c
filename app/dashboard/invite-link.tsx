'use client';

import { useState, useSyncExternalStore } from 'react';
import type { SiteAddress } from '@/lib/web/account/session';
import { useVisitorText } from './visitor-origin';

// A team's or private leaderboard's invite link, as its page hands it out.

const noChanges = () => () => {};

/**
 * The invite link in a read-only field (selectable and copied by hand without JavaScript), and,
 * once the page runs, a button that copies it.
 */
export function InviteLink({ link: made, site }: { link: string; site: SiteAddress }) {
  const link = useVisitorText(made, site);
  const [copied, setCopied] = useState(false);
  // False in the server's HTML, true once hydrated: a button that could do nothing is not drawn.
  const running = useSyncExternalStore(noChanges, () => true, () => false);
  return (
    <p>
      <label htmlFor="invite-link">Invite link</label>
      <input id="invite-link" type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      {running && (
        <button type="button" className="secondary" onClick={() => navigator.clipboard.writeText(link).then(() => setCopied(true), () => setCopied(false))}>
          Copy invite link
        </button>
      )}
      <span role="status" className="muted">
        {copied ? ' Copied.' : ''}
      </span>
    </p>
  );
}
