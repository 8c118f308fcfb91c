// A bucket as it is stored: the rows the write statement adds to what is stored
// (lib/ingest/store.ts), made by validation (lib/ingest/buckets.ts, fast-path.ts) and by heartbeat
// credits (lib/wakatime/sending/credits.ts).

/** What an IDE bucket is keyed by besides its date and hour (ide_activity's primary key). */
export interface IdeKey {
  language: string;
  project: string;
  editor: string;
  /** WakaTime's category, lower case (lib/activity.ts); `coding` by default. */
  category: string;
  /** '' when unknown. */
  machine: string;
  /** '' when unknown. */
  os: string;
  /** The AI agent; '' for a person's own time. */
  agent: string;
}

/** What is summed per IDE bucket. */
export interface IdeSums {
  millis: number;
  lines: number;
  aiAdditions: number;
  aiDeletions: number;
  humanAdditions: number;
  humanDeletions: number;
  /** What AI agents reported (decision 0037); absent: none. */
  aiSessions?: number;
  aiInputTokens?: number;
  aiOutputTokens?: number;
  aiPromptEvents?: number;
  aiPromptLengthSum?: number;
}

export interface IdeRow extends IdeKey, IdeSums {
  date: string;
  hour: number;
}

/** The dimensions of time no client named: coding, nothing else known. */
export const NO_DIMENSIONS = { category: 'coding', machine: '', os: '', agent: '' } as const satisfies Partial<IdeKey>;

/** No lines changed. */
export const NO_LINE_CHANGES = { aiAdditions: 0, aiDeletions: 0, humanAdditions: 0, humanDeletions: 0 } as const;

/** A net change of lines (WakaTime's ai_line_changes / human_line_changes) as additions and deletions. */
export function lineChanges(ai: number, human: number): Pick<IdeSums, 'aiAdditions' | 'aiDeletions' | 'humanAdditions' | 'humanDeletions'> {
  return { aiAdditions: Math.max(ai, 0), aiDeletions: Math.max(-ai, 0), humanAdditions: Math.max(human, 0), humanDeletions: Math.max(-human, 0) };
}

export interface DesktopRow {
  date: string;
  hour: number;
  platform: string;
  app: string;
  millis: number;
}

/**
 * `values` up to the last that is not its default in `defaults`: a row of a batch's JSON
 * parameter ends there, and the statement reads a field left out as its default.
 */
export function untilDefaults<T>(values: readonly T[], defaults: readonly T[]): T[] {
  let n = values.length;
  while (n > 0 && values[n - 1] === defaults[n - 1]) n--;
  return values.slice(0, n);
}
