import type { Metadata } from 'next';
import { Breakdown, DailyBars, Hitmap, WeekdayHours, WeeklyBars } from '@/app/components/charts';
import { Figures } from '@/app/components/figures';
import { formatDuration } from '@/lib/badges/format';
import { profileData } from '@/lib/web/pages';

// Rendered on a profile's first visit and served from the cache until its data, its settings or
// its date change (lib/web/pages.ts); a minute at most in shared caches (Cache-Control).
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
          ...(weekly.change_percent !== null ? [{ label: 'last week vs the one before', value: `${weekly.change_percent >= 0 ? '+' : ''}${weekly.change_percent}%` }] : []),
        ]}
      />
      <div className="grid">
        <section className="card" aria-labelledby="daily">
          <h2 id="daily">Daily coding time</h2>
          <DailyBars days={time.days} caption="Daily time" />
        </section>
        <section className="card" aria-labelledby="languages">
          <h2 id="languages">Languages</h2>
          <Breakdown items={language.languages} donut empty="Languages are not shared." caption="Languages, last 30 days" />
        </section>
      </div>
      <section aria-labelledby="year">
        <h2 id="year">The last year</h2>
        <Hitmap days={hitmap.days} />
      </section>
      <div className="grid">
        <section className="card" aria-labelledby="week-hours">
          <h2 id="week-hours">When in the week</h2>
          <WeekdayHours grid={hitmap.weekday_hours} />
        </section>
        <section className="card" aria-labelledby="weekly">
          <h2 id="weekly">Weekly trend</h2>
          <WeeklyBars weeks={weekly.weeks} today={weekly.range.to} caption="Time per week" />
        </section>
      </div>
      {time.editors.length > 0 && (
        <section className="card" aria-labelledby="editors" style={{ marginTop: '1rem' }}>
          <h2 id="editors">Editors</h2>
          <Breakdown items={time.editors} empty="" caption="Editors, last 30 days" />
        </section>
      )}
    </>
  );
}
