import type { ResolvedRange } from '@/lib/stats/range';
import { projectRanges } from '@/lib/web/account/projects';

/** The range of a project page: links to the named ranges and a plain GET form for from and to. */
export function RangePicker({ path, range, problem }: { path: string; range: ResolvedRange; problem?: string }) {
  return (
    <nav aria-label="Range">
      <p>
        {Object.entries(projectRanges).map(([name, label], i) => (
          <span key={name}>
            {i > 0 && ' · '}
            {range.name === name ? <strong>{label}</strong> : <a href={`${path}?range=${name}`}>{label}</a>}
          </span>
        ))}
      </p>
      <form method="get" action={path}>
        <label>
          From <input type="date" name="from" defaultValue={range.from === '0001-01-01' ? '' : range.from} required />
        </label>{' '}
        <label>
          To <input type="date" name="to" defaultValue={range.to} required />
        </label>{' '}
        <button type="submit" className="secondary">
          Show
        </button>
      </form>
      {problem && <p className="notice">{problem}</p>}
      <p className="muted">
        {range.name === 'all' ? 'All time' : `${range.from} to ${range.to}`}, in your timezone. A custom span is at most 366 days.
      </p>
    </nav>
  );
}
