import type { z } from 'zod';
import type { FieldError } from '../http/problem';
import { issueCode } from '../http/validate';
import { fastDesktopBucket, fastIdeBucket } from './fast-path';
import { localDateHour } from './local-time';
import { desktopBucketSchema, ideBucketSchema, type DesktopBucketInput, type IdeBucketInput } from './schemas';

// Validation, normalisation and grouping of buckets: pure steps, no database.

/** Field names that would carry file bodies, diffs or clipboard data: never accepted. */
const contentFields = new Set(['content', 'body', 'text', 'diff', 'patch', 'clipboard', 'source', 'code', 'snippet']);

export interface IdeRow {
  date: string;
  hour: number;
  language: string;
  project: string;
  editor: string;
  millis: number;
  lines: number;
}

export interface DesktopRow {
  date: string;
  hour: number;
  platform: string;
  app: string;
  millis: number;
}

export interface BucketKind<Input, Row> {
  name: 'ide' | 'desktop';
  schema: z.ZodType<Input>;
  /** What the schema would return for a plainly valid bucket; null sends the bucket to the schema. */
  fast(bucket: Record<string, unknown>): Input | null;
  fields: ReadonlySet<string>;
  toRow(input: Input, timeZone: string): Row;
  key(row: Row): string;
  add(into: Row, from: Row): void;
}

const toMillis = (seconds: number) => Math.round(seconds * 1000);

function basename(value: string): string {
  const parts = value.split(/[\\/]/);
  return parts[parts.length - 1];
}

export const ideKind: BucketKind<IdeBucketInput, IdeRow> = {
  name: 'ide',
  schema: ideBucketSchema,
  fast: fastIdeBucket,
  fields: new Set(Object.keys(ideBucketSchema.shape)),
  toRow(b, timeZone) {
    const now = b.date == null || b.hour == null ? localDateHour(timeZone) : undefined;
    return {
      date: b.date ?? now!.date,
      hour: b.hour ?? now!.hour,
      language: b.language,
      project: b.project_name ?? '',
      editor: b.ide_name ?? '',
      millis: toMillis(b.time),
      lines: Math.round(b.lines ?? 0),
    };
  },
  // Control characters are rejected, so \u0000 cannot occur inside a field.
  key: (r) => `${r.date}\u0000${r.hour}\u0000${r.language}\u0000${r.project}\u0000${r.editor}`,
  add(into, from) {
    into.millis += from.millis;
    into.lines += from.lines;
  },
};

export const desktopKind: BucketKind<DesktopBucketInput, DesktopRow> = {
  name: 'desktop',
  schema: desktopBucketSchema,
  fast: fastDesktopBucket,
  fields: new Set(Object.keys(desktopBucketSchema.shape)),
  toRow(b) {
    const app = b.program_name.trim() || basename(b.filename).trim() || 'unknown';
    return { date: b.date, hour: b.hour, platform: b.platform, app, millis: toMillis(b.time) };
  },
  key: (r) => `${r.date}\u0000${r.hour}\u0000${r.platform}\u0000${r.app}`,
  add(into, from) {
    into.millis += from.millis;
  },
};

export interface Rejection {
  index: number;
  errors: FieldError[];
}

export interface ValidatedBatch<Row> {
  rows: Row[];
  rejected: Rejection[];
  ignoredFields: string[];
}

function issueToError(issue: z.core.$ZodIssue, item: Record<string, unknown>): FieldError {
  const path = issue.path.join('.');
  if (issue.code === 'invalid_type' && issue.path.length === 1 && item[String(issue.path[0])] === undefined) {
    return { path, code: 'required', message: `${path} is required` };
  }
  return { path, code: issueCode(issue), message: issue.message };
}

/** Validates every item on its own: valid ones become rows, invalid ones are rejected with reasons. */
export function validateBuckets<Input, Row>(
  kind: BucketKind<Input, Row>,
  items: readonly unknown[],
  timeZone: string,
): ValidatedBatch<Row> {
  const rows: Row[] = [];
  const rejected: Rejection[] = [];
  const ignored = new Set<string>();
  items.forEach((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      rejected.push({ index, errors: [{ path: '', code: 'invalid_type', message: 'each activity must be a JSON object' }] });
      return;
    }
    const record = item as Record<string, unknown>;
    const errors: FieldError[] = [];
    for (const field of Object.keys(record)) {
      if (kind.fields.has(field)) continue;
      if (contentFields.has(field.toLowerCase())) {
        errors.push({
          path: field,
          code: 'content_not_allowed',
          message: `${field}: file bodies, diffs and clipboard data are never accepted`,
        });
      } else {
        ignored.add(field);
      }
    }
    const fast = errors.length === 0 ? kind.fast(record) : null;
    if (fast) {
      rows.push(kind.toRow(fast, timeZone));
      return;
    }
    const parsed = kind.schema.safeParse(record);
    if (!parsed.success) errors.push(...parsed.error.issues.map((i) => issueToError(i, record)));
    if (errors.length > 0) rejected.push({ index, errors });
    else rows.push(kind.toRow(parsed.data as Input, timeZone));
  });
  return { rows, rejected, ignoredFields: [...ignored].sort() };
}

/** Sums rows with the same key; one upsert statement may touch each stored row only once. */
export function groupRows<Row>(kind: BucketKind<unknown, Row>, rows: readonly Row[]): Row[] {
  const groups = new Map<string, Row>();
  for (const row of rows) {
    const key = kind.key(row);
    const existing = groups.get(key);
    if (existing) kind.add(existing, row);
    else groups.set(key, { ...row });
  }
  return [...groups.values()];
}
