import type { z } from 'zod';
import { CONTENT_FIELDS } from '../activity';
import type { FieldError } from '../http/problem';
import { issueCode } from '../http/validate';
import { BatchClock, desktopRow, fastDesktopRow, fastIdeRow, ideRow } from './fast-path';
import type { DesktopRow, IdeRow } from './rows';
import { desktopBucketSchema, ideBucketSchema, type DesktopBucketInput, type IdeBucketInput } from './schemas';

// Validation, normalisation and grouping of buckets: pure steps, no database.

export interface BucketKind<Input, Row> {
  name: 'ide' | 'desktop';
  schema: z.ZodType<Input>;
  /** The row of a plainly valid bucket, as `toRow` would give from the schema's output; null sends the bucket to the schema. */
  fast(bucket: Record<string, unknown>, clock: BatchClock): Row | null;
  fields: ReadonlySet<string>;
  toRow(input: Input, clock: BatchClock): Row;
  /** The stored row's key as a number: its names' tuple number in the batch, and its hour. */
  key(row: Row, names: TupleIds): number;
  add(into: Row, from: Row): void;
}

/**
 * Numbers for the distinct tuples of names in one batch: equal tuples get equal numbers. A trie
 * of maps keyed by the names themselves: a batch repeats a few dates and names, so it stays
 * small, and no key string is built and hashed for each bucket.
 */
export class TupleIds {
  private readonly root: Trie = new Map();
  private count = 0;

  /** The number of this tuple of names; every call passes as many names. */
  id(...names: string[]): number {
    let node = this.root;
    const last = names.length - 1;
    for (let i = 0; i < last; i++) {
      let next = node.get(names[i]) as Trie | undefined;
      if (!next) node.set(names[i], (next = new Map()));
      node = next;
    }
    let id = node.get(names[last]) as number | undefined;
    if (id === undefined) node.set(names[last], (id = this.count++));
    return id;
  }
}

type Trie = Map<string, Trie | number>;

export const ideKind: BucketKind<IdeBucketInput, IdeRow> = {
  name: 'ide',
  schema: ideBucketSchema,
  fast: fastIdeRow,
  fields: new Set(Object.keys(ideBucketSchema.shape)),
  toRow: ideRow,
  // The most varied name comes last: the trie then has the fewest maps.
  key: (r, names) => names.id(r.date, r.editor, r.category, r.machine, r.agent, r.os, r.project, r.language) * 24 + r.hour,
  add(into, from) {
    into.millis += from.millis;
    into.lines += from.lines;
    into.aiAdditions += from.aiAdditions;
    into.aiDeletions += from.aiDeletions;
    into.humanAdditions += from.humanAdditions;
    into.humanDeletions += from.humanDeletions;
  },
};

export const desktopKind: BucketKind<DesktopBucketInput, DesktopRow> = {
  name: 'desktop',
  schema: desktopBucketSchema,
  fast: fastDesktopRow,
  fields: new Set(Object.keys(desktopBucketSchema.shape)),
  toRow: desktopRow,
  key: (r, names) => names.id(r.date, r.platform, r.app) * 24 + r.hour,
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
  const clock = new BatchClock(timeZone);
  const names = new TupleIds();
  const groups = new Map<number, Row>();
  const rejected: Rejection[] = [];
  const ignored = new Set<string>();
  let accepted = 0;
  const keep = (row: Row) => {
    accepted++;
    const key = kind.key(row, names);
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
      if (CONTENT_FIELDS.has(field.toLowerCase())) {
        errors.push({
          path: field,
          code: 'content_not_allowed',
          message: `${field}: file bodies, diffs and clipboard data are never accepted`,
        });
      } else {
        ignored.add(field);
      }
    }
    const fast = errors.length === 0 ? kind.fast(record, clock) : null;
    if (fast) return keep(fast);
    const parsed = kind.schema.safeParse(record);
    if (!parsed.success) errors.push(...parsed.error.issues.map((i) => issueToError(i, record)));
    if (errors.length > 0) rejected.push({ index, errors });
    else keep(kind.toRow(parsed.data as Input, clock));
  });
  return { groups: [...groups.values()], accepted, rejected, ignoredFields: [...ignored].sort() };
}
