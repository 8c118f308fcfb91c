import type { Metadata } from 'next';
import { Card } from '../../components/card';
import { formatDuration } from '@/lib/badges/format';
import { addDays, isCalendarDate } from '@/lib/dates';
import { getDb } from '@/lib/db/client';
import { timeline, type Segment } from '@/lib/figures/timeline';
import { localDateHour, localDay } from '@/lib/local-time';
import { requireUser } from '@/lib/web/account/session';

// The timeline of one day (GET /me/timeline, drawn): an SVG the server renders, one lane per
// project, and a GET form to choose the day; nothing needs JavaScript.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Timeline', description: 'When you coded on a day.', robots: { index: false } };

const WIDTH = 960;
const LABEL = 150;
const LANE = 26;
const TOP = 22;
const palette = ['var(--c1)', 'var(--c2)', 'var(--c3)', 'var(--c4)', 'var(--c5)', 'var(--c6)', 'var(--c7)', 'var(--c8)'];

function Drawing({ date, timeZone, segments }: { date: string; timeZone: string; segments: Segment[] }) {
  const day = localDay(date, timeZone);
  const x = (ms: number) => LABEL + ((ms - day.start) / (day.end - day.start)) * (WIDTH - LABEL - 10);
  const lanes = [...new Set(segments.map((s) => s.project ?? '(no project)'))];
  const languages = [...new Set(segments.map((s) => s.language))];
  const color = (language: string) => palette[languages.indexOf(language) % palette.length];
  const height = TOP + Math.max(1, lanes.length) * LANE + 4;
  return (
    <>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-labelledby="tl-title tl-desc" style={{ maxWidth: `${WIDTH}px`, display: 'block' }}>
        <title id="tl-title">{`Coding on ${date}`}</title>
        <desc id="tl-desc">{`${segments.length} segments in ${lanes.length} projects; the table below lists them.`}</desc>
        {day.hours.map((h, hour) =>
          h && hour % 3 === 0 ? (
            <g key={hour}>
              <line x1={x(h.start)} x2={x(h.start)} y1={TOP - 4} y2={height} stroke="var(--line)" />
              <text x={x(h.start) + 2} y={12} fontSize="11" fill="var(--muted)">
                {String(hour).padStart(2, '0')}:00
              </text>
            </g>
          ) : null,
        )}
        {lanes.map((lane, i) => (
          <text key={lane} x={0} y={TOP + i * LANE + 17} fontSize="12" fill="currentColor">
            {lane.length > 20 ? `${lane.slice(0, 19)}…` : lane}
          </text>
        ))}
        {segments.map((s, i) => {
          const [from, to] = [Date.parse(s.start), Date.parse(s.end)];
          const lane = lanes.indexOf(s.project ?? '(no project)');
          // A bucket known only by the hour is paler: only part of its span was coding.
          const filled = Math.min(1, (s.seconds * 1000) / Math.max(1, to - from));
          return (
            <rect key={i} x={x(from)} y={TOP + lane * LANE + 3} width={Math.max(1, x(to) - x(from))} height={LANE - 6} rx={2} fill={color(s.language)} fillOpacity={0.3 + 0.7 * filled}>
              <title>{`${s.language}${s.project ? ` in ${s.project}` : ''}${s.editor ? ` (${s.editor})` : ''}: ${formatDuration(s.seconds)}, ${s.start.slice(11, 16)}-${s.end.slice(11, 16)}`}</title>
            </rect>
          );
        })}
      </svg>
      <p className="legend">
        {languages.map((l) => (
          <span key={l}>
            <span className="swatch" style={{ background: color(l) }} />
            {l}
          </span>
        ))}
      </p>
      <p className="muted small">Paler bars come from hourly totals (older days, or time sent without heartbeats): they span the whole hour.</p>
    </>
  );
}

export default async function TimelinePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/dashboard/timeline');
  const asked = (await searchParams).date;
  const today = localDateHour(user.timezone).date;
  const date = typeof asked === 'string' && isCalendarDate(asked) ? asked : today;
  const { segments } = await timeline(await getDb(), user, date);
  const total = segments.reduce((sum, s) => sum + s.seconds, 0);
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
      <Card id="tl-day" title={`${date}: ${formatDuration(total)}`}>
        {segments.length === 0 ? <p className="muted">No coding time on this day.</p> : <Drawing date={date} timeZone={user.timezone} segments={segments} />}
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
