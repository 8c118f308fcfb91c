import { formatDuration } from '@/lib/badges/format';
import { isoWeekday } from '@/lib/dates';

// Server-rendered figures: readable without JavaScript, the same numbers the charts draw.

const levelColor = ['var(--l0)', 'var(--l1)', 'var(--l2)', 'var(--l3)', 'var(--l4)'];
const weekdays = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export function Figures({ items }: { items: { label: string; value: string }[] }) {
  return (
    <div className="figures">
      {items.map((i) => (
        <div className="figure" key={i.label}>
          <strong>{i.value}</strong>
          <span className="muted">{i.label}</span>
        </div>
      ))}
    </div>
  );
}

/** Names with their time and share, largest first, with a bar for the share. */
export function NamedList({ items, empty, caption }: { items: { name: string; seconds: number; percent: number }[]; empty: string; caption: string }) {
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className="num">Time</th>
            <th scope="col" className="num">Share</th>
            <th scope="col" aria-hidden="true" />
          </tr>
        </thead>
        <tbody>
          {items.slice(0, 15).map((i) => (
            <tr key={i.name}>
              <td>{i.name}</td>
              <td className="num">{formatDuration(i.seconds)}</td>
              <td className="num">{i.percent}%</td>
              <td aria-hidden="true" style={{ width: '30%' }}>
                <div className="bar">
                  <span style={{ width: `${Math.max(2, i.percent)}%` }} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A year calendar: one square per day, columns are ISO weeks, darker is busier. */
export function Hitmap({ days }: { days: { date: string; seconds: number; level: number }[] }) {
  if (days.length === 0) return null;
  const cell = 12;
  const offset = isoWeekday(days[0].date) - 1;
  const columns = Math.ceil((days.length + offset) / 7);
  const active = days.filter((d) => d.seconds > 0).length;
  return (
    <div className="hitmap">
      <svg viewBox={`0 0 ${columns * cell + 28} ${7 * cell + 4}`} role="img" aria-label={`Activity calendar from ${days[0].date} to ${days.at(-1)!.date}: ${active} active days`}>
        {['Mon', 'Wed', 'Fri'].map((d, i) => (
          <text key={d} x="0" y={(i * 2 + 1) * cell - 2} fontSize="8" fill="var(--muted)">
            {d}
          </text>
        ))}
        {days.map((d, i) => {
          const at = i + offset;
          return (
            <rect key={d.date} x={28 + Math.floor(at / 7) * cell} y={(at % 7) * cell} width={cell - 2} height={cell - 2} rx="2" fill={levelColor[d.level]}>
              <title>{`${d.date}: ${formatDuration(d.seconds)}`}</title>
            </rect>
          );
        })}
      </svg>
      <div className="legend" aria-hidden="true">
        Less {levelColor.map((c) => <i key={c} style={{ background: c }} />)} More
      </div>
    </div>
  );
}

/** When in the week someone codes: 7 rows (Monday first) of 24 hours. */
export function WeekdayHours({ grid }: { grid: number[][] }) {
  const max = Math.max(0, ...grid.flat());
  const level = (v: number) => (v <= 0 || max <= 0 ? 0 : Math.min(4, Math.ceil((v / max) * 4)));
  return (
    <div className="table-wrap">
      <table style={{ tableLayout: 'fixed', minWidth: '26rem' }}>
        <caption className="sr-only">Coding time per weekday and hour</caption>
        <thead>
          <tr>
            <th scope="col" style={{ width: '3rem' }} />
            {Array.from({ length: 24 }, (_, h) => (
              <th scope="col" key={h} style={{ fontSize: '0.7rem', padding: '0.1rem', textAlign: 'center' }}>
                {h % 3 === 0 ? h : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.map((row, d) => (
            <tr key={weekdays[d]}>
              <th scope="row" style={{ fontSize: '0.8rem', padding: '0.1rem' }}>
                {weekdays[d]}
              </th>
              {row.map((v, h) => (
                <td key={h} title={`${weekdays[d]} ${h}:00 — ${formatDuration(v)}`} style={{ padding: 1, border: 0 }}>
                  <div style={{ background: levelColor[level(v)], height: '1rem', borderRadius: 2 }} />
                  <span className="sr-only">{formatDuration(v)}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The numbers behind a bar chart, for reading without JavaScript and for screen readers. */
export function DaysTable({ days, caption }: { days: { date: string; seconds: number }[]; caption: string }) {
  return (
    <details>
      <summary>{caption} as a table</summary>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col" className="num">Time</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td>{d.date}</td>
                <td className="num">{formatDuration(d.seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
