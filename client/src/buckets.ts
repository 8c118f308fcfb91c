// Events to hourly buckets, by WakaTime's rule: events of one stream in time order; the time to
// the next event counts when it is at most 15 minutes, credited to the earlier event, cut at the
// hours of this machine's local clock (the service stores `date` and `hour` as the client sends
// them). Pure functions: the queue (./queue.ts) feeds them and stores what they return.

/** The longest gap between two events that counts as time spent. */
export const GAP_MS = 15 * 60_000;

/** An editor event (`codetally heartbeat`). */
export interface EditorEvent {
  kind: 'editor';
  /** Epoch milliseconds. */
  at: number;
  language: string;
  project: string;
  editor: string;
  /** WakaTime's category (`coding`, `ai coding`, `debugging`, ...), this machine's name, the AI agent ('' for none). */
  category?: string;
  machine?: string;
  agent?: string;
  /** Net lines an AI agent and the person changed with this event: they count with the next time credited in this stream. */
  aiLines?: number;
  humanLines?: number;
}

/** A desktop event (the agent): the application now in front, or '' when the person went idle or the agent stopped. */
export interface DesktopEvent {
  kind: 'desktop';
  at: number;
  app: string;
  platform: string;
}

export type ClientEvent = EditorEvent | DesktopEvent;
export type Stream = ClientEvent['kind'];

/** One bucket of the service's sync routes, keyed by its fields but `time` (seconds). */
export interface EditorBucket {
  date: string;
  hour: number;
  language: string;
  project_name: string;
  ide_name: string;
  category?: string;
  machine?: string;
  ai_agent?: string;
  ai_lines?: number;
  human_lines?: number;
  time: number;
}

export interface DesktopBucket {
  date: string;
  hour: number;
  platform: string;
  program_name: string;
  path: string;
  filename: string;
  time: number;
}

export type Bucket = EditorBucket | DesktopBucket;

const pad = (n: number) => String(n).padStart(2, '0');

/** The local date and hour of an instant on this machine's clock. */
export function localHour(at: number): { date: string; hour: number } {
  const d = new Date(at);
  return { date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, hour: d.getHours() };
}

/** The next instant after `at` where the local hour changes (DST-aware through Date's own rules). */
function nextLocalHour(at: number): number {
  const d = new Date(at);
  const next = new Date(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours() + 1).getTime();
  // Where a clock change makes the local constructor answer the same hour, the next UTC quarter hour does.
  return next > at ? next : at + (900_000 - (at % 900_000));
}

/** [start, end) cut at local hours: [date, hour, millis] pieces in order. */
export function hoursOf(start: number, end: number): [string, number, number][] {
  const pieces: [string, number, number][] = [];
  for (let t = start; t < end; ) {
    const next = Math.min(end, nextLocalHour(t));
    const { date, hour } = localHour(t);
    const last = pieces.at(-1);
    if (last && last[0] === date && last[1] === hour) last[2] += next - t;
    else pieces.push([date, hour, next - t]);
    t = next;
  }
  return pieces;
}

/** Whether an event counts as time (a desktop event with no application marks idle time or the agent's stop). */
const counts = (e: ClientEvent) => e.kind === 'editor' || e.app !== '';

function keyOf(e: ClientEvent, date: string, hour: number): string {
  return e.kind === 'editor'
    ? [date, hour, e.language, e.project, e.editor, e.category ?? '', e.machine ?? '', e.agent ?? ''].join('\u0000')
    : [date, hour, e.platform, e.app].join('\u0000');
}

function bucketOf(e: ClientEvent, date: string, hour: number): Bucket {
  if (e.kind === 'desktop') return { date, hour, platform: e.platform, program_name: e.app, path: '', filename: '', time: 0 };
  return {
    date,
    hour,
    language: e.language,
    project_name: e.project,
    ide_name: e.editor,
    ...(e.category && { category: e.category }),
    ...(e.machine && { machine: e.machine }),
    ...(e.agent && { ai_agent: e.agent }),
    time: 0,
  };
}

/** Line changes an event carries (editor events only). */
const linesOf = (e: ClientEvent | null) => (e?.kind === 'editor' ? { ai: e.aiLines ?? 0, human: e.humanLines ?? 0 } : { ai: 0, human: 0 });

/** What crediting a run of events gives: the buckets (summed by key, in key order), the event carried to the next run, and events too late to count. */
export interface Credited {
  buckets: Bucket[];
  carry: ClientEvent | null;
  late: number;
}

/**
 * Credits the events of one stream that follow `carry` (the last event of the previous run, whose
 * gap to the first new one is credited now). Events before `carry` come too late: the time around
 * them was already credited, so they are counted in `late` and nothing else. Events at the same
 * instant as another count once.
 */
export function credit(carry: ClientEvent | null, events: readonly ClientEvent[]): Credited {
  const sorted = [...events].sort((a, b) => a.at - b.at);
  const millis = new Map<string, { bucket: Bucket; ms: number; ai: number; human: number }>();
  let previous = carry;
  let late = 0;
  // Line changes not yet in a bucket: a bucket needs time, so they wait for the stream's next credit.
  let pending = linesOf(carry);
  for (const e of sorted) {
    if (previous && e.at < previous.at) {
      late++;
      continue;
    }
    if (previous && counts(previous) && e.at - previous.at <= GAP_MS) {
      for (const [date, hour, ms] of hoursOf(previous.at, e.at)) {
        const key = keyOf(previous, date, hour);
        let found = millis.get(key);
        if (!found) millis.set(key, (found = { bucket: bucketOf(previous, date, hour), ms: 0, ai: 0, human: 0 }));
        found.ms += ms;
        found.ai += pending.ai;
        found.human += pending.human;
        pending = { ai: 0, human: 0 };
      }
    }
    const next = linesOf(e);
    pending = { ai: pending.ai + next.ai, human: pending.human + next.human };
    previous = e;
  }
  const buckets = [...millis.entries()]
    .filter(([, { ms }]) => ms > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, { bucket, ms, ai, human }]) => ({ ...bucket, time: ms / 1000, ...(ai !== 0 && { ai_lines: ai }), ...(human !== 0 && { human_lines: human }) }));
  // The event carried to the next run takes the lines still waiting.
  const carried = previous?.kind === 'editor' ? { ...previous, aiLines: pending.ai, humanLines: pending.human } : previous;
  return { buckets, carry: carried, late };
}
