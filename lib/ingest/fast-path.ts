import { isCalendarDate } from '../dates';
import { MIN_DATE, maxAcceptedDate, type DesktopBucketInput, type IdeBucketInput } from './schemas';

// The zod schemas are the authority on what a bucket may be, and they name every problem. They
// are also ~1.5 µs a bucket, a fifth of a batch's CPU in the service. These guards accept only
// buckets that are plainly valid, and return exactly what the schema would; anything else
// (invalid, or merely unusual, like a name that is too long before trimming) goes to the schema.
// tests/unit/fast-path.test.ts checks with random buckets that a guard never accepts what the
// schema refuses and never returns something else.

const control = /[\u0000-\u001F\u007F]/;

const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max && !control.test(v);
const isSeconds = (v: unknown): v is number => typeof v === 'number' && v > 0 && v <= 3600;
const isHour = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 23;
const isDay = (v: unknown): v is string =>
  typeof v === 'string' && isCalendarDate(v) && v >= MIN_DATE && v <= maxAcceptedDate();
const absent = (v: unknown): v is null | undefined => v === undefined || v === null;

/** Optional text: absent stays as it was sent (undefined or null), a string is kept, trimmed when asked. */
function optionalText(v: unknown, max: number, trim: boolean): { ok: boolean; value?: string | null } {
  if (absent(v)) return { ok: true, value: v };
  if (!isText(v, max)) return { ok: false };
  return { ok: true, value: trim ? v.trim() : v };
}

export function fastIdeBucket(b: Record<string, unknown>): IdeBucketInput | null {
  if (!isText(b.language, 64) || !isSeconds(b.time)) return null;
  const language = b.language.trim();
  if (language.length === 0) return null;
  const { lines, date, hour } = b;
  if (!absent(lines) && !(typeof lines === 'number' && lines >= 0 && lines <= 10_000_000)) return null;
  if (!absent(date) && !isDay(date)) return null;
  if (!absent(hour) && !isHour(hour)) return null;
  const path = optionalText(b.path, 1024, false);
  const project = optionalText(b.project_name, 200, true);
  const ide = optionalText(b.ide_name, 64, true);
  const filename = optionalText(b.filename, 255, false);
  if (!path.ok || !project.ok || !ide.ok || !filename.ok) return null;
  const out: Record<string, unknown> = { language, time: b.time };
  // The schema's output carries only the keys the input had.
  if ('lines' in b) out.lines = lines;
  if ('date' in b) out.date = date;
  if ('hour' in b) out.hour = hour;
  if ('path' in b) out.path = path.value;
  if ('project_name' in b) out.project_name = project.value;
  if ('ide_name' in b) out.ide_name = ide.value;
  if ('filename' in b) out.filename = filename.value;
  return out as IdeBucketInput;
}

export function fastDesktopBucket(b: Record<string, unknown>): DesktopBucketInput | null {
  if (!isText(b.platform, 64) || !isSeconds(b.time) || !isDay(b.date) || !isHour(b.hour)) return null;
  if (!isText(b.path, 1024) || !isText(b.filename, 255) || !isText(b.program_name, 200)) return null;
  const platform = b.platform.trim();
  if (platform.length === 0) return null;
  return { platform, time: b.time, date: b.date, hour: b.hour, path: b.path, filename: b.filename, program_name: b.program_name };
}
