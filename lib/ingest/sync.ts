import type { Admission, WriteContext } from '../auth/write-token';
import { usersChanged } from '../db/changes';
import type { Db } from '../db/client';
import { jsonContentType, readJsonBody } from '../http/body';
import { ApiError } from '../http/problem';
import { metrics } from '../metrics/registry';
import { desktopKind, ideKind, validateBuckets, type BucketKind } from './buckets';
import type { DesktopRow, IdeRow } from './rows';
import { idempotencyKeyOf, inProgress, purgeExpiredKeys, replayOf, type IdempotencyKey } from './idempotency';
import { MAX_ACTIVITIES, type Ack } from './schemas';
import { writeRows } from './store';

export interface WriteRequest {
  userId: string;
  timeZone: string;
  items: readonly unknown[];
  idempotency?: IdempotencyKey;
  successStatus: 200 | 201;
  /** Set when the write statement checks the token and counts the request (lib/auth/write-token.ts). */
  admission?: Admission;
}

export interface WriteResult {
  status: number;
  /** The acknowledgement as sent (a replay sends the first answer's bytes again). */
  body: string;
  replayed: boolean;
}

/** One try at a write: done, or the user's timezone changed under it and nothing was written. */
type WriteAttempt = { outcome: 'done'; result: WriteResult } | { outcome: 'timezone_changed'; timeZone: string };

/**
 * Validates, groups and stores one request in one statement: every valid bucket is added, or
 * (on any error) none is. With an idempotency key the answer is recorded by that same
 * statement, so a retry replays it instead of adding the buckets again.
 */
export async function ingest<Input, Row>(db: Db, kind: BucketKind<Input, Row>, req: WriteRequest): Promise<WriteResult> {
  let attempt = await writeOnce(db, kind, req, req.timeZone);
  // Dates and hours are the user's local ones: a timezone changed since this process cached it
  // means the batch is read again in the new zone (the write statement wrote and counted nothing).
  while (attempt.outcome === 'timezone_changed') attempt = await writeOnce(db, kind, req, attempt.timeZone);
  return attempt.result;
}

async function writeOnce<Input, Row>(db: Db, kind: BucketKind<Input, Row>, req: WriteRequest, timeZone: string): Promise<WriteAttempt> {
  const batch = validateBuckets(kind, req.items, timeZone);
  const groups = batch.groups as IdeRow[] | DesktopRow[];
  const ack: Ack = {
    accepted: batch.accepted,
    grouped: groups.length,
    rejected: batch.rejected,
    ignored_fields: batch.ignoredFields,
  };
  const replay = async (): Promise<WriteAttempt | null> => {
    const stored = req.idempotency && (await replayOf(db, req.userId, req.idempotency));
    return stored ? { outcome: 'done', result: { ...stored, replayed: true } } : null;
  };

  if (groups.length === 0) {
    const earlier = await replay();
    if (earlier) return earlier;
    metrics().buckets.inc({ kind: kind.name, outcome: 'rejected' }, batch.rejected.length);
    throw new ApiError('invalid_payload', 'No activity in the batch was valid.', {
      errors: batch.rejected.flatMap((r) => r.errors.map((e) => ({ index: r.index, ...e }))),
    });
  }
  const body = JSON.stringify(ack);
  const claim = req.idempotency && { ...req.idempotency, status: req.successStatus, body };
  const { admission } = req;
  const { outcome, admitted } = await writeRows(db, kind.name, req.userId, groups, claim, admission?.admit);
  if (admission && admitted) {
    // A revoked token or a request past the limit throws here.
    const settled = admission.settle(admitted);
    if (settled.outcome === 'timezone_changed') return settled;
  }
  if (req.idempotency) purgeExpiredKeys(db).catch((err) => console.error('[codetally] idempotency purge failed:', err));
  if (outcome === 'busy') throw inProgress();
  // 'taken' with no live record: it expired between the two statements, so a retry will write.
  if (outcome === 'taken') return (await replay()) ?? Promise.reject(inProgress());
  if (kind.name === 'ide') await announceWrite(db, req.userId);
  countWrite(kind.name, batch.accepted, batch.rejected.length);
  return { outcome: 'done', result: { status: req.successStatus, body, replayed: false } };
}

/** A committed write in the metrics: no user, project or language, only how many. */
function countWrite(kind: string, stored: number, rejected: number): void {
  const m = metrics();
  m.batches.inc({ kind });
  m.buckets.inc({ kind, outcome: 'stored' }, stored);
  if (rejected > 0) m.buckets.inc({ kind, outcome: 'rejected' }, rejected);
}

/**
 * The user's stats version moved: caches of other processes receive it before the client does. The
 * write stands even if that fails (a retry must not write again); their entries then expire.
 */
async function announceWrite(db: Db, userId: string): Promise<void> {
  await usersChanged(db, [userId]).catch((err) => console.error('[codetally] change announcement failed:', (err as Error)?.message));
}

function batchItems(value: unknown): unknown[] {
  const activities = (value as { activities?: unknown } | null)?.activities;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray(activities)) {
    throw new ApiError('malformed_json', 'The body must be a JSON object with an "activities" array.');
  }
  if (activities.length > MAX_ACTIVITIES) {
    throw new ApiError('payload_too_large', `A batch holds at most ${MAX_ACTIVITIES} activities; this one has ${activities.length}.`);
  }
  if (activities.length === 0) {
    throw new ApiError('invalid_payload', 'The batch holds no activity.', {
      errors: [{ path: 'activities', code: 'too_small', message: `activities must hold 1 to ${MAX_ACTIVITIES} buckets` }],
    });
  }
  return activities;
}

function singleItem(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('malformed_json', 'The body must be one activity as a JSON object.');
  }
  return [value];
}

/** The handler of a write route: a batch of buckets, or one bucket, of either kind. */
export function writeHandler(kindName: 'ide' | 'desktop', shape: 'batch' | 'single') {
  const kind = (kindName === 'ide' ? ideKind : desktopKind) as BucketKind<unknown, unknown>;
  return async ({ request, db, user, admission }: WriteContext): Promise<Response> => {
    const { value, raw } = await readJsonBody(request);
    const items = shape === 'batch' ? batchItems(value) : singleItem(value);
    const idempotency = idempotencyKeyOf(request, new URL(request.url).pathname, raw);
    const result = await ingest(db, kind, {
      userId: user.id,
      timeZone: user.timezone,
      items,
      idempotency,
      successStatus: shape === 'batch' ? 200 : 201,
      admission,
    });
    return new Response(result.body, {
      status: result.status,
      headers: { 'content-type': jsonContentType, ...(result.replayed ? { 'idempotent-replayed': 'true' } : {}) },
    });
  };
}
