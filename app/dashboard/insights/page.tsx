import type { Metadata } from 'next';
import { Card } from '../../components/card';
import { Figures } from '../../components/figures';
import { RangePicker } from '../range-picker';
import { formatDuration } from '@/lib/badges/format';
import { getDb } from '@/lib/db/client';
import { insights } from '@/lib/figures/insights';
import { offeredYears } from '@/lib/stats/year';
import { dashboardRange } from '@/lib/web/account/dashboard-range';
import { requireUser } from '@/lib/web/account/session';

// Insights over a range (GET /me/insights, drawn): headline figures and two bar lists, plain
// HTML and CSS, the range chosen as on the dashboard.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Insights', description: 'Your coding time by weekday and hour, best day and streaks.', robots: { index: false } };

const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function BarList({ rows, caption }: { rows: { label: string; seconds: number }[]; caption: string }) {
  const max = rows.reduce((m, r) => Math.max(m, r.seconds), 1);
  return (
    <table>
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label}>
            <th scope="row" style={{ fontWeight: 400, whiteSpace: 'nowrap' }}>
              {r.label}
            </th>
            <td style={{ width: '100%' }}>
              <span className="share" style={{ width: `${(r.seconds / max) * 100}%`, background: 'var(--c1)' }} />
            </td>
            <td style={{ whiteSpace: 'nowrap' }}>{formatDuration(r.seconds)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default async function InsightsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/dashboard/insights');
  // GET /me/insights's rules (any named range, or from and to); the dashboard's default unless asked.
  const range = dashboardRange(await searchParams);
  const [found, years] = await Promise.all([insights(await getDb(), user, range.query), offeredYears(await getDb(), user)]);
  return (
    <>
      <h1>Insights</h1>
      {years.length > 0 && (
        <nav aria-label="Your year in code" className="lead">
          Your year in code:{' '}
          {years.map((y, i) => (
            <span key={y}>
              {i > 0 && ', '}
              <a href={`/dashboard/year/${y}`}>{y}</a>
            </span>
          ))}
        </nav>
      )}
      <RangePicker user={user} path="/dashboard/insights" range={range} dates={found.range} />
      <Figures
        items={[
          { label: 'coding time', value: formatDuration(found.total_seconds) },
          { label: 'a day, on days you coded', value: formatDuration(found.daily_average_seconds) },
          { label: found.best_day ? `best day, ${found.best_day.date}` : 'best day', value: found.best_day ? formatDuration(found.best_day.seconds) : '—' },
          { label: 'current streak (days)', value: String(found.streak.current_days) },
          { label: 'longest streak (days)', value: String(found.streak.longest_days) },
        ]}
      />
      <div className="grid">
        <Card id="in-weekdays" title="Average by weekday" level="h2">
          <p className="muted">Over every date of each weekday in the range, days without time included: which days you code on.</p>
          <BarList caption="Average time per weekday" rows={found.weekdays.map((w) => ({ label: weekdayNames[w.weekday], seconds: w.average_seconds }))} />
        </Card>
        <Card id="in-hours" title="By hour of the day" level="h2">
          <BarList caption="Time per hour of the day" rows={found.hours.map((h) => ({ label: `${String(h.hour).padStart(2, '0')}:00`, seconds: h.seconds }))} />
        </Card>
      </div>
    </>
  );
}
