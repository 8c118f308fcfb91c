import { Breakdown, ColumnsPlot, TimeAxis } from './chart-figures';
import { Card } from './card';
import { Figures } from './figures';
import { formatDuration } from '@/lib/badges/format';
import type { YearEntry, YearFigures, YearParts } from '@/lib/stats/year';

// A year in code drawn (the owner's /dashboard/year/{year}, a visitor's /u/{handle}/year/{year}):
// headline figures, months as columns, weekdays as bars, the top lists; server-rendered, no
// script. Every chart has its numbers as text beside it (a table, or the bar's own label), and a
// part the visitor may not see (YearParts) says so instead of drawing.

const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 2025-03-10 as 10 March 2025 (UTC: a calendar date has no zone). */
const dateText = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00–${String((hour + 1) % 24).padStart(2, '0')}:00`;

function headline(f: YearFigures): { label: string; value: string }[] {
  const streak = f.longest_streak;
  return [
    { label: `coded in ${f.year}`, value: formatDuration(f.total_seconds) },
    { label: 'days with coding time', value: String(f.days_coded) },
    { label: 'a day, on days coded', value: formatDuration(f.daily_average) },
    {
      label: streak.start && streak.end ? `longest streak, ${dateText(streak.start)} to ${dateText(streak.end)}` : 'longest streak',
      value: `${streak.days} ${streak.days === 1 ? 'day' : 'days'}`,
    },
    { label: f.busiest_day ? `busiest day, ${dateText(f.busiest_day.date)}` : 'busiest day', value: f.busiest_day ? formatDuration(f.busiest_day.total_seconds) : '—' },
    { label: 'busiest hour of the day', value: f.busiest_hour === null ? '—' : hourText(f.busiest_hour) },
    ...(f.percentile !== null ? [{ label: "of this site's coders code less a day", value: `${f.percentile} %` }] : []),
  ];
}

function Months({ year, months }: { year: number; months: number[] }) {
  const dates = months.map((_, i) => `${year}-${String(i + 1).padStart(2, '0')}-01`);
  return (
    <>
      <figure className="bars">
        <ColumnsPlot count={12} most={months.reduce((max, m) => Math.max(max, m), 0)}>
          {({ share, x, width }) =>
            months.map((seconds, i) => (
              <rect key={i} x={x(i)} width={width} y={100 - share(seconds)} height={share(seconds)}>
                <title>{`${monthNames[i]}: ${formatDuration(seconds)}`}</title>
              </rect>
            ))
          }
        </ColumnsPlot>
        <TimeAxis dates={dates} unit="month" />
      </figure>
      <details>
        <summary>Time per month as a table</summary>
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Time per month, {year}</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col" className="num">
                  Time
                </th>
              </tr>
            </thead>
            <tbody>
              {months.map((seconds, i) => (
                <tr key={monthNames[i]}>
                  <td>{monthNames[i]}</td>
                  <td className="num">{formatDuration(seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}

/** Bars with their names and times as text: readable without the bars, and without colour. */
function BarList({ rows, caption }: { rows: { label: string; seconds: number }[]; caption: string }) {
  const max = rows.reduce((m, r) => Math.max(m, r.seconds), 1);
  return (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">{caption}</caption>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row" style={{ fontWeight: 400, whiteSpace: 'nowrap' }}>
                {r.label}
              </th>
              <td style={{ width: '100%' }}>
                <span className="share" aria-hidden="true">
                  <span style={{ width: `${(r.seconds / max) * 100}%` }} />
                </span>
              </td>
              <td className="num" style={{ whiteSpace: 'nowrap' }}>
                {formatDuration(r.seconds)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Top({ id, title, items, total, shown, privateNote, donut = false }: { id: string; title: string; items: YearEntry[]; total: number; shown: boolean; privateNote: string; donut?: boolean }) {
  return (
    <Card id={id} title={title}>
      {shown ? (
        <Breakdown items={items.map((i) => ({ name: i.name, seconds: i.total_seconds }))} total={total} donut={donut} empty="No coding time this year." caption={title} />
      ) : (
        <p className="muted">{privateNote}</p>
      )}
    </Card>
  );
}

/**
 * The year drawn. `parts`: what may be shown (a visitor's: the gate's answer); `who`: how a
 * withheld part is explained ("Ada keeps their languages private").
 */
export function YearReview({ figures: f, parts, who }: { figures: YearFigures; parts: YearParts; who: string }) {
  if (f.total_seconds === 0) return <p className="muted">No coding time recorded in {f.year}.</p>;
  return (
    <>
      <Figures items={headline(f)} />
      <div className="grid">
        <Card id="year-months" title="Month by month">
          <Months year={f.year} months={f.by_month} />
        </Card>
        <Card id="year-weekdays" title="By weekday">
          <BarList caption={`Time per weekday, ${f.year}`} rows={f.by_weekday.map((seconds, i) => ({ label: weekdayNames[i], seconds }))} />
        </Card>
      </div>
      <div className="grid" style={{ marginTop: '1rem' }}>
        <Top id="year-languages" title="Top languages" items={f.top_languages} total={f.total_seconds} shown={parts.languages} donut privateNote={`${who} keeps their languages private.`} />
        <Top id="year-editors" title="Top editors" items={f.top_editors} total={f.total_seconds} shown={parts.editors} privateNote={`${who} keeps their editors private.`} />
        {parts.projects && <Top id="year-projects" title="Top projects" items={f.top_projects} total={f.total_seconds} shown privateNote="" />}
        {parts.categories && <Top id="year-categories" title="Top categories" items={f.top_categories} total={f.total_seconds} shown privateNote="" />}
      </div>
      {f.ai && (
        <Card id="year-ai" title="AI-assisted coding" style={{ marginTop: '1rem' }}>
          <Figures
            items={[
              { label: 'with an AI agent', value: `${formatDuration(f.ai.seconds)} (${Math.round(f.ai.share * 100)} %)` },
              { label: 'lines added by AI agents', value: f.ai.additions.toLocaleString('en') },
              { label: 'lines added by hand', value: f.ai.human_additions.toLocaleString('en') },
            ]}
          />
        </Card>
      )}
    </>
  );
}
