import type { z } from 'zod';
import type { FieldError } from '../http/problem';
import { issueCode } from '../http/validate';
import { desktopRow, fastDesktopRow, fastIdeRow, ideRow } from './fast-path';
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
  /** The row of a plainly valid bucket, as `toRow` would give from the schema's output; null sends the bucket to the schema. */
  fast(bucket: Record<string, unknown>, timeZone: string): Row | null;
  fields: ReadonlySet<string>;
  toRow(input: Input, timeZone: string): Row;
  key(row: Row): string;
  add(into: Row, from: Row): void;
}

export const ideKind: BucketKind<IdeBucketInput, IdeRow> = {
  name: 'ide',
  schema: ideBucketSchema,
  fast: fastIdeRow,
  fields: new Set(Object.keys(ideBucketSchema.shape)),
  toRow: ideRow,
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
  fast: fastDesktopRow,
  fields: new Set(Object.keys(desktopBucketSchema.shape)),
  toRow: desktopRow,
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
  /** The valid buckets, those with the same key summed: one upsert statement may touch each stored row only once. */
  groups: Row[];
  /** How many buckets were valid. */
  accepted: number;
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

/**
 * Validates every item on its own: valid ones are summed into rows by key, invalid ones are
 * rejected with reasons. One pass, and a valid bucket's row is new, so it is summed into in place.
 */
export function validateBuckets<Input, Row>(
  kind: BucketKind<Input, Row>,
  items: readonly unknown[],
  timeZone: string,
): ValidatedBatch<Row> {
  const groups = new Map<string, Row>();
  const rejected: Rejection[] = [];
  const ignored = new Set<string>();
  let accepted = 0;
  const keep = (row: Row) => {
    accepted++;
    const key = kind.key(row);
    const existing = groups.get(key);
    if (existing) kind.add(existing, row);
    else groups.set(key, row);
  };
  items.forEach((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      rejected.push({ index, errors: [{ path: '', code: 'invalid_type', message: 'each activity must be a JSON object' }] });
      return;
    }
    const record = item as Record<string, unknown>;
    const errors: FieldError[] = [];
    for (const field in record) {
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
    const fast = errors.length === 0 ? kind.fast(record, timeZone) : null;
    if (fast) return keep(fast);
    const parsed = kind.schema.safeParse(record);
    if (!parsed.success) errors.push(...parsed.error.issues.map((i) => issueToError(i, record)));
    if (errors.length > 0) rejected.push({ index, errors });
    else keep(kind.toRow(parsed.data as Input, timeZone));
  });
  return { groups: [...groups.values()], accepted, rejected, ignoredFields: [...ignored].sort() };
}
