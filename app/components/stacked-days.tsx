import { formatDuration } from '@/lib/badges/format';
import { hourTicks } from '@/lib/web/chart-geometry';

// Time per day, each day's column split by project, language or category: an SVG stretched to its
// card's width (any number of days fits any width), colours from the stylesheet's variables (both
// colour schemes), the legend and every number in a table below for screen readers and phones.

const SLOT = 10;
const colour = (i: number, other: boolean) => (other ? 'var(--c0)' : `var(--c${(i % 8) + 1})`);

export function StackedDays({ days, names, caption }: { days: { date: string; seconds: number; parts: { name: string; seconds: number }[] }[]; names: string[]; caption: string }) {
  const { top, ticks } = hourTicks(days.reduce((max, d) => Math.max(max, d.seconds), 0));
  const share = (seconds: number) => (top > 0 ? (seconds / top) * 100 : 0);
  const gap = days.length <= 60 ? 2 : 0.5;
  const every = Math.max(1, Math.ceil(days.length / 10));
  return (
    <>
      <figure className="bars">
        <div className="bars-plot" aria-hidden="true">
          {ticks.map((t) => (
            <span key={t.seconds} className="bars-tick" style={{ bottom: `${share(t.seconds)}%` }}>
              {t.label}
            </span>
          ))}
          <svg className="bars-columns stacked" viewBox={`0 0 ${Math.max(1, days.length) * SLOT} 100`} preserveAspectRatio="none" focusable="false">
            {days.map((d, i) => {
              let base = 100;
              return d.parts.map((p, k) => {
                if (p.seconds === 0) return null;
                const height = share(p.seconds);
                base -= height;
                return (
                  <rect key={`${d.date}-${p.name}`} x={i * SLOT + gap / 2} width={SLOT - gap} y={base} height={height} style={{ fill: colour(k, p.name === 'Other') }}>
                    <title>{`${d.date}, ${p.name}: ${formatDuration(p.seconds)}`}</title>
                  </rect>
                );
              });
            })}
          </svg>
        </div>
        <div className="bars-labels" aria-hidden="true">
          {days.map((d, i) => (
            <span key={d.date}>{i % every === 0 ? d.date.slice(5) : ''}</span>
          ))}
        </div>
        <figcaption>
          <ul className="legend-list">
            {names.map((n, k) => (
              <li key={n} className="legend">
                <i style={{ background: colour(k, n === 'Other') }} /> <span className="name">{n}</span>
              </li>
            ))}
          </ul>
        </figcaption>
      </figure>
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
