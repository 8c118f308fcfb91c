import type { Metadata } from 'next';
import { originText } from '@/lib/accounts/token-origin';
import { pluginScopes, scopes, scopeTexts } from '@/lib/auth/tokens';
import { wallClock } from '@/lib/local-time';
import { keysData } from '@/lib/web/account/dashboard';
import { requireUser } from '@/lib/web/account/session';
import { revokeTokenAction } from '../actions';
import { RowAction } from '../row-action';
import { EditorConnector, TokenCreator } from '../widgets';
import { ShowKey } from './show-key';

// Settings, Keys: a key for one's WakaTime plugins, tokens for Codetally's own client and the
// API, and every token made, with where it was made and when it was last used.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Keys · Settings', description: 'Keys for your editors and tokens for the API.', robots: { index: false } };

/**
 * Revoking a token cannot be undone: a first click opens the question, a second one revokes.
 * A disclosure, so it asks without JavaScript too.
 */
function RevokeToken({ id, name }: { id: string; name: string }) {
  return (
    <details className="confirm">
      <summary aria-label={`Revoke token ${name}…`}>Revoke…</summary>
      <p>Editors and agents using “{name}” stop sending at once. This cannot be undone.</p>
      <RowAction action={revokeTokenAction} id={id} label="Yes, revoke it" ariaLabel={`Yes, revoke token ${name}`} />
    </details>
  );
}

/** The token form's scopes, each with what it allows; a plugin's ticked. */
const scopeChoices = scopes.map((scope) => ({ scope, text: scopeTexts[scope], checked: pluginScopes.includes(scope) }));

export default async function KeysPage() {
  const user = await requireUser('/dashboard/settings');
  const { tokens, shownAgain, site } = await keysData(user);
  // Times as the user's own clock reads them, as every figure of theirs.
  const when = (iso: string | null) => (iso ? wallClock(iso, user.timezone) : 'never');
  return (
    <>
      <section aria-labelledby="editor">
        <h2 id="editor">Connect your editor</h2>
        <p>
          Every WakaTime editor plugin can send to Codetally: make a key and paste two lines into <code>~/.wakatime.cfg</code>. The same key
          sets up Codetally&apos;s own client. Another machine can take the same key: “Show key” beside it, below, shows it and its
          settings again (keys for editors only; other tokens are shown once). Or give each device its own key, so you can revoke one alone.
          Is each one sending? See <a href="/dashboard/settings/sending">Sending</a>.
        </p>
        <EditorConnector site={site} />
      </section>

      <h2 id="tokens">Tokens</h2>
      <p>
        A token lets an editor plugin, the desktop agent or a script send your activity or read your figures: it can do what its scopes say
        and nothing more. For a README Action or another tool that only reads, make one for a tool made for WakaTime with <code>stats</code>{' '}
        alone: it cannot send time, change your account or your projects, and it does not learn which projects you hid.
      </p>
      <TokenCreator site={site} scopes={scopeChoices} />
      {tokens.length === 0 ? (
        <p className="muted">No tokens yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Your tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Scopes</th>
                <th scope="col">Made ({user.timezone})</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>
                    <code>{t.prefix}…</code>
                  </td>
                  <td>{t.scopes.join(', ')}</td>
                  <td>
                    {when(t.created_at)}, from {originText(t)}
                  </td>
                  <td>{when(t.last_used_at)}</td>
                  <td>
                    {t.revoked_at ? (
                      `revoked ${when(t.revoked_at)}`
                    ) : (
                      <>
                        {shownAgain.has(t.id) && <ShowKey id={t.id} name={t.name} site={site} />}
                        <RevokeToken id={t.id} name={t.name} />
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
