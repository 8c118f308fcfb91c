import type { Metadata } from 'next';
import { Card } from '@/app/components/card';
import { Breakdown, DailyBars, Hitmap, WeekdayHours, WeeklyBars } from '@/app/components/chart-figures';
import { Figures } from '@/app/components/figures';
import { formatChange, formatDuration } from '@/lib/badges/format';
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
  const { user, time, language, hitmap, weekly } = await profileData((await params).handle);
  const active = hitmap.days.filter((d) => d.seconds > 0).length;
  return (
    <>
      <h1>
        {user.display_name} <span className="muted">@{user.handle}</span>
      </h1>
      <Figures
        items={[
          { label: 'last 30 days', value: formatDuration(time.total_seconds) },
          { label: 'daily average', value: formatDuration(time.daily_average_seconds) },
          { label: 'active days this year', value: String(active) },
          ...(weekly.change_percent !== null ? [{ label: 'last week vs the one before', value: formatChange(weekly.change_percent) }] : []),
        ]}
      />
      <div className="grid">
        <Card id="daily" title="Daily coding time">
          <DailyBars days={time.days} caption="Daily time" />
        </Card>
        <Card id="languages" title="Languages">
          <Breakdown items={language.languages} donut empty="Languages are not shared." caption="Languages, last 30 days" />
        </Card>
      </div>
      <section aria-labelledby="year">
        <h2 id="year">The last year</h2>
        <Hitmap days={hitmap.days} />
      </section>
      <div className="grid">
        <Card id="week-hours" title="When in the week">
          <WeekdayHours grid={hitmap.weekday_hours} />
        </Card>
        <Card id="weekly" title="Weekly trend">
          <WeeklyBars weeks={weekly.weeks} today={weekly.range.to} caption="Time per week" />
        </Card>
      </div>
      {time.editors.length > 0 && (
        <Card id="editors" title="Editors" style={{ marginTop: '1rem' }}>
          <Breakdown items={time.editors} empty="" caption="Editors, last 30 days" />
        </Card>
      )}
    </>
  );
}
