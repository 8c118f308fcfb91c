import { MAX_CUSTOM_SPAN_DAYS, ownRangeNames } from '@/lib/stats/range';
import { calendarPresets, rangeLabels, type DashboardRange } from '@/lib/web/account/dashboard-range';
import { localDateHour } from '@/lib/local-time';
import { getDb } from '@/lib/db/client';
import { hiddenBefore } from '@/lib/plans/history';
import { HistoryNote } from './history-note';

/** Links to the named ranges of a page, the one shown marked as current. */
export function RangeLinks<R extends keyof typeof rangeLabels>({ path, names, current }: { path: string; names: readonly R[]; current: string }) {
  return (
    <nav aria-label="Range" className="pager">
      {names.map((r) =>
        r === current ? (
          <strong key={r} aria-current="page">
            {rangeLabels[r]}
          </strong>
        ) : (
          <a key={r} href={`${path}?range=${r}`}>
            {rangeLabels[r]}
          </a>
        ),
      )}
    </nav>
  );
}

/**
 * The range of a dashboard page: links to the named ranges every page takes and to the calendar's
 * (today, yesterday, this week, this month, in the user's timezone), a plain GET form for from and
 * to (no JavaScript) that shows the dates shown, why the address's range was refused, the dates
 * shown, and when the user's plan hides some of the dates asked for, from when it shows them.
 */
export async function RangePicker({ path, range, dates, user }: { path: string; range: DashboardRange; dates?: { from: string; to: string }; user: { id: string; timezone: string } }) {
  const { query, error } = range;
  const today = localDateHour(user.timezone).date;
  const presets = calendarPresets(today);
  const floor = await hiddenBefore(await getDb(), user.id, query, today);
  // The first preset of the dates shown is the current one (on a Monday, Today and This week are the same dates).
  const current = query.name === 'custom' ? presets.find((p) => p.from === query.from && p.to === query.to) : undefined;
  return (
    <>
      <RangeLinks path={path} names={ownRangeNames} current={query.name} />
      <nav aria-label="Calendar range" className="pager">
        {presets.map((p) =>
          p === current ? (
            <strong key={p.label} aria-current="page">
              {p.label}
            </strong>
          ) : (
            <a key={p.label} href={`${path}?${new URLSearchParams({ from: p.from, to: p.to })}`}>
              {p.label}
            </a>
          ),
        )}
      </nav>
      <form method="get" action={path} className="inline range-form" aria-label="Dates to show">
        <div>
          <label htmlFor="range-from">From</label>
          <input id="range-from" name="from" type="date" defaultValue={range.from ?? dates?.from ?? ''} />
        </div>
        <div>
          <label htmlFor="range-to">To</label>
          <input id="range-to" name="to" type="date" defaultValue={range.to ?? dates?.to ?? ''} />
        </div>
        <button type="submit" className="secondary">
          Show these dates
        </button>
      </form>
      {error && (
        <p className="form-error" role="alert" data-testid="range-error">
          That range cannot be shown ({error}); shown instead: {query.name === 'custom' ? 'your dates' : rangeLabels[query.name].toLowerCase()}. Ranges: the
          links above, or from and to dates at most {MAX_CUSTOM_SPAN_DAYS} days apart.
        </p>
      )}
      {dates && (
        <p className="muted">
          {dates.from <= dates.to ? `${dates.from} to ${dates.to}` : `${query.name === 'custom' ? `${query.from} to ${query.to}` : 'These dates'}: before what your plan shows`}
        </p>
      )}
      {floor && <HistoryNote floor={floor} />}
    </>
  );
}

/**
 * Under a figure of a fixed period beside those of the range chosen (the weekly trend, the year,
 * when in the week): which period it shows, so that it is not read as the range's.
 */
export function FixedPeriod({ period }: { period: string }) {
  return (
    <p className="muted" data-testid="fixed-period">
      {period}, whatever the range chosen above.
    </p>
  );
}
