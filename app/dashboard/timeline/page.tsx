import type { Metadata } from 'next';
import { Card } from '../../components/card';
import { formatDuration } from '@/lib/badges/format';
import { addDays, isCalendarDate } from '@/lib/dates';
import { getDb } from '@/lib/db/client';
import { timeline, type Segment } from '@/lib/figures/timeline';
import { localDateHour, localDay } from '@/lib/local-time';
import { historyStart } from '@/lib/plans/limits';
import { requireUser } from '@/lib/web/account/session';
import { HistoryNote } from '../history-note';

// The timeline of one day (GET /me/timeline, drawn): an SVG the server renders, one lane per
// project, and a GET form to choose the day; nothing needs JavaScript.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Timeline', description: 'When you coded on a day.', robots: { index: false } };

const palette = ['var(--c1)', 'var(--c2)', 'var(--c3)', 'var(--c4)', 'var(--c5)', 'var(--c6)', 'var(--c7)', 'var(--c8)'];
/** The track's own units: each lane's SVG is stretched to the width its row leaves (preserveAspectRatio none). */
const TRACK = 1000;

/**
 * The day as lanes, one a project: the names are the page's text (whole, wrapped, the page's size
 * at any width) and each lane's bars an SVG stretched to the rest of its row, so nothing is drawn
 * smaller on a phone; there the names go above their lanes and the hours are labelled every 6.
 */
function Drawing({ date, timeZone, segments }: { date: string; timeZone: string; segments: Segment[] }) {
  const day = localDay(date, timeZone);
  const share = (ms: number) => ((ms - day.start) / (day.end - day.start)) * 100;
  const lanes = [...new Set(segments.map((s) => s.project ?? '(no project)'))];
  const languages = [...new Set(segments.map((s) => s.language))];
  const color = (language: string) => palette[languages.indexOf(language) % palette.length];
  // Every 3rd hour gets a gridline and a label (every 6th only, on a phone); a day that skips an hour (a clock change) has none for it.
  const marks = day.hours.flatMap((h, hour) => (h && hour % 3 === 0 ? [{ hour, at: share(h.start) }] : []));
  return (
    <>
      <div className="tl" role="img" aria-label={`Coding on ${date}: ${segments.length} segments in ${lanes.length} projects; the table below lists them.`}>
        <div className="tl-hours">
          {marks.map((m) => (
            <span key={m.hour} className={m.hour % 6 === 0 ? (m.hour === 0 ? 'start' : undefined) : 'tl-3h'} style={{ left: `${m.at}%` }}>
              {String(m.hour).padStart(2, '0')}:00
            </span>
          ))}
        </div>
        {lanes.map((lane) => (
          <div key={lane} className="tl-lane">
            <span className="tl-name">{lane}</span>
            <svg className="tl-track" viewBox={`0 0 ${TRACK} 10`} preserveAspectRatio="none" focusable="false">
              {marks.map((m) => (
                <line key={m.hour} x1={(m.at / 100) * TRACK} x2={(m.at / 100) * TRACK} y1={0} y2={10} vectorEffect="non-scaling-stroke" style={{ stroke: 'var(--line)' }} />
              ))}
              {segments.map((s, i) => {
                if ((s.project ?? '(no project)') !== lane) return null;
                const [from, to] = [Date.parse(s.start), Date.parse(s.end)];
                // A bucket known only by the hour is paler: only part of its span was coding.
                const filled = Math.min(1, (s.seconds * 1000) / Math.max(1, to - from));
                const x = (share(from) / 100) * TRACK;
                return (
                  <rect key={i} x={x} y={1} width={Math.max(1, (share(to) / 100) * TRACK - x)} height={8} style={{ fill: color(s.language), fillOpacity: 0.3 + 0.7 * filled }}>
                    <title>{`${s.language}${s.project ? ` in ${s.project}` : ''}${s.editor ? ` (${s.editor})` : ''}: ${formatDuration(s.seconds)}, ${s.start.slice(11, 16)}-${s.end.slice(11, 16)}`}</title>
                  </rect>
                );
              })}
            </svg>
          </div>
        ))}
      </div>
      <ul className="legend-list">
        {languages.map((l) => (
          <li key={l} className="legend">
            <i style={{ background: color(l) }} /> <span className="name">{l}</span>
          </li>
        ))}
      </ul>
      <p className="muted small">Paler bars come from hourly totals (older days, or time sent without heartbeats): they span the whole hour.</p>
    </>
  );
}

export default async function TimelinePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/dashboard/timeline');
  const asked = (await searchParams).date;
  const today = localDateHour(user.timezone).date;
  const date = typeof asked === 'string' && isCalendarDate(asked) ? asked : today;
  const db = await getDb();
  const [{ segments }, floor] = await Promise.all([timeline(db, user, date), historyStart(db, user.id, today)]);
  const total = segments.reduce((sum, s) => sum + s.seconds, 0);
  // A day before the plan's window shows nothing (its activity is kept): say so, as the ranged views do.
  const beyond = floor !== null && date < floor;
  return (
    <>
      <h1>Timeline</h1>
      <form method="get" action="/dashboard/timeline" className="pager" aria-label="Choose a day">
        <label htmlFor="tl-date">Day</label>
        <input id="tl-date" type="date" name="date" defaultValue={date} max={today} required />
        <button type="submit">Show</button>
        <a href={`/dashboard/timeline?date=${addDays(date, -1)}`}>Previous day</a>
        {date < today && <a href={`/dashboard/timeline?date=${addDays(date, 1)}`}>Next day</a>}
      </form>
      {beyond && <HistoryNote floor={floor} />}
      <Card id="tl-day" title={beyond ? `${date}: before your plan's history` : `${date}: ${formatDuration(total)}`}>
        {segments.length > 0 ? (
          <Drawing date={date} timeZone={user.timezone} segments={segments} />
        ) : (
          <p className="muted">{beyond ? `Your plan shows days from ${floor} on: this day's time is kept, not shown.` : 'No coding time on this day.'}</p>
        )}
      </Card>
      {segments.length > 0 && (
        <details>
          <summary>Every segment</summary>
          <div className="table-wrap">
            <table>
              <caption className="sr-only">Segments of {date}</caption>
              <thead>
                <tr>
                  <th scope="col">From</th>
                  <th scope="col">To</th>
                  <th scope="col">Project</th>
                  <th scope="col">Language</th>
                  <th scope="col">Editor</th>
                  <th scope="col">Time</th>
                </tr>
              </thead>
              <tbody>
                {segments.map((s, i) => (
                  <tr key={i}>
                    <td>{s.start.slice(11, 16)}</td>
                    <td>{s.end.slice(11, 16)}</td>
                    <td>{s.project ?? '—'}</td>
                    <td>{s.language}</td>
                    <td>{s.editor ?? '—'}</td>
                    <td>{formatDuration(s.seconds)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </>
  );
}
