import type { Metadata } from 'next';
import { Card } from './components/card';
import { Breakdown, DailyBars, WeeklyTable } from './components/chart-figures';
import { ChartImage } from './components/chart-images';
import { WithOrigin } from './components/site-origin';
import { formatChange, formatDuration } from '@/lib/badges/format';
import { COMMUNITY_SEGMENT, drawCommunityChart } from '@/lib/charts/public';
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
        Codetally collects how long you code — per language, project, editor and hour — from editor plugins and a desktop agent. It never
        receives file contents. Everything starts private; you choose what becomes public, and the server enforces it.
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
            <h3>Per day</h3>
            <DailyBars days={time.days} caption="Community coding time per day" />
          </Card>
        </div>
      )}

      <h2>Connect in three steps</h2>
      <ol className="steps">
        <li>
          <a href="/signup">Sign up</a> — no email confirmation, nothing public.
        </li>
        <li>
          In your <a href="/dashboard">dashboard</a>, create a token. It is shown once: copy it.
        </li>
        <li>
          Paste it into your editor plugin or the desktop agent with the API URL <code>
            <WithOrigin text="{origin}/main/api/v1" configured={configuredOrigin()} />
          </code>. Your charts fill up within a
          minute. <a href="/docs">Plugin guide</a>.
        </li>
      </ol>
    </>
  );
}
