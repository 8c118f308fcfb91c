import { ColumnsPlot, TimeAxis } from '../../components/chart-figures';
import styles from './goals.module.css';
import { formatDuration } from '@/lib/badges/format';
import { isoWeekday } from '@/lib/dates';
import type { PeriodStatus } from '@/lib/figures/goals';
import { weekdayNames } from '@/lib/web/chart-geometry';

// A goal's history on the Goals page: a column per past period (goalHistory, what WakaTime's
// chart_data shows), the goal as a dashed line, a mark under each column saying met or missed
// (shape, not colour alone), and the same numbers as a table behind a disclosure. Server-rendered,
// no script.

interface Period {
  start: string;
  seconds: number;
  status: PeriodStatus;
}

const marks: Record<PeriodStatus, string> = { success: '✓', fail: '✗', pending: '…' };
const words: Record<PeriodStatus, string> = { success: 'met', fail: 'missed', pending: 'not met yet' };

const periodName = (period: 'day' | 'week', start: string) => (period === 'day' ? `${weekdayNames[isoWeekday(start)]} ${start}` : `Week of ${start}`);

export function GoalHistory({ title, period, goalSeconds, ignoreWeekends, history }: { title: string; period: 'day' | 'week'; goalSeconds: number; ignoreWeekends: boolean; history: Period[] }) {
  const most = history.reduce((max, h) => Math.max(max, h.seconds), goalSeconds);
  const judged = history.filter((h) => h.status !== 'pending');
  const met = judged.filter((h) => h.status === 'success').length;
  const unit = period === 'day' ? 'days' : 'weeks';
  const caption = `${title}: the last ${period === 'day' ? '14 days' : '12 weeks'}`;
  return (
    <>
      <p className={styles.summary}>
        Met on {met} of the last {judged.length} {unit}
        {period === 'day' && ignoreWeekends ? ', weekends left out' : ''}.
      </p>
      <figure className={`bars ${styles.history}`}>
        <ColumnsPlot count={history.length} most={most}>
          {({ share, x, width }) => (
            <>
              {history.map((h, i) => (
                <rect key={h.start} className={styles[h.status]} x={x(i)} width={width} y={100 - share(h.seconds)} height={share(h.seconds)}>
                  <title>{`${periodName(period, h.start)}: ${formatDuration(h.seconds)}, ${words[h.status]}`}</title>
                </rect>
              ))}
              <line className={styles.goalLine} x1="0" x2="100%" y1={100 - share(goalSeconds)} y2={100 - share(goalSeconds)} vectorEffect="non-scaling-stroke" />
            </>
          )}
        </ColumnsPlot>
        <div className={`goal-marks ${styles.marks}`} style={{ gridTemplateColumns: `repeat(${Math.max(1, history.length)}, 1fr)` }} aria-hidden="true">
          {history.map((h) => (
            <span key={h.start} className={styles[h.status]}>
              {marks[h.status]}
            </span>
          ))}
        </div>
        <TimeAxis dates={history.map((h) => h.start)} unit={period} />
        <figcaption className="muted">
          ✓ met, ✗ missed, … {period === 'day' ? 'today' : 'this week'} so far; the dashed line is the goal ({formatDuration(goalSeconds)}).
        </figcaption>
      </figure>
      <details>
        <summary>{caption} as a table</summary>
        <div className="table-wrap">
          <table>
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{period === 'day' ? 'Day' : 'Week'}</th>
                <th scope="col" className="num">
                  Time
                </th>
                <th scope="col">Goal</th>
              </tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <tr key={h.start}>
                  <td>{periodName(period, h.start)}</td>
                  <td className="num">{formatDuration(h.seconds)}</td>
                  <td>{words[h.status]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
