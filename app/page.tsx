import type { Metadata } from 'next';
import { Card } from './components/card';
import { Breakdown, WeeklyTable } from './components/chart-figures';
import { ChartImage } from './components/chart-images';
import { wakatimeCfgLines, WithOrigin } from './components/site-origin';
import { formatChange, formatDuration } from '@/lib/badges/format';
import { drawCommunityChart } from '@/lib/charts/public';
import { COMMUNITY_SEGMENT } from '@/lib/charts/schemas';
import { configuredOrigin } from '@/lib/http/origin';
import { communityFigures, prerenderingWithoutDatabase } from '@/lib/web/public/pages';

// Served from the cache; rendered again when the site-wide figures may have moved (lib/cache/tags.ts).
export const revalidate = 300;
export const metadata: Metadata = {
  title: 'Codetally — coding activity, privately',
  description: 'Track coding time from your editors and desktop. You decide what is public; the server enforces it.',
};

export default async function Home() {
  if (prerenderingWithoutDatabase()) return null;
  const { languages, weekly, time } = await communityFigures();
  // The languages and the weeks as the embeddable site-wide images show them (lib/charts), drawn
  // here only for their size and description.
  const images = `/main/api/v1/public/charts/${COMMUNITY_SEGMENT}`;
  const [languagesImage, weeklyImage] = await Promise.all([drawCommunityChart('languages', '30d', 'light'), drawCommunityChart('weekly', '30d', 'light')]);
  return (
    <>
      <h1>Coding time, counted privately</h1>
      <p className="lead">
        Codetally counts how long you code — per language, project, editor and hour — from the WakaTime plugin already in your editor (VS
        Code, JetBrains, Vim, Neovim, Emacs, Sublime, Xcode and more): point it here with two lines, nothing to install. It never receives
        file contents. Everything starts private; you choose what becomes public, and the server enforces it.
      </p>
      <p>
        <a className="button" href="/signup">
          Create an account
        </a>{' '}
        <a className="button secondary" href="/leaderboard">
          See the leaderboard
        </a>{' '}
        <a className="button secondary" href="/pricing">
          Pricing
        </a>
      </p>

      <h2>Across the community, last 30 days</h2>
      {languages.suppressed ? (
        <p className="muted">Not enough people share community statistics yet to show site-wide figures.</p>
      ) : (
        <div className="grid">
          <Card id="langs" title="Languages" level="h3">
            <ChartImage src={`${images}/languages.svg?range=30d`} drawn={languagesImage} />
            <Breakdown items={languages.languages} total={time.total_seconds} empty="No language has enough people behind it yet." caption="Languages, last 30 days, share of all coding time" />
            <p className="muted">Languages too few people use are counted in “All others”.</p>
          </Card>
          <Card id="trend" title="Weekly trend" level="h3">
            <p className="muted">
              {formatDuration(time.total_seconds)} coded in 30 days
              {weekly.change_percent !== null ? `; last week ${formatChange(weekly.change_percent)} on the week before` : ''}.
            </p>
            <ChartImage src={`${images}/weekly.svg`} drawn={weeklyImage} />
            <WeeklyTable weeks={weekly.weeks} today={weekly.range.to} caption="Community coding time per week" />
          </Card>
        </div>
      )}

      <h2 id="connect">Use the WakaTime plugin you already have</h2>
      <ol className="steps">
        <li>
          <a href="/signup">Sign up</a> (nothing is public until you say so) and, on your <a href="/dashboard">dashboard</a>, press{' '}
          <strong>Make a key for my editor</strong>. The key is shown once: a UUID, the format WakaTime plugins expect.
        </li>
        <li>
          Put these two lines in <code>~/.wakatime.cfg</code> under <code>[settings]</code> (the dashboard shows them with your key filled in),
          and keep your other settings:
          <pre data-testid="home-wakatime-cfg">
            <WithOrigin text={wakatimeCfgLines} configured={configuredOrigin()} />
          </pre>
        </li>
        <li>
          Restart your editor and write some code: the dashboard waits for your first heartbeat and says when it arrives. Your charts fill
          up within a minute. Coming from wakatime.com? Import your history on the dashboard.
        </li>
      </ol>
      <p>
        Codetally&apos;s own client and desktop agent take the same key. <a href="/docs/wakatime">Plugin guide</a> · <a href="/docs/api">API</a>.
      </p>
    </>
  );
}
