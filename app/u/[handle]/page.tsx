import type { Metadata } from 'next';
import { Card } from '@/app/components/card';
import { Breakdown, DailyBars, MonthsTable, WeekdayHoursTable, WeeklyTable } from '@/app/components/chart-figures';
import { ChartImage } from '@/app/components/chart-images';
import { Figures } from '@/app/components/figures';
import { formatChange, formatDuration } from '@/lib/badges/format';
import { linesText } from '@/lib/lines';
import { activitySvg, hoursSvg, weeklySvg } from '@/lib/charts/svg';
import { profileData } from '@/lib/web/public/pages';

// Rendered on a profile's first visit and served from the cache until its data, its settings or
// its date change (lib/web/public/pages.ts); a minute at most in shared caches (Cache-Control).
export const revalidate = 60;
export const generateStaticParams = (): { handle: string }[] => [];

type Props = { params: Promise<{ handle: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { user, time } = await profileData((await params).handle);
  const description = `${user.display_name} coded ${formatDuration(time.total_seconds)} in the last 30 days on Codetally.`;
  return { title: `${user.display_name} (@${user.handle})`, description, openGraph: { title: `${user.display_name} on Codetally`, description } };
}

export default async function Profile({ params }: Props) {
  const { user, sharesLanguages, time, average, language, hitmap, weekly, ai } = await profileData((await params).handle);
  const active = hitmap.days.filter((d) => d.seconds > 0).length;
  // The year, when in the week and the weeks as the embeddable images show them (lib/charts), drawn
  // here from the same figures only for their size and description.
  const images = `/main/api/v1/public/charts/${user.id}`;
  const name = user.display_name;
  const yearImage = activitySvg({ name, days: hitmap.days }, 'light');
  const hoursImage = hoursSvg({ name, grid: hitmap.weekday_hours, from: hitmap.range.from, to: hitmap.range.to }, 'light');
  const weeklyImage = weeklySvg({ name, weeks: weekly.weeks, today: weekly.range.to }, 'light');
  return (
    <>
      <h1>
        {user.display_name} <span className="muted">@{user.handle}</span>
      </h1>
      <Figures
        items={[
          { label: 'last 30 days', value: formatDuration(time.total_seconds) },
          { label: 'a day, on days coded (last 30 days)', value: formatDuration(average) },
          { label: 'active days this year', value: String(active) },
          ...(weekly.change_percent !== null ? [{ label: 'last week vs the one before', value: formatChange(weekly.change_percent) }] : []),
        ]}
      />
      <div className="grid">
        <Card id="daily" title="Daily coding time">
          <DailyBars days={time.days} caption="Daily time" />
        </Card>
        <Card id="languages" title="Languages">
          {sharesLanguages ? (
            <Breakdown items={language.languages} donut empty="No coding time in the last 30 days." caption="Languages, last 30 days" />
          ) : (
            <p className="muted">{name} keeps their languages private.</p>
          )}
        </Card>
      </div>
      <section aria-labelledby="year">
        <h2 id="year">The last year</h2>
        <div className="hitmap">
          {/* On a phone the year scrolls sideways (the latest weeks in view): reachable with the keyboard too. */}
          <div className="hitmap-scroll" tabIndex={0} role="region" aria-label="The year, day by day">
            <ChartImage src={`${images}/activity.svg`} drawn={yearImage} first />
          </div>
          <MonthsTable days={hitmap.days} />
        </div>
      </section>
      <div className="grid">
        <Card id="week-hours" title="When in the week">
          <ChartImage src={`${images}/hours.svg`} drawn={hoursImage} />
          <WeekdayHoursTable grid={hitmap.weekday_hours} />
        </Card>
        <Card id="weekly" title="Weekly trend">
          <ChartImage src={`${images}/weekly.svg`} drawn={weeklyImage} />
          <WeeklyTable weeks={weekly.weeks} today={weekly.range.to} caption="Time per week" />
        </Card>
      </div>
      {ai && (
        <Card id="ai" title="AI-assisted coding, last 30 days" style={{ marginTop: '1rem' }}>
          <Figures
            items={[
              { label: 'with an AI agent', value: `${formatDuration(ai.seconds)}${time.total_seconds > 0 ? ` (${Math.round((ai.seconds / time.total_seconds) * 100)} %)` : ''}` },
              { label: 'lines by AI agents', value: linesText(ai.ai_additions, ai.ai_deletions) },
              { label: 'lines by hand', value: linesText(ai.human_additions, ai.human_deletions) },
            ]}
          />
        </Card>
      )}
      {time.editors.length > 0 && (
        <Card id="editors" title="Editors" style={{ marginTop: '1rem' }}>
          <Breakdown items={time.editors} empty="" caption="Editors, last 30 days" />
        </Card>
      )}
    </>
  );
}
