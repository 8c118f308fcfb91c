'use client';

import { useActionState, useState } from 'react';
import { FormMessage } from '../../components/form-bits';
import type { FormState } from '@/lib/web/account/forms';
import type { SiteAddress } from '@/lib/web/account/session';
import { useVisitorOrigin } from '../visitor-origin';
import { CopyButton, wakatimeCfg } from '../widgets';
import { showKeyAction } from './key-actions';

/**
 * An editor key shown again, as WakaTime does: a second machine takes the same key (with its
 * ~/.wakatime.cfg lines) rather than a new one. Asked for with a button (the key is in no page's
 * HTML), hidden again with another.
 */
export function ShowKey({ id, name, site: address }: { id: string; name: string; site: SiteAddress }) {
  const site = useVisitorOrigin(address);
  const [state, action, pending] = useActionState<FormState, FormData>(showKeyAction, {});
  const [hidden, setHidden] = useState(false);
  const key = !hidden && (state.result?.token as string | undefined);
  return (
    <div className="show-key">
      {key ? (
        <div data-testid="shown-key">
          <p className="secret">
            <code data-testid="shown-key-value">{key}</code>
          </p>
          <pre data-testid="shown-key-cfg">{wakatimeCfg(site, key)}</pre>
          <p>
            <CopyButton text={wakatimeCfg(site, key)} label="Copy the settings for another machine" />{' '}
            <button type="button" className="secondary" onClick={() => setHidden(true)}>
              Hide
            </button>
          </p>
        </div>
      ) : (
        <form action={action} onSubmit={() => setHidden(false)}>
          <input type="hidden" name="id" value={id} />
          <button type="submit" className="secondary" disabled={pending} aria-label={`Show key ${name}`}>
            Show key
          </button>
        </form>
      )}
      <FormMessage state={state} />
    </div>
  );
}
