import { isCalendarDate } from '../dates';
import { canonicalEditor } from '../editors';
import { CATEGORY_NAMES } from '../activity';
import { lineChanges, type DesktopRow, type IdeRow } from './rows';
import { localDateHour, type DateHour } from '../local-time';
import { MIN_DATE, maxAcceptedDate, type DesktopBucketInput, type IdeBucketInput } from './schemas';
import { nameProblem, textProblem } from '../text';

// The zod schemas are the authority on what a bucket may be, and they name every problem. They
// are also a large share of a batch's CPU in the service (decision 0002). These guards accept only
// buckets that are plainly valid and turn them straight into the stored row, exactly the row
// the schema's output would give; anything else (invalid, or merely unusual, like a name that
// is too long before trimming) goes to the schema. tests/unit/fast-path.test.ts checks with
// random buckets that a guard never accepts what the schema refuses and never gives another row.

const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max && textProblem(v) === null;
const isName = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max && nameProblem(v) === null;
const isSeconds = (v: unknown): v is number => typeof v === 'number' && v > 0 && v <= 3600;
const isHour = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 23;
const absent = (v: unknown): v is null | undefined => v === undefined || v === null;
/** Optional text (or name) that is absent or plainly valid. */
const isOptionalText = (v: unknown, max: number) => absent(v) || isText(v, max);
const isOptionalName = (v: unknown, max: number) => absent(v) || isName(v, max);

const toMillis = (seconds: number) => Math.round(seconds * 1000);

/**
 * What the buckets of one batch are read against: the user's timezone, and the clock, read once
 * a batch (reading it costs more than checking a bucket): the latest date a bucket may carry,
 * and the local date and hour given to buckets sent without them.
 */
export class BatchClock {
  private readonly latest = maxAcceptedDate();
  private lastDay?: string;
  private local?: DateHour;

  constructor(readonly timeZone: string) {}

  /** The user's local date and hour when the batch is read. */
  now(): DateHour {
    return (this.local ??= localDateHour(this.timeZone));
  }

  /** A calendar date the batch may carry. Its buckets mostly share one: the last one found valid is not checked again. */
  isDay(v: unknown): v is string {
    if (typeof v !== 'string') return false;
    if (v === this.lastDay) return true;
    if (!(isCalendarDate(v) && v >= MIN_DATE && v <= this.latest)) return false;
    this.lastDay = v;
    return true;
  }
}

/** The stored row of a valid IDE bucket (the schema's output, or a bucket the guard accepted). */
export function ideRow(b: IdeBucketInput, clock: BatchClock): IdeRow {
  const now = b.date == null || b.hour == null ? clock.now() : undefined;
  return {
    date: b.date ?? now!.date,
    hour: b.hour ?? now!.hour,
    language: b.language,
    project: b.project_name ?? '',
    // One name per editor however the client spells it (lib/editors.ts); the idempotency hash is
    // of the body as received, so a retry replays whatever name its first answer stored.
    editor: canonicalEditor(b.ide_name ?? ''),
    category: b.category ?? 'coding',
    machine: b.machine ?? '',
    os: '',
    agent: b.ai_agent ?? '',
    millis: toMillis(b.time),
    lines: Math.round(b.lines ?? 0),
    ...lineChanges(b.ai_lines ?? 0, b.human_lines ?? 0),
  };
}

function basename(value: string): string {
  const parts = value.split(/[\\/]/);
  return parts[parts.length - 1];
}

/** The stored row of a valid desktop bucket: the application is named by program, else file, else "unknown". */
export function desktopRow(b: DesktopBucketInput): DesktopRow {
  const app = b.program_name.trim() || basename(b.filename).trim() || 'unknown';
  return { date: b.date, hour: b.hour, platform: b.platform, app, millis: toMillis(b.time) };
}

const isLineChanges = (v: unknown) => absent(v) || (Number.isInteger(v) && Math.abs(v as number) <= 10_000_000);
/** A category as sent (lower case, trimmed) that the schema takes as it is. */
const isPlainCategory = (v: unknown) => absent(v) || (typeof v === 'string' && Object.hasOwn(CATEGORY_NAMES, v));

export function fastIdeRow(b: Record<string, unknown>, clock: BatchClock): IdeRow | null {
  const { language, time, lines, date, hour, project_name: project, ide_name: ide, category, machine, ai_agent: agent, ai_lines: ai, human_lines: human } = b;
  if (!isName(language, 64) || !isSeconds(time)) return null;
  const trimmed = language.trim();
  if (trimmed.length === 0) return null;
  if (!absent(lines) && !(typeof lines === 'number' && lines >= 0 && lines <= 10_000_000)) return null;
  if (!absent(date) && !clock.isDay(date)) return null;
  if (!absent(hour) && !isHour(hour)) return null;
  if (!isOptionalText(b.path, 1024) || !isOptionalText(b.filename, 255)) return null;
  if (!isOptionalName(project, 200) || !isOptionalName(ide, 64)) return null;
  if (!isPlainCategory(category) || !isOptionalName(machine, 64) || !isOptionalName(agent, 64) || !isLineChanges(ai) || !isLineChanges(human)) return null;
  return ideRow(
    {
      language: trimmed,
      time,
      lines: lines as number | null | undefined,
      date: date as string | null | undefined,
      hour: hour as number | null | undefined,
      project_name: (project as string | null | undefined)?.trim(),
      ide_name: (ide as string | null | undefined)?.trim(),
      category: category as string | null | undefined,
      machine: (machine as string | null | undefined)?.trim(),
      ai_agent: (agent as string | null | undefined)?.trim(),
      ai_lines: ai as number | null | undefined,
      human_lines: human as number | null | undefined,
    },
    clock,
  );
}

export function fastDesktopRow(b: Record<string, unknown>, clock: BatchClock): DesktopRow | null {
  if (!isName(b.platform, 64) || !isSeconds(b.time) || !clock.isDay(b.date) || !isHour(b.hour)) return null;
  if (!isText(b.path, 1024) || !isName(b.filename, 255) || !isName(b.program_name, 200)) return null;
  const platform = b.platform.trim();
  if (platform.length === 0) return null;
  return desktopRow({ platform, time: b.time, date: b.date, hour: b.hour, path: b.path, filename: b.filename, program_name: b.program_name });
}
