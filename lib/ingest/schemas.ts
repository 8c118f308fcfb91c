import { z } from 'zod';
import { CATEGORY_NAMES } from '../activity';
import { fieldErrorSchema } from '../http/problem';
import { isCalendarDate } from '../dates';
import { checkedText, nameProblem, textProblem } from '../text';

// The request schemas of the write routes: they validate every bucket and generate openapi.json.

export const MIN_DATE = '2000-01-01';
export const MAX_ACTIVITIES = 1000;

let latest = { until: 0, date: '' };

/** Today (UTC) plus one day: the latest date a bucket may carry (worked out once a second). */
export function maxAcceptedDate(now = Date.now()): string {
  if (now >= latest.until) {
    latest = { until: now - (now % 1000) + 1000, date: new Date(now + 86_400_000).toISOString().slice(0, 10) };
  }
  return latest.date;
}

/**
 * A string field: trimmed where the rule says so, bounded, well-formed and free of control
 * characters; a name that is stored and shown is also free of invisible and text-direction
 * characters (lib/text.ts).
 */
function text(field: string, max: number, opts: { min?: number; trim?: boolean; name?: boolean } = {}) {
  let s = z.string({ error: `${field} must be a string` });
  if (opts.trim) s = s.trim();
  if (opts.min) s = s.min(opts.min, { error: `${field} must not be empty` });
  return checkedText(s.max(max, { error: `${field} must be at most ${max} characters` }), field, opts.name ? nameProblem : textProblem);
}

const seconds = z
  .number({ error: 'time must be a number of seconds' })
  .gt(0, { error: 'time must be greater than 0' })
  .lte(3600, { error: 'time must be at most 3600 seconds' })
  .meta({ description: 'Seconds spent in this bucket, 0 < time <= 3600.' });

const day = z
  .string({ error: 'date must be a string YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'date must be YYYY-MM-DD' })
  .refine(isCalendarDate, { error: 'date must be a real calendar date', params: { code: 'invalid_date' } })
  .refine((v) => v >= MIN_DATE && v <= maxAcceptedDate(), {
    error: `date must be from ${MIN_DATE} up to one day after today (UTC)`,
    params: { code: 'date_out_of_range' },
  })
  .meta({ format: 'date', description: "The client's local calendar day of the bucket." });

const hour = z
  .number({ error: 'hour must be an integer 0-23' })
  .int({ error: 'hour must be an integer 0-23' })
  .min(0, { error: 'hour must be 0-23' })
  .max(23, { error: 'hour must be 0-23' })
  .meta({ description: "The client's local hour of the bucket, 0-23." });

const categoryRule = `category must be one of WakaTime's categories: ${Object.keys(CATEGORY_NAMES).join(', ')}`;

/** A category of CATEGORY_NAMES, in any case, kept in lower case. */
export const categorySchema = z
  .string({ error: categoryRule })
  .trim()
  .toLowerCase()
  .refine((v) => Object.hasOwn(CATEGORY_NAMES, v), { error: categoryRule })
  .meta({ description: `WakaTime's category of the time (${Object.keys(CATEGORY_NAMES).join(', ')}), in any case; absent: coding.` });

const MAX_LINE_CHANGES = 10_000_000;
const lineChangesOf = (field: string, who: string) =>
  z
    .number({ error: `${field} must be an integer` })
    .int({ error: `${field} must be an integer` })
    .min(-MAX_LINE_CHANGES, { error: `${field} must be at least -${MAX_LINE_CHANGES}` })
    .max(MAX_LINE_CHANGES, { error: `${field} must be at most ${MAX_LINE_CHANGES}` })
    .nullish()
    .meta({ description: `Net lines ${who} changed in the bucket (added minus deleted; negative when more were deleted), summed per key like time.` });

export const ideBucketSchema = z
  .object({
    language: text('language', 64, { min: 1, trim: true, name: true }).meta({ description: 'Language or grammar identifier.' }),
    time: seconds,
    lines: z
      .number({ error: 'lines must be a number' })
      .min(0, { error: 'lines must be at least 0' })
      .max(10_000_000, { error: 'lines must be at most 10000000' })
      .nullish()
      .meta({ description: 'Line metric, summed per bucket and stored as an integer.' }),
    date: day.nullish().meta({ description: "YYYY-MM-DD; absent: today in the user's timezone when the request is read (the same for every bucket of a request)." }),
    hour: hour.nullish().meta({ description: "0-23; absent: the current hour in the user's timezone when the request is read (the same for every bucket of a request)." }),
    path: text('path', 1024).nullish().meta({ description: 'Validated, never stored.' }),
    project_name: text('project_name', 200, { trim: true, name: true }).nullish(),
    ide_name: text('ide_name', 64, { trim: true, name: true })
      .nullish()
      .meta({ description: 'Name of the editor, stored under its canonical name as WakaTime shows it (`nvim` and `neovim` are Neovim, `vscode` and `code` VS Code; ASCII case ignored; a name not listed is kept as sent, trimmed).' }),
    filename: text('filename', 255).nullish().meta({ description: 'Basename of the file; validated, never stored.' }),
    category: categorySchema.nullish(),
    machine: text('machine', 64, { trim: true, name: true }).nullish().meta({ description: "The machine's name (a hostname); public only under the owner's share_machines." }),
    ai_agent: text('ai_agent', 64, { trim: true, name: true }).nullish().meta({ description: 'The AI agent whose time this is (`Claude`, `Cursor`, `Copilot`); absent for your own.' }),
    ai_lines: lineChangesOf('ai_lines', 'an AI agent'),
    human_lines: lineChangesOf('human_lines', 'you'),
  })
  .meta({
    id: 'IdeBucket',
    description: 'One bucket of coding time. Fields not listed are ignored and never stored. Buckets with the same date, hour, language, project, editor, category, machine and AI agent are summed.',
    examples: [{ language: 'TypeScript', time: 120, date: '2025-01-15', hour: 9, project_name: 'codetally', ide_name: 'vscode' }],
  });

export const desktopBucketSchema = z
  .object({
    platform: text('platform', 64, { min: 1, trim: true, name: true }).meta({ description: 'Operating-system family as the OS reports it.' }),
    time: seconds,
    date: day,
    hour,
    path: text('path', 1024).meta({ description: 'Executable path (may be empty); validated, never stored.' }),
    filename: text('filename', 255, { name: true }).meta({ description: 'Basename of the executable (may be empty).' }),
    program_name: text('program_name', 200, { name: true }).meta({ description: 'Application identity (may be empty).' }),
  })
  .meta({
    id: 'DesktopBucket',
    description: 'One bucket of focused-application time. The application is program_name, else filename, else "unknown".',
    examples: [{ platform: 'Linux', time: 300, date: '2025-01-15', hour: 9, path: '/usr/bin/firefox', filename: 'firefox', program_name: 'Firefox' }],
  });

export type IdeBucketInput = z.infer<typeof ideBucketSchema>;
export type DesktopBucketInput = z.infer<typeof desktopBucketSchema>;

export const ideBatchSchema = z
  .object({ activities: z.array(ideBucketSchema).min(1).max(MAX_ACTIVITIES) })
  .meta({ id: 'IdeBatch' });
export const desktopBatchSchema = z
  .object({ activities: z.array(desktopBucketSchema).min(1).max(MAX_ACTIVITIES) })
  .meta({ id: 'DesktopBatch' });


export const ackSchema = z
  .object({
    accepted: z.number().int().meta({ description: 'Valid buckets stored.' }),
    grouped: z.number().int().meta({ description: 'Distinct keys the accepted buckets were summed into.' }),
    rejected: z.array(z.object({ index: z.number().int(), errors: z.array(fieldErrorSchema) })),
    ignored_fields: z.array(z.string()).meta({ description: 'Names of unknown fields that were ignored.' }),
  })
  .meta({ id: 'SyncAck', examples: [{ accepted: 1, grouped: 1, rejected: [], ignored_fields: [] }] });

export type Ack = z.infer<typeof ackSchema>;
