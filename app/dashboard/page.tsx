import type { Metadata } from 'next';
import { originText } from '@/lib/accounts/token-origin';
import { SignedInPage } from '../components/account-link';
import { Card } from '../components/card';
import { Breakdown, DailyBars, Hitmap, WeekdayHours, WeeklyBars } from '../components/chart-figures';
import { Figures } from '../components/figures';
import { signOut } from '../signin/actions';
import { deleteBadgeAction, refreshBadgeAction, revokeTokenAction } from './actions';
import { PlanNotice } from '../signup/plan-notice';
import { DumpImporter } from './importer';
import { RangePicker } from './range-picker';
import { ChartEmbeds } from './chart-embeds';
import { ReadmeCards } from './readme-cards';
import { BadgeMaker, CopyButton, DeleteAccount, EditorConnector, FirstActivity, PasswordForm, SettingsForm, TokenCreator } from './widgets';
import { formatDuration } from '@/lib/badges/format';
import { getDb } from '@/lib/db/client';
import { mailConfigured } from '@/lib/mail/transport';
import { dashboardData } from '@/lib/web/account/dashboard';
import { PlanUsage } from './plan-usage';
import { dashboardRange } from '@/lib/web/account/dashboard-range';
import { requireUser } from '@/lib/web/account/session';
import { rangeSearch } from '@/lib/web/account/projects';
import { chosenPlan } from '@/lib/web/public/pricing';
import { VisitorInput } from './visitor-origin';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Dashboard', description: 'Your coding time, tokens, sharing settings and badges.', robots: { index: false } };

const when = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) + ' UTC' : 'never');

/** A one-button form acting on one token or badge; works without JavaScript. */
function RowAction({ action, id, label, ariaLabel }: { action: (form: FormData) => Promise<void>; id: string; label: string; ariaLabel: string }) {
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="secondary" aria-label={ariaLabel}>
        {label}
      </button>
    </form>
  );
}

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

export default async function Dashboard({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const search = await searchParams;
  const range = dashboardRange(search);
  const { account, time, language, hitmap, weekly, tokens, projects, apps, site, badges, isNew } = await dashboardData(user, range.query);
  // The plan chosen on the pricing page before signing up (/dashboard?welcome=1&plan=<id>).
  const plan = search.welcome ? await chosenPlan(await getDb(), search.plan) : null;
  const profile = `/u/${encodeURIComponent(account.handle)}`;
  return (
    <>
      <SignedInPage />
      <h1>Hello, {account.display_name}</h1>
      {search.welcome && <p className="notice">Your account is ready. Three steps connect your editor.</p>}
      {plan && <PlanNotice plan={plan} role="status" />}
      <p className="muted">
        Signed in as @{account.handle}
        {account.email ? ` (${account.email})` : ''}. Your profile is {account.settings.profile_public ? <a href={profile}>public</a> : 'private'}.
      </p>
      <form action={signOut}>
        <button type="submit" className="secondary">
          Sign out
        </button>
      </form>

      {/*
        The figures come first once there is activity; before, the set-up steps lead. The steps are
        always the next element, in the same place of the tree, so the key form keeps its state (the
        key just made, shown once) when the first activity turns a new dashboard into the figures.
      */}
      {!isNew && (
        <>
          <h2 id="activity">Your activity</h2>
          <nav aria-label="Your figures" className="pager">
            <a href="/dashboard/timeline">Timeline of a day</a>
            <a href={`/dashboard/insights?${rangeSearch(time.range)}`}>Insights</a>
            <a href={`/dashboard/breakdowns?${rangeSearch(time.range)}`}>Breakdowns: categories, AI, machines</a>
            <a href="/dashboard/goals">Goals</a>
            <a href="/dashboard/leaderboards">Private leaderboards</a>
            <a href="/dashboard/teams">Teams</a>
          </nav>
          <RangePicker user={user} path="/dashboard" range={range} dates={time.range} />
          <Figures
            items={[
              { label: 'coding time', value: formatDuration(time.total_seconds) },
              { label: 'daily average', value: formatDuration(time.daily_average_seconds) },
              { label: 'desktop time', value: formatDuration(apps.reduce((s, a) => s + a.seconds, 0)) },
            ]}
          />
          <div className="grid">
            <Card id="d-daily" title="Coding time" level="h3">
              <DailyBars days={time.days} caption="Your time" />
            </Card>
            <Card id="d-langs" title="Languages" level="h3">
              <Breakdown donut items={language.languages} empty="No coding time in this range yet." caption="Your languages" />
            </Card>
            <Card id="d-projects" title="Projects" level="h3">
              <p className="muted">
                Only you see projects. <a href={`/dashboard/projects?${rangeSearch(time.range)}`}>Each project&apos;s days, CSV, rename and hide</a>
              </p>
              <Breakdown items={projects} empty="No projects in this range." caption="Your projects" />
            </Card>
            <Card id="d-editors" title="Editors" level="h3">
              <Breakdown items={time.editors} empty="No editors in this range." caption="Your editors" />
            </Card>
            <Card id="d-apps" title="Desktop applications" level="h3">
              <p className="muted">From the desktop agent; counted apart from coding time.</p>
              <Breakdown items={apps} empty="No desktop time in this range." caption="Your desktop applications" />
            </Card>
            <Card id="d-weekly" title="Weekly trend" level="h3">
              <WeeklyBars weeks={weekly.weeks} today={weekly.range.to} caption="Your time per week" />
            </Card>
          </div>
          <h3>The last year</h3>
          <Hitmap days={hitmap.days} />
          <h3>When in the week</h3>
          <WeekdayHours grid={hitmap.weekday_hours} />
        </>
      )}

      <section aria-labelledby="editor">
        <h2 id="editor">{isNew ? 'Get started' : 'Connect your editor'}</h2>
        <p>
          Every WakaTime editor plugin (VS Code, JetBrains, Vim, Neovim, Emacs, Sublime, Xcode and more) can send to Codetally: make a key
          and paste two lines into <code>~/.wakatime.cfg</code>. Codetally keeps the time, language, project, editor and category of each
          heartbeat, never the file&apos;s path, branch or contents. The same key sets up Codetally&apos;s own client: its desktop agent and
          its Neovim plugin.
        </p>
        <ol className="steps">
          <li>
            <strong>Make a key</strong> for your editors. Every WakaTime plugin and Codetally&apos;s own client accept it.
            <EditorConnector site={site} />
          </li>
          <li>
            <strong>Paste the settings</strong> shown with the key, then restart your editor (or run the command once).
          </li>
          <li>
            {isNew ? (
              <>
                <strong>Write some code.</strong> Your first minute shows up here.
                <FirstActivity />
              </>
            ) : (
              <>
                <strong>Write some code.</strong> Its time shows up in the figures above within a minute.
              </>
            )}
          </li>
        </ol>
      </section>
      <h3 id="import">Bring your WakaTime history</h3>
      <p>
        On wakatime.com, export your heartbeats (Settings, Export) and import the file here. It is read in the background: leave this page
        and come back. Importing it again, or a later export, counts nothing twice.
      </p>
      <DumpImporter />

      <h2 id="tokens">Tokens</h2>
      <p>A token lets an editor plugin or the desktop agent send your activity. Give each device its own, so you can revoke one alone.</p>
      <TokenCreator site={site} />
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
                <th scope="col">Made</th>
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
                    {t.revoked_at ? `revoked ${when(t.revoked_at)}` : <RevokeToken id={t.id} name={t.name} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 id="sharing">Sharing</h2>
      <p>
        Everything is private until you turn it on. Your public profile: <a href={profile}>{profile}</a>
        {account.settings.profile_public ? '' : ' (answers “not found” while private)'}.
      </p>
      <SettingsForm account={account} mail={mailConfigured()} />
      <datalist id="timezones">
        {Intl.supportedValuesOf('timeZone').map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>

      <h2 id="badges">Badges</h2>
      <p>A badge shows one figure in a README, even while your profile is private: making it is your consent to publish that figure alone.</p>
      <p className="muted">
        After you delete a badge or make your profile private, copies kept by CDNs and GitHub&apos;s image proxy may still be shown for up to two minutes.
      </p>
      <BadgeMaker languages={language.languages.map((l) => l.name)} />
      {badges.map((b) => (
        <section key={b.id} className="card" style={{ marginTop: '1rem' }} aria-label={`Badge ${b.label}`}>
          <p>
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={b.url} alt={b.label} data-testid="badge-image" /> <span className="muted">{b.metric.replace('_', ' ')}, {b.range}, {b.style}</span>
          </p>
          <label htmlFor={`md-${b.id}`}>Markdown</label>
          <VisitorInput id={`md-${b.id}`} text={b.markdown} site={site} /> <CopyButton text={b.markdown} label="Copy Markdown" site={site} />
          <label htmlFor={`html-${b.id}`}>HTML</label>
          <VisitorInput id={`html-${b.id}`} text={b.html} site={site} /> <CopyButton text={b.html} label="Copy HTML" site={site} />
          <div className="pager">
            <RowAction action={refreshBadgeAction} id={b.id} label="Refresh" ariaLabel={`Refresh badge ${b.label}`} />
            <RowAction action={deleteBadgeAction} id={b.id} label="Delete" ariaLabel={`Delete badge ${b.label}`} />
          </div>
        </section>
      ))}
      <ReadmeCards site={site} handle={account.handle} profilePublic={account.settings.profile_public} sharesLanguages={account.settings.share_languages} />
      <ChartEmbeds site={site} userId={account.id} profilePublic={account.settings.profile_public} />

      {account.email && (
        <>
          <h2 id="password">Password</h2>
          <PasswordForm />
        </>
      )}

      <h2 id="plan">Your plan</h2>
      <PlanUsage plan={account.plan} />

      <h2 id="data">Your data</h2>
      <p>
        <a className="button secondary" href="/main/api/v1/me/export" download>
          Export all my data (JSON)
        </a>
      </p>
      <DeleteAccount handle={account.handle} />
    </>
  );
}
