import { MAX_CUSTOM_SPAN_DAYS, ownRangeNames } from '@/lib/stats/range';
import { rangeLabels, type DashboardRange } from '@/lib/web/account/dashboard-range';

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
 * The range of a dashboard page: links to the named ranges every page takes, a plain GET form for
 * from and to (no JavaScript), why the address's range was refused, and the dates shown.
 */
export function RangePicker({ path, range, dates }: { path: string; range: DashboardRange; dates?: { from: string; to: string } }) {
  const { query, error } = range;
  return (
    <>
      <RangeLinks path={path} names={ownRangeNames} current={query.name} />
      <form method="get" action={path} className="inline range-form" aria-label="Dates to show">
        <div>
          <label htmlFor="range-from">From</label>
          <input id="range-from" name="from" type="date" defaultValue={range.from ?? (query.name === 'custom' ? query.from : '')} />
        </div>
        <div>
          <label htmlFor="range-to">To</label>
          <input id="range-to" name="to" type="date" defaultValue={range.to ?? (query.name === 'custom' ? query.to : '')} />
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
          {dates.from} to {dates.to}
        </p>
      )}
    </>
  );
}
