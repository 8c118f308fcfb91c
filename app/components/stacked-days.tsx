import type { ReactNode } from 'react';
import { formatDuration } from '@/lib/badges/format';
import { ColumnsPlot, TimeAxis } from './chart-figures';

// Time per day, each day's column split by project, language or category: an SVG stretched to its
// card's width (any number of days fits any width), colours from the stylesheet's variables (both
// colour schemes), the legend and every number in a table below for screen readers and phones.
// One day is no run of days: it is drawn as one bar across the card, split the same way, and, where
// the page has one, a link to the day hour by hour.

const colour = (i: number, other: boolean) => (other ? 'var(--c0)' : `var(--c${(i % 8) + 1})`);

type Day = { date: string; seconds: number; parts: { name: string; seconds: number }[] };

export function StackedDays({ days, names, caption, hourly }: { days: Day[]; names: string[]; caption: string; hourly?: { href: string; text: string } }) {
  const legend = (
    <ul className="legend-list">
      {names.map((n, k) => (
        <li key={n} className="legend">
          <i style={{ background: colour(k, n === 'Other') }} /> <span className="name">{n}</span>
        </li>
      ))}
    </ul>
  );
  return (
    <>
      {days.length === 1 ? <OneDay day={days[0]} legend={legend} hourly={hourly} /> : <Columns days={days} legend={legend} />}
      <details>
        <summary>The numbers, day by day</summary>
        <div className="table-wrap">
          <table>
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                {names.map((n) => (
                  <th key={n} scope="col" className="num">
                    {n}
                  </th>
                ))}
                <th scope="col" className="num">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{d.date}</th>
                  {d.parts.map((p) => (
                    <td key={p.name} className="num">
                      {formatDuration(p.seconds)}
                    </td>
                  ))}
                  <td className="num">{formatDuration(d.seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}

/** One day's time as a bar across the card, split by part: its shares at a glance (a single column would only be fat). */
function OneDay({ day, legend, hourly }: { day: Day; legend: ReactNode; hourly?: { href: string; text: string } }) {
  return (
    <figure className="bars one-day">
      <p className="muted">
        {day.date}: {formatDuration(day.seconds)}
        {hourly && (
          <>
            {' '}
            · <a href={hourly.href}>{hourly.text}</a>
          </>
        )}
      </p>
      <svg className="one-day-bar" viewBox="0 0 100 10" preserveAspectRatio="none" focusable="false" aria-hidden="true">
        {day.parts.map((p, k) => {
          if (p.seconds === 0) return null;
          const before = day.parts.slice(0, k).reduce((sum, q) => sum + q.seconds, 0);
          return (
            <rect key={p.name} x={day.seconds > 0 ? (before / day.seconds) * 100 : 0} width={day.seconds > 0 ? (p.seconds / day.seconds) * 100 : 0} y="0" height="10" style={{ fill: colour(k, p.name === 'Other') }}>
              <title>{`${p.name}: ${formatDuration(p.seconds)}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption>{legend}</figcaption>
    </figure>
  );
}

/** A column a day, stacked by part, on hour gridlines, its dates under it. */
function Columns({ days, legend }: { days: Day[]; legend: ReactNode }) {
  return (
    <figure className="bars">
      <ColumnsPlot count={days.length} most={days.reduce((max, d) => Math.max(max, d.seconds), 0)} stacked>
        {({ share, x, width }) =>
          days.map((d, i) => {
            let base = 100;
            return d.parts.map((p, k) => {
              if (p.seconds === 0) return null;
              const height = share(p.seconds);
              base -= height;
              return (
                <rect key={`${d.date}-${p.name}`} x={x(i)} width={width} y={base} height={height} style={{ fill: colour(k, p.name === 'Other') }}>
                  <title>{`${d.date}, ${p.name}: ${formatDuration(p.seconds)}`}</title>
                </rect>
              );
            });
          })
        }
      </ColumnsPlot>
      <TimeAxis dates={days.map((d) => d.date)} unit="day" />
      <figcaption>{legend}</figcaption>
    </figure>
  );
}
