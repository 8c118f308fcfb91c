import type { ImportStatus } from '@/lib/wakatime/importing/import-status';
import { RefreshWhileRunning } from './refresh';
import styles from './import.module.css';

// How far the latest import has got, rendered on the server: a <progress> bar with the same in
// words, read again on every load of the page (without JavaScript: reload it), and every few
// seconds while it runs (RefreshWhileRunning).

const count = (n: number) => n.toLocaleString('en');
const sources = { file: 'the uploaded dump', wakatime: 'WakaTime', compatible: 'the other server' } as const;

/** The bar's value and maximum, and the same in words; no value while the size is not known yet. */
function measure(s: ImportStatus): { value?: number; max?: number; words: string } {
  if (s.days_total > 0) return { value: s.days_done, max: s.days_total, words: `${count(s.days_done)} of ${count(s.days_total)} days read` };
  if (s.bytes > 0 && (s.status === 'running' || s.status === 'queued') && s.bytes_read > 0) {
    return { value: s.bytes_read, max: s.bytes, words: `${Math.floor((100 * s.bytes_read) / s.bytes)} % of the data dump read, ${count(s.heartbeats_read)} heartbeats` };
  }
  return { words: s.stage ?? 'Waiting its turn' };
}

export function ImportProgress({ latest }: { latest: ImportStatus }) {
  const running = !latest.done;
  const { value, max, words } = measure(latest);
  const percent = value !== undefined && max ? Math.floor((100 * value) / max) : null;
  return (
    <section id="import-progress" aria-labelledby="import-progress-title" className={`card ${styles.progress}`}>
      <h3 id="import-progress-title">{running ? `Importing from ${sources[latest.source]}` : `Latest import, from ${sources[latest.source]}`}</h3>
      {running ? (
        <>
          <progress className={styles.bar} aria-labelledby="import-progress-title" aria-describedby="import-progress-words" {...(value !== undefined ? { value, max } : {})}>
            {percent !== null ? `${percent} %` : words}
          </progress>
          <p id="import-progress-words" role="status">
            {latest.stage && latest.days_total > 0 ? `${latest.stage}: ` : ''}
            {words}
            {percent !== null ? ` (${percent} %)` : ''}.
          </p>
          <p className="muted">
            It runs on the server: leave this page and come back. <a href="/dashboard/settings/import#import-progress">Reload to see how far it has got</a>.
          </p>
          <RefreshWhileRunning />
        </>
      ) : latest.status === 'done' ? (
        <p className="notice" role="status">
          Imported{latest.days_total > 0 ? `: ${count(latest.days_total)} days` : ''}, {count(latest.heartbeats_read)} heartbeats read
          {latest.heartbeats_skipped ? `, ${count(latest.heartbeats_skipped)} left out (not valid heartbeats)` : ''}. Your figures include them now.
        </p>
      ) : (
        <p className="field-error" role="status">
          The import stopped: {latest.error}
        </p>
      )}
    </section>
  );
}
