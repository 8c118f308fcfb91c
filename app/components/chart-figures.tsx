import type { ReactNode } from 'react';
import { formatDuration } from '@/lib/badges/format';
import { isoWeekStart } from '@/lib/dates';
import { axisLabels, axisTiers, calendar, daysIntoWeek, donutArcs, hourTicks, level, months, periods, slices, weekdayNames as weekdays, type AxisUnit, type Slice } from '@/lib/web/chart-geometry';

// The charts, rendered on the server as SVG and HTML: no script, readable at any width, in both
// colour schemes (colours are the stylesheet's variables). Each comes with its numbers as a table.

const swatch = (color: number) => `var(--c${color})`;

interface Bar {
  key: string;
  title: string;
  seconds: number;
  partial?: boolean;
}

/** Width of one bar's slot in the plot's own units; the plot is stretched to the card's width. */
const SLOT = 10;

/**
 * Columns of time with hour gridlines: the shape, for sighted readers (the table beside it holds
 * the numbers). The columns are one SVG whose viewBox is stretched to the width of the card
 * (preserveAspectRatio none): any number of bars fits any width, from a phone to a wide screen.
 */
function Bars({ bars, unit, note }: { bars: Bar[]; unit: AxisUnit; note?: string }) {
  return (
    <figure className="bars">
      <ColumnsPlot count={bars.length} most={bars.reduce((max, b) => Math.max(max, b.seconds), 0)}>
        {({ share, x, width }) =>
          bars.map((b, i) => (
            <rect key={b.key} className={b.partial ? 'partial' : undefined} x={x(i)} width={width} y={100 - share(b.seconds)} height={share(b.seconds)}>
              <title>{b.title}</title>
            </rect>
          ))
        }
      </ColumnsPlot>
      <TimeAxis dates={bars.map((b) => b.key)} unit={unit} />
      {note && <figcaption className="muted">{note}</figcaption>}
    </figure>
  );
}

/** Where a column goes in a ColumnsPlot: its height's share of the plot (percent), its x and width. */
export interface ColumnPlace {
  share: (seconds: number) => number;
  x: (column: number) => number;
  width: number;
}

/**
 * `count` columns of time up to `most` seconds, with hour gridlines: one SVG whose viewBox is
 * stretched to the card's width, `children` drawing the columns. A gap between columns while they
 * are wide enough to show one; touching columns beyond.
 */
export function ColumnsPlot({ count, most, stacked = false, children }: { count: number; most: number; stacked?: boolean; children: (place: ColumnPlace) => ReactNode }) {
  const { top, ticks } = hourTicks(most);
  const share = (seconds: number) => (top > 0 ? (seconds / top) * 100 : 0);
  const gap = count <= 60 ? 2 : 0.5;
  return (
    <div className="bars-plot" aria-hidden="true">
      {ticks.map((t) => (
        <span key={t.seconds} className="bars-tick" style={{ bottom: `${share(t.seconds)}%` }}>
          {t.label}
        </span>
      ))}
      <svg className={stacked ? 'bars-columns stacked' : 'bars-columns'} viewBox={`0 0 ${Math.max(1, count) * SLOT} 100`} preserveAspectRatio="none" focusable="false">
        {children({ share, x: (column) => column * SLOT + gap / 2, width: SLOT - gap })}
      </svg>
    </div>
  );
}

/**
 * The dates under a chart's columns (`dates`: a column's day, Monday or first of the month), each
 * under its column (centred, or flush with the plot's edge at its ends), never two overlapping: one set of labels per width the card may have
 * (axisTiers), of which the stylesheet shows the one for the card's width (a container query), so
 * a phone gets a label a week or a month where a wide screen gets one a day.
 */
export function TimeAxis({ dates, unit }: { dates: string[]; unit: AxisUnit }) {
  return (
    <div className="bars-labels" aria-hidden="true">
      {axisTiers.map((tier, t) =>
        axisLabels(dates, tier.plot, unit).map((l) => (
          <span key={`${t}-${l.column}`} className={`axis-${t} ${l.align}`} style={{ left: `${l.at}%` }}>
            {l.text}
          </span>
        )),
      )}
    </div>
  );
}

/**
 * One day by hour (`hours`: 24 seconds, hour 0 first, in the owner's time zone, as the buckets
 * are kept): a column an hour on the same gridlines as the daily chart, hours labelled under their
 * start (every 6 on a phone's card, every 3 or 2 wider), its numbers as a table.
 */
export function HourBars({ date, hours, caption }: { date: string; hours: number[]; caption: string }) {
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
  // The axis tiers of TimeAxis (axis-0, -1, -2 by the card's width): an hour label every 6, 3 or 2 hours.
  const every = [6, 3, 2];
  return (
    <>
      <figure className="bars by-hour">
        <ColumnsPlot count={24} most={hours.reduce((max, s) => Math.max(max, s), 0)}>
          {({ share, x, width }) =>
            hours.map((s, h) =>
              s > 0 ? (
                <rect key={h} x={x(h)} width={width} y={100 - share(s)} height={share(s)}>
                  <title>{`${date} ${hh(h)}-${hh((h + 1) % 24)}: ${formatDuration(s)}`}</title>
                </rect>
              ) : null,
            )
          }
        </ColumnsPlot>
        <div className="bars-labels" aria-hidden="true">
          {every.flatMap((step, t) =>
            Array.from({ length: 24 / step }, (_, i) => i * step).map((h) => (
              <span key={`${t}-${h}`} className={`axis-${t}${h === 0 ? ' start' : ''}`} style={{ left: `${(h / 24) * 100}%` }}>
                {hh(h)}
              </span>
            )),
          )}
        </div>
      </figure>
      <TableOf caption={caption} head={['Hour', 'Time']} rows={hours.flatMap((s, h) => (s > 0 ? [[`${hh(h)}-${hh((h + 1) % 24)}`, formatDuration(s)]] : []))} />
    </>
  );
}

const periodWords = { day: ['Date', 'one a day'], week: ['Week', 'one an ISO week (Monday to Sunday)'], month: ['Month', 'one a month'] } as const;

/**
 * Time over a run of days, with its numbers as a table: a bar a day for up to a quarter, a bar a
 * week or a month for longer runs (a year, all time), so the chart fits its card at any width.
 */
export function DailyBars({ days, caption }: { days: { date: string; seconds: number }[]; caption: string }) {
  const { period, totals } = periods(days);
  const bars = totals.map((t) => ({
    // A month's key is YYYY-MM: its column stands for its first day.
    key: period === 'month' ? `${t.key}-01` : t.key,
    title: `${t.name}: ${formatDuration(t.seconds)}`,
    seconds: t.seconds,
  }));
  const [head, each] = periodWords[period];
  return (
    <>
      <Bars bars={bars} unit={period} note={period === 'day' ? undefined : `${totals.length} bars, ${each}.`} />
      <TableOf caption={caption} head={[head, 'Time']} rows={totals.map((t) => [t.name, formatDuration(t.seconds)])} />
    </>
  );
}

/** Time per ISO week; the last one is the current week so far, drawn as such. */
export function WeeklyBars({ weeks, today, caption }: { weeks: { week_start: string; seconds: number }[]; today: string; caption: string }) {
  const current = isoWeekStart(today);
  const sofar = daysIntoWeek(current, today);
  const partial = (w: { week_start: string }) => w.week_start === current && sofar < 7;
  const bars = weeks.map((w) => ({
    key: w.week_start,
    title: `week of ${w.week_start}: ${formatDuration(w.seconds)}${partial(w) ? ' so far' : ''}`,
    seconds: w.seconds,
    partial: partial(w),
  }));
  const note = weeks.some(partial) ? `The last column is this week so far (${sofar} of 7 days).` : undefined;
  return (
    <>
      <Bars bars={bars} unit="week" note={note} />
      <WeeklyTable weeks={weeks} today={today} caption={caption} />
    </>
  );
}

/** The weeks of WeeklyBars as a table, the current one marked as so far. */
export function WeeklyTable({ weeks, today, caption }: { weeks: { week_start: string; seconds: number }[]; today: string; caption: string }) {
  const current = isoWeekStart(today);
  const partial = (w: { week_start: string }) => w.week_start === current && daysIntoWeek(current, today) < 7;
  return (
    <TableOf
      caption={caption}
      head={['Week of', 'Time']}
      rows={weeks.map((w) => [partial(w) ? `${w.week_start} (so far)` : w.week_start, formatDuration(w.seconds)])}
    />
  );
}

/** A table behind a disclosure: the numbers of the chart above it. */
function TableOf({ caption, head, rows }: { caption: string; head: string[]; rows: string[][] }) {
  return (
    <details>
      <summary>{caption} as a table</summary>
      <div className="table-wrap">
        <table>
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {head.map((h, i) => (
                <th key={h} scope="col" className={i > 0 ? 'num' : undefined}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r[0]}>
                {r.map((v, i) => (
                  <td key={i} className={i > 0 ? 'num' : undefined}>
                    {v}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function Donut({ slices }: { slices: Slice[] }) {
  const arcs = donutArcs(slices);
  return (
    <svg className="donut" viewBox="0 0 42 42" aria-hidden="true">
      <circle cx="21" cy="21" r="15.9155" fill="none" stroke="var(--l0)" strokeWidth="7" />
      {slices.map((s, i) => (
        <circle
          key={s.name}
          cx="21"
          cy="21"
          r="15.9155"
          fill="none"
          stroke={swatch(s.color)}
          strokeWidth="7"
          strokeDasharray={`${arcs[i].dash} ${100 - arcs[i].dash}`}
          strokeDashoffset={25 - arcs[i].start}
        >
          <title>{`${s.name}: ${s.percent}%`}</title>
        </circle>
      ))}
    </svg>
  );
}

/**
 * Names with their time and share of the whole, largest first, the rest as "All others"; with `donut`,
 * a donut of the same rows, whose colours the rows' swatches name. `total` is the whole when some
 * time has no name shown (site-wide: languages too few people use). An item's `href` makes its
 * name a link (a project's page); `limit` is how many rows at most (a compact card's few).
 */
export function Breakdown({
  items,
  total,
  donut = false,
  limit = donut ? 8 : 15,
  empty,
  caption,
}: {
  items: { name: string; seconds: number; href?: string }[];
  total?: number;
  donut?: boolean;
  limit?: number;
  empty: string;
  caption: string;
}) {
  if (items.length === 0) return <p className="muted">{empty}</p>;
  const rows = slices(items, limit, total);
  const links = new Map(items.flatMap((i) => (i.href ? [[i.name, i.href] as const] : [])));
  return (
    <div className={donut ? 'breakdown with-donut' : 'breakdown'}>
      <div className="breakdown-body">
        {donut && <Donut slices={rows} />}
        <div className="table-wrap">
          <table className="breakdown-table">
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="num">
                  Time
                </th>
                <th scope="col" className="num">
                  Share
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.name}>
                  <td className="name">
                    <span className="name-line">
                      {donut && <i className="swatch" style={{ background: swatch(r.color) }} aria-hidden="true" />}
                      {/* Whole, wrapped where it must be: a name cut short is no name (the Time and Share columns never wrap). */}
                      <span className="name-text">{r.color > 0 && links.has(r.name) ? <a href={links.get(r.name)}>{r.name}</a> : r.name}</span>
                    </span>
                    <span className="share" aria-hidden="true">
                      <span style={{ width: `${Math.max(1, r.percent)}%` }} />
                    </span>
                  </td>
                  <td className="num">{formatDuration(r.seconds)}</td>
                  <td className="num">{r.percent}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

const levelColor = ['var(--l0)', 'var(--l1)', 'var(--l2)', 'var(--l3)', 'var(--l4)'];

/** A year calendar: one square per day, columns are ISO weeks, darker is busier; its months as a table. */
export function Hitmap({ days }: { days: { date: string; seconds: number; level: number }[] }) {
  if (days.length === 0) return null;
  const { cells, columns, months: labels } = calendar(days);
  const cell = 13;
  const left = 30;
  const top = 16;
  const active = days.filter((d) => d.seconds > 0).length;
  return (
    <div className="hitmap">
      {/* On a phone the year scrolls sideways (the latest weeks in view): reachable with the keyboard too. */}
      <div className="hitmap-scroll" tabIndex={0} role="region" aria-label="The year, day by day">
        <svg viewBox={`0 0 ${left + columns * cell} ${top + 7 * cell}`} role="img" aria-label={`Activity calendar from ${days[0].date} to ${days.at(-1)!.date}: ${active} active days`}>
          {labels.map((m) => (
            <text key={`${m.label}${m.column}`} x={left + m.column * cell} y="11" className="hitmap-label">
              {m.label}
            </text>
          ))}
          {['Mon', 'Wed', 'Fri'].map((d, i) => (
            <text key={d} x="0" y={top + (i * 2 + 1) * cell - 3} className="hitmap-label">
              {d}
            </text>
          ))}
          {/* No tooltip per day: 365 more elements cost a phone more than they give; the months' table has the numbers. */}
          {cells.map((c) => (
            <rect key={c.date} x={left + c.column * cell} y={top + c.row * cell} width={cell - 3} height={cell - 3} rx="2" fill={levelColor[c.level]} />
          ))}
        </svg>
      </div>
      <div className="legend" aria-hidden="true">
        Less {levelColor.map((c) => <i key={c} style={{ background: c }} />)} More
      </div>
      <MonthsTable days={days} />
    </div>
  );
}

/** A year's days as a table of months: time and active days. */
export function MonthsTable({ days }: { days: { date: string; seconds: number }[] }) {
  return (
    <TableOf
      caption="Time per month"
      head={['Month', 'Time', 'Active days']}
      rows={months(days).map((m) => [m.month, formatDuration(m.seconds), String(m.activeDays)])}
    />
  );
}

/**
 * When in the week as a table behind a disclosure (the numbers of the `hours` chart image): a row
 * per hour of the day with some time, a column per weekday.
 */
export function WeekdayHoursTable({ grid }: { grid: number[][] }) {
  const hours = Array.from({ length: 24 }, (_, h) => h).filter((h) => grid.some((row) => row[h] > 0));
  return <TableOf caption="Time per hour of the week" head={['Hour', ...weekdays]} rows={hours.map((h) => [`${h}:00`, ...grid.map((row) => formatDuration(row[h]))])} />;
}

/** When in the week someone codes: 7 rows (Monday first) of 24 hours, darker is busier. */
export function WeekdayHours({ grid }: { grid: number[][] }) {
  const max = grid.flat().reduce((max, v) => Math.max(max, v), 0);
  return (
    <div className="table-wrap">
      <table className="week-hours">
        <caption className="sr-only">Coding time per weekday and hour</caption>
        <thead>
          <tr>
            <td />
            {Array.from({ length: 24 }, (_, h) => (
              <th scope="col" key={h}>
                <span className={h % 3 === 0 ? undefined : 'sr-only'}>{h}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.map((row, d) => (
            <tr key={weekdays[d]}>
              <th scope="row">{weekdays[d]}</th>
              {row.map((v, h) => (
                <td key={h} title={`${weekdays[d]} ${h}:00, ${formatDuration(v)}`} className={`l${level(v, max)}`}>
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
