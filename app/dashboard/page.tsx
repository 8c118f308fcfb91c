import type { Metadata } from 'next';
import { Card } from '../components/card';
import { Breakdown, Hitmap, HourBars, WeekdayHours, WeeklyBars } from '../components/chart-figures';
import { Figures } from '../components/figures';
import { StackedDays } from '../components/stacked-days';
import { signOut } from '../signin/actions';
import { PlanNotice } from '../signup/plan-notice';
import { FixedPeriod, RangePicker } from './range-picker';
import { EditorConnector, FirstActivity } from './widgets';
import { formatDuration } from '@/lib/badges/format';
import { getDb } from '@/lib/db/client';
import { dashboardData, projectRangeSearch } from '@/lib/web/account/dashboard';
import { dashboardRange } from '@/lib/web/account/dashboard-range';
import { requireUser } from '@/lib/web/account/session';
import { rangeSearch } from '@/lib/web/account/projects';
import { chosenPlan } from '@/lib/web/public/pricing';
import { labeledEditors } from '@/lib/editors';

// The dashboard's overview: one's figures over the range chosen (the other views are its tabs,
// app/dashboard/layout.tsx; keys, sharing, badges, import and the account are Settings), what a
// WakaTime user looks at each morning: each day split by project (one day: by hour), projects
// (each a link to its page), languages, editors, categories, the AI-assisted share, systems,
// machines and goals. A card with nothing to show in the range is left out (no desktop agent, no
// desktop card); Breakdowns and Goals have the rest. Before the first activity, the steps that
// connect an editor lead.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = {
  title: 'Dashboard',
  description: 'Your coding time: each day by project, projects, languages, editors, categories, AI-assisted time, machines, goals and the year.',
  robots: { index: false },
};

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)} %` : '—');
/** How many rows a compact card lists; the rest are its "All others" row, and Breakdowns has them all. */
const FEW = 6;

export default async function Dashboard({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const search = await searchParams;
  const range = dashboardRange(search);
  const { account, time, average, language, hitmap, weekly, breakdowns, goals, projects, apps, hours, site, isNew } = await dashboardData(user, range.query);
  // The plan chosen on the pricing page before signing up (/dashboard?welcome=1&plan=<id>).
  const plan = search.welcome ? await chosenPlan(await getDb(), search.plan) : null;
  const profile = `/u/${encodeURIComponent(account.handle)}`;
  const { ai } = breakdowns;
  const desktop = apps.reduce((s, a) => s + a.seconds, 0);
  const more = (by?: string) => `/dashboard/breakdowns?${rangeSearch(time.range)}${by ? `&by=${by}` : ''}`;
  const projectQuery = projectRangeSearch(time.range);
  const oneDay = hours && breakdowns.daily.length === 1 ? breakdowns.daily[0] : null;
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
              ...(ai.seconds > 0 ? [{ label: 'AI-assisted', value: `${formatDuration(ai.seconds)} (${percent(ai.seconds, breakdowns.total_seconds)})` }] : []),
              ...(desktop > 0 ? [{ label: 'desktop time', value: formatDuration(desktop) }] : []),
            ]}
          />
          <Card id="d-daily" title={oneDay ? `${oneDay.date} by hour` : 'Coding time'} level="h3">
            {hours && oneDay && <HourBars date={oneDay.date} hours={hours} caption="Your time per hour" />}
            <StackedDays
              days={breakdowns.daily}
              names={breakdowns.stacked.names}
              caption="Your time per day by project"
              hourly={oneDay ? { href: `/dashboard/timeline?date=${oneDay.date}`, text: 'The day project by project, on the Timeline' } : undefined}
            />
          </Card>
          <div className="grid">
            <Card id="d-projects" title="Projects" level="h3">
              <p className="muted">
                Only you see projects. <a href={`/dashboard/projects?${projectQuery}`}>Each project&apos;s days, CSV, rename and hide</a>
              </p>
              <Breakdown
                items={projects.map((p) => ({ ...p, href: `/dashboard/projects/${encodeURIComponent(p.name)}?${projectQuery}` }))}
                empty="No projects in this range."
                caption="Your projects"
              />
            </Card>
            <Card id="d-langs" title="Languages" level="h3">
              <Breakdown donut items={language.languages} empty="No coding time in this range yet." caption="Your languages" />
            </Card>
            <Card id="d-editors" title="Editors" level="h3">
              <Breakdown items={labeledEditors(time.editors)} empty="No editors in this range." caption="Your editors" />
            </Card>
            {breakdowns.categories.length > 0 && (
              <Card id="d-categories" title="Categories" level="h3">
                <Breakdown items={breakdowns.categories} limit={FEW} empty="" caption="Your categories" />
                <p className="muted">
                  <a href={more('category')}>Each day by category, on Breakdowns</a>
                </p>
              </Card>
            )}
            {ai.seconds > 0 && (
              <Card id="d-ai" title="AI-assisted" level="h3">
                <p>
                  {formatDuration(ai.seconds)} of your coding time ({percent(ai.seconds, breakdowns.total_seconds)}) was AI-assisted; {formatDuration(ai.human_seconds)} was your own.
                </p>
                <Breakdown items={ai.agents} limit={FEW} empty="" caption="Your AI-assisted time by agent" />
                <p className="muted">
                  <a href={more()}>Lines and projects by AI agents, on Breakdowns</a>
                </p>
              </Card>
            )}
            {breakdowns.operating_systems.length > 0 && (
              <Card id="d-systems" title="Operating systems" level="h3">
                <Breakdown items={breakdowns.operating_systems} limit={FEW} empty="" caption="Your operating systems" />
                <p className="muted">
                  <a href={more()}>One system&apos;s time alone, on Breakdowns</a>
                </p>
              </Card>
            )}
            {breakdowns.machines.length > 0 && (
              <Card id="d-machines" title="Machines" level="h3">
                <Breakdown items={breakdowns.machines} limit={FEW} empty="" caption="Your machines" />
                <p className="muted">
                  <a href={more()}>One machine&apos;s time alone, on Breakdowns</a>
                </p>
              </Card>
            )}
            {goals.length > 0 && (
              <Card id="d-goals" title="Goals" level="h3">
                <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {goals.map((g) => (
                    <li key={g.id} style={{ margin: '0.4rem 0', overflowWrap: 'anywhere' }}>
                      {g.title}
                      <br />
                      <progress value={Math.min(g.progress.actual_seconds, g.seconds)} max={g.seconds} aria-label={`${g.title}: progress`} />{' '}
                      {formatDuration(g.progress.actual_seconds)} of {formatDuration(g.seconds)} {g.period === 'day' ? 'today' : 'this week'}
                      {g.progress.done ? ' ✓' : ''}
                    </li>
                  ))}
                </ul>
                <p className="muted">
                  <a href="/dashboard/goals">Streaks, and setting goals, on Goals</a>
                </p>
              </Card>
            )}
            {/* The desktop agent's time, counted apart; a WakaTime-only user has none, and no card. */}
            {apps.length > 0 && (
              <Card id="d-apps" title="Desktop applications" level="h3">
                <p className="muted">From the desktop agent; counted apart from coding time.</p>
                <Breakdown items={apps} empty="" caption="Your desktop applications" />
              </Card>
            )}
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
            Keys, tokens and what each editor sends are in <a href="/dashboard/settings">Settings</a>. <a href="/dashboard/settings/sending">Is my editor sending?</a>
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
