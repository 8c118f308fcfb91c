import type { Metadata } from 'next';
import { Card } from '../components/card';
import { Breakdown, DailyBars, Hitmap, WeekdayHours, WeeklyBars } from '../components/chart-figures';
import { Figures } from '../components/figures';
import { signOut } from '../signin/actions';
import { PlanNotice } from '../signup/plan-notice';
import { FixedPeriod, RangePicker } from './range-picker';
import { EditorConnector, FirstActivity } from './widgets';
import { formatDuration } from '@/lib/badges/format';
import { getDb } from '@/lib/db/client';
import { dashboardData } from '@/lib/web/account/dashboard';
import { dashboardRange } from '@/lib/web/account/dashboard-range';
import { requireUser } from '@/lib/web/account/session';
import { rangeSearch } from '@/lib/web/account/projects';
import { chosenPlan } from '@/lib/web/public/pricing';
import { labeledEditors } from '@/lib/editors';

// The dashboard's overview: one's figures over the range chosen (the other views are its tabs,
// app/dashboard/layout.tsx; keys, sharing, badges, import and the account are Settings). Before
// the first activity, the steps that connect an editor lead.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Dashboard', description: 'Your coding time: the daily chart, projects, languages, editors and the year.', robots: { index: false } };

export default async function Dashboard({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const search = await searchParams;
  const range = dashboardRange(search);
  const { account, time, average, language, hitmap, weekly, projects, apps, site, isNew } = await dashboardData(user, range.query);
  // The plan chosen on the pricing page before signing up (/dashboard?welcome=1&plan=<id>).
  const plan = search.welcome ? await chosenPlan(await getDb(), search.plan) : null;
  const profile = `/u/${encodeURIComponent(account.handle)}`;
  return (
    <>
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
          <RangePicker user={user} path="/dashboard" range={range} dates={time.range} />
          <Figures
            items={[
              { label: 'coding time', value: formatDuration(time.total_seconds) },
              { label: 'a day, on days you coded', value: formatDuration(Math.round(average.average)) },
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
              <Breakdown items={labeledEditors(time.editors)} empty="No editors in this range." caption="Your editors" />
            </Card>
            <Card id="d-apps" title="Desktop applications" level="h3">
              <p className="muted">From the desktop agent; counted apart from coding time.</p>
              <Breakdown items={apps} empty="No desktop time in this range." caption="Your desktop applications" />
            </Card>
            <Card id="d-weekly" title="Weekly trend" level="h3">
              <FixedPeriod period={`The last ${weekly.weeks.length} weeks, this one so far`} />
              <WeeklyBars weeks={weekly.weeks} today={weekly.range.to} caption="Your time per week" />
            </Card>
          </div>
          <h3>The last year</h3>
          <FixedPeriod period="The last 365 days" />
          <Hitmap days={hitmap.days} />
          <h3>When in the week</h3>
          <FixedPeriod period="Over the last 365 days" />
          <WeekdayHours grid={hitmap.weekday_hours} />
        </>
      )}

      <section aria-labelledby="editor">
        <h2 id="editor">{isNew ? 'Get started' : 'Connect another editor'}</h2>
        {isNew ? (
          <p>
            Every WakaTime editor plugin (VS Code, JetBrains, Vim, Neovim, Emacs, Sublime, Xcode and more) can send to Codetally: make a key
          and paste two lines into <code>~/.wakatime.cfg</code>. Codetally keeps the time, language, project, editor and category of each
          heartbeat, never the file&apos;s path, branch or contents. The same key sets up Codetally&apos;s own client: its desktop agent and
            its Neovim plugin. Coming from WakaTime? <a href="/dashboard/settings/import">Import your history</a>.
          </p>
        ) : (
          <p className="muted">
            Keys, tokens and what each editor sends are in <a href="/dashboard/settings">Settings</a>.
          </p>
        )}
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
    </>
  );
}
