'use client';

import { startTransition, useActionState, useEffect, useMemo, useState } from 'react';
import { Field, FormMessage } from '../components/form-bits';
import { changePasswordAction, connectEditor, createBadgeAction, createToken, deleteAccountAction, latestActivityAction, saveSettings } from './actions';
import { submitted, type FormState } from '@/lib/web/account/forms';
import type { SiteAddress } from '@/lib/web/account/session';
import type { Scope } from '@/lib/auth/tokens';
import { useVisitorOrigin, useVisitorText } from './visitor-origin';

/** Copies `text`; naming the site (`site`), at the address the visitor uses (./visitor-origin.tsx). */
export function CopyButton({ text: made, label = 'Copy', site }: { text: string; label?: string; site?: SiteAddress }) {
  const text = useVisitorText(made, site);
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => undefined);
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? 'Copied' : label}
      <span className="sr-only" aria-live="polite">
        {copied ? ' to the clipboard' : ''}
      </span>
    </button>
  );
}

/** How Codetally's client is set up: the token is read from standard input, never from the command line (`ps`, shell history). */
const clientConfigCommand = (site: string) => `npx codetally config --api-url ${site} --token-stdin`;

/** The lines of ~/.wakatime.cfg that point a WakaTime plugin (wakatime-cli) at this site with `key`. */
export const wakatimeCfg = (site: string, key: string) => `[settings]\napi_url = ${site}/api/wakatime/v1\napi_key = ${key}`;

/** A scope the token form offers, with what it lets a token do (lib/auth/tokens.ts's scopeTexts) and whether it starts ticked. */
export interface ScopeChoice {
  scope: Scope;
  text: string;
  checked: boolean;
}

/**
 * A named token, and where it goes: a WakaTime editor plugin gets a key in WakaTime's format with
 * the lines of ~/.wakatime.cfg; Codetally's client, its desktop agent or a script a ct_ token
 * with the client's command. Each is shown with the settings of what it was made for only.
 */
export function TokenCreator({ site: address, scopes }: { site: SiteAddress; scopes: ScopeChoice[] }) {
  const site = useVisitorOrigin(address);
  const [state, action, pending] = useActionState<FormState, FormData>(createToken, {});
  const token = state.result?.token as string | undefined;
  const forClient = state.result?.use === 'client';
  const cfg = token && !forClient ? wakatimeCfg(site, token) : '';
  const cli = clientConfigCommand(site);
  return (
    <>
      <form action={action} className="inline" aria-label="Create a token">
        <Field name="name" label="Token name" state={state}>
          {(p) => <input {...p} type="text" placeholder="e.g. work laptop" maxLength={100} required defaultValue={submitted(state, 'name')} />}
        </Field>
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <legend>For</legend>
          <label className="check">
            <input type="radio" name="use" value="wakatime" defaultChecked={submitted(state, 'use') !== 'client'} /> a WakaTime editor plugin, wakatime-cli or another tool made for WakaTime (a README Action)
          </label>
          <label className="check">
            <input type="radio" name="use" value="client" defaultChecked={submitted(state, 'use') === 'client'} /> Codetally&apos;s client, its desktop agent, or a script
          </label>
        </fieldset>
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="sr-only">Scopes</legend>
          {scopes.map((s) => (
            <label key={s.scope} className="check">
              <input type="checkbox" name="scopes" value={s.scope} defaultChecked={s.checked} /> {s.scope} ({s.text})
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={pending}>
          Create token
        </button>
      </form>
      {state.fieldErrors?.scopes && <p className="field-error">{state.fieldErrors.scopes}</p>}
      <FormMessage state={state} />
      {token && (
        <div className="card" data-testid="new-token">
          <p>
            <strong>Your new token</strong> {state.result?.again === true ? '(“Show key” beside it shows it again)' : '(shown once)'}:
          </p>
          <p className="secret">
            <code data-testid="token-value">{token}</code>
          </p>
          <CopyButton text={token} label="Copy token" />
          {forClient ? (
            <p>
              For Codetally&apos;s client and desktop agent, run <code data-testid="token-cli-text">{cli}</code> and paste the token when it asks.
            </p>
          ) : (
            <>
              <p>
                Put these lines in <code>~/.wakatime.cfg</code> (keep your other settings), then restart your editor:
              </p>
              <pre data-testid="token-cfg-text">{cfg}</pre>
              <CopyButton text={cfg} label="Copy settings" />
            </>
          )}
        </div>
      )}
    </>
  );
}

/**
 * "Connect your editor": one key, and what to paste to use it: the two lines of ~/.wakatime.cfg
 * for WakaTime plugins, and the set-up of Codetally's own client (the `codetally` CLI, the
 * desktop agent and the Neovim plugin in the repository's client/ folder).
 */
export function EditorConnector({ site: address }: { site: SiteAddress }) {
  const site = useVisitorOrigin(address);
  const [state, action, pending] = useActionState<FormState, FormData>(connectEditor, {});
  const key = state.result?.token as string | undefined;
  const cfg = key ? wakatimeCfg(site, key) : '';
  const cli = clientConfigCommand(site);
  const nvim = `-- init.lua: the plugin from Codetally's client/nvim folder\nvim.opt.runtimepath:append('/path/to/codetally/client/nvim')\nvim.g.codetally_cmd = { '/path/to/codetally/node_modules/.bin/codetally' }\n-- today's time in the status line\nvim.o.statusline = vim.o.statusline .. " %{v:lua.require'codetally'.status()}"`;
  return (
    <>
      <form action={action} aria-label="Connect your editor">
        <button type="submit" disabled={pending}>
          Make a key for my editor
        </button>
      </form>
      <FormMessage state={state} />
      {key && (
        <div className="grid">
          <div className="card" data-testid="wakatime-cfg">
            <h3>WakaTime plugins</h3>
            <p>
              Put these lines in <code>~/.wakatime.cfg</code> (keep your other settings), then restart your editor:
            </p>
            <pre data-testid="wakatime-cfg-text">{cfg}</pre>
            <CopyButton text={cfg} label="Copy settings" />
          </div>
          <div className="card" data-testid="codetally-cli">
            <h3>Codetally&apos;s client and desktop agent</h3>
            <p>
              In a checkout of Codetally, after <code>npm install</code>, run once, and paste the key when it asks (read from standard input,
              it stays out of your shell history and the process list):
            </p>
            <pre data-testid="codetally-cli-text">{cli}</pre>
            <CopyButton text={cli} label="Copy command" />
            <CopyButton text={key} label="Copy key" />
            <p>
              To keep the key out of files, set <code>CODETALLY_TOKEN</code> where your editor and the agent run and leave out{' '}
              <code>--token-stdin</code>.
            </p>
            <p>
              Then <code>npx codetally agent</code> counts the time of the application in front (Linux, X11), and
              editors call <code>codetally heartbeat</code>. For Neovim:
            </p>
            <pre>{nvim}</pre>
          </div>
        </div>
      )}
    </>
  );
}

type Arrival = Awaited<ReturnType<typeof latestActivityAction>>;

/** The last set-up step: waits, live, for the first activity to arrive, and says what it was. */
export function FirstActivity() {
  const [arrived, setArrived] = useState<Arrival>(null);
  useEffect(() => {
    if (arrived) return;
    let live = true;
    const poll = async () => {
      if (document.visibilityState === 'visible') {
        const found = await latestActivityAction().catch(() => null);
        if (live && found) return setArrived(found);
      }
      if (live) timer = setTimeout(poll, 3000);
    };
    let timer = setTimeout(poll, 1000);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [arrived]);
  return (
    <div aria-live="polite" data-testid="first-activity">
      {arrived ? (
        <p className="notice">
          Your first activity arrived: {arrived.kind === 'editor' ? `${arrived.name} from ${arrived.source || 'your editor'}` : `${arrived.name} on ${arrived.source}`}.{' '}
          <a href="/dashboard">Show my charts</a>
        </p>
      ) : (
        <p className="muted">Waiting for your first minute of activity… this updates by itself.</p>
      )}
    </div>
  );
}

interface AccountView {
  handle: string;
  display_name: string;
  timezone: string;
  settings: Record<string, boolean>;
}

const sentences: { flag: string; title: string; sentence: string }[] = [
  { flag: 'profile_public', title: 'Public profile', sentence: 'Anyone can see your daily coding time, year calendar and weekly trend at your profile page and through the public API.' },
  { flag: 'share_languages', title: 'Share languages', sentence: 'With a public profile, your language breakdown is shown too; on the leaderboard, your top languages.' },
  { flag: 'share_editors', title: 'Share editors', sentence: 'With a public profile, which editors you use is shown too.' },
  { flag: 'share_apps', title: 'Share desktop applications', sentence: 'Allows showing which desktop applications you use; no public page shows them today, and projects are never public.' },
  {
    flag: 'share_ai',
    title: 'Share AI-assisted coding',
    sentence: 'With a public profile, your time with AI agents (which agents, the AI Coding category) and your AI and human line changes are shown too, and may be a badge. Off, AI Coding counts as Coding and an AI agent’s own plugin (such as Claude Code) counts among your editors as Other wherever your figures are public.',
  },
  { flag: 'share_machines', title: 'Share machine names', sentence: "With a public profile, the names of the machines you code on are shown too. Off, a machine's name is never public." },
  { flag: 'leaderboard', title: 'Appear on the leaderboard', sentence: 'Your name, handle and coding time for the last 7 and 30 days are listed on the public leaderboard (pages already served may show you for up to five minutes after you leave).' },
  { flag: 'community_stats', title: 'Count in community statistics', sentence: 'Your time adds, anonymously, to site-wide figures shown only when enough people are behind them.' },
  {
    flag: 'weekly_report',
    title: 'Weekly report by mail',
    sentence: 'On Monday morning, your week before (total, top languages and projects, goals met) against the week before that, sent to the email you sign in with. Every mail has a one-click unsubscribe link.',
  },
];

/** The sharing settings; `mail`: whether this server sends mail (without it, no weekly report can be asked for). */
export function SettingsForm({ account, mail }: { account: AccountView; mail: boolean }) {
  const [state, action, pending] = useActionState<FormState, FormData>(saveSettings, {});
  return (
    <form action={action} aria-label="Sharing settings">
      {sentences.map((s) => {
        const unsent = s.flag === 'weekly_report' && !mail;
        return (
          <label className="check" key={s.flag}>
            <input
              type="checkbox"
              name={s.flag}
              disabled={unsent}
              defaultChecked={!unsent && ((state.values?.[s.flag] as boolean | undefined) ?? account.settings[s.flag])}
            />
            <span>
              <strong>{s.title}.</strong> {unsent ? 'This server sends no mail: its operator has not set it up (SMTP_URL and MAIL_FROM).' : s.sentence}
            </span>
          </label>
        );
      })}
      <Field name="display_name" label="Display name" state={state}>
        {(p) => <input {...p} type="text" defaultValue={submitted(state, 'display_name') ?? account.display_name} maxLength={100} />}
      </Field>
      <Field name="timezone" label="Timezone" state={state} hint="IANA name, e.g. Europe/Berlin: “today” and your day boundaries follow it.">
        {(p) => <input {...p} type="text" defaultValue={submitted(state, 'timezone') ?? account.timezone} list="timezones" />}
      </Field>
      <FormMessage state={state} />
      <p>
        <button type="submit" disabled={pending}>
          Save settings
        </button>
      </p>
    </form>
  );
}

const styles = ['flat', 'flat-square', 'plastic', 'for-the-badge', 'social'];

export function BadgeMaker({ languages }: { languages: string[] }) {
  const [state, action, pending] = useActionState<FormState, FormData>(createBadgeAction, {});
  const [draft, setDraft] = useState({ metric: 'total', range: '7d', language: languages[0] ?? '', style: 'flat', label: '', color: '' });
  const preview = useMemo(() => `/dashboard/badge-preview?${new URLSearchParams(draft)}`, [draft]);
  const set = (key: keyof typeof draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  return (
    <form
      action={action}
      aria-label="Create a badge"
      onSubmit={(e) => {
        // Keep the chosen options after creating (a plain form action would reset them).
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        startTransition(() => action(data));
      }}
    >
      <div className="grid">
        <div>
          <Field name="metric" label="Figure" state={state}>
            {(p) => (
              <select {...p} value={draft.metric} onChange={set('metric')}>
                <option value="total">Total coding time</option>
                <option value="daily_average">Daily average (over the days you coded)</option>
                <option value="language">Time in one language</option>
                <option value="ai">AI-assisted coding time (needs “Share AI-assisted coding”)</option>
              </select>
            )}
          </Field>
          <Field name="range" label="Range" state={state}>
            {(p) => (
              <select {...p} value={draft.range} onChange={set('range')}>
                <option value="7d">Last 7 days</option>
                <option value="30d">Last 30 days</option>
                <option value="365d">Last 365 days</option>
                <option value="all">All time</option>
              </select>
            )}
          </Field>
          {draft.metric === 'language' && (
            <Field name="language" label="Language" state={state}>
              {(p) => <input {...p} type="text" value={draft.language} onChange={set('language')} list="my-languages" maxLength={64} />}
            </Field>
          )}
          <datalist id="my-languages">
            {languages.map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
        </div>
        <div>
          <Field name="style" label="Style" state={state}>
            {(p) => (
              <select {...p} value={draft.style} onChange={set('style')}>
                {styles.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field name="label" label="Label (optional)" state={state}>
            {(p) => <input {...p} type="text" value={draft.label} onChange={set('label')} maxLength={64} placeholder="coded 7d" />}
          </Field>
          <Field name="color" label="Colour (optional)" state={state} hint="A hex colour or a shields.io name such as blue or brightgreen.">
            {(p) => <input {...p} type="text" value={draft.color} onChange={set('color')} maxLength={20} placeholder="blue" />}
          </Field>
        </div>
      </div>
      <p>
        Preview: {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={preview} alt="Badge preview" data-testid="badge-preview" style={{ verticalAlign: 'middle' }} />
      </p>
      <FormMessage state={state} />
      <p>
        <button type="submit" disabled={pending}>
          Create badge
        </button>
      </p>
    </form>
  );
}

export function DeleteAccount({ handle }: { handle: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(deleteAccountAction, {});
  return (
    <form action={action} aria-label="Delete my account">
      <Field name="confirm" label={`Type your handle (${handle}) to delete your account and every piece of data`} state={state}>
        {(p) => <input {...p} type="text" autoComplete="off" />}
      </Field>
      <p>
        <button type="submit" className="danger" disabled={pending}>
          Delete my account
        </button>
      </p>
    </form>
  );
}

export function PasswordForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(changePasswordAction, {});
  return (
    <form action={action} aria-label="Change my password" noValidate>
      <Field name="current" label="Current password" state={state}>
        {(p) => <input {...p} type="password" autoComplete="current-password" required />}
      </Field>
      <Field name="password" label="New password" state={state} hint="At least 10 characters. Every other session is signed out.">
        {(p) => <input {...p} type="password" autoComplete="new-password" required minLength={10} />}
      </Field>
      <FormMessage state={state} />
      <p>
        <button type="submit" disabled={pending}>
          Change password
        </button>
      </p>
    </form>
  );
}
