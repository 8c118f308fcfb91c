import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { idempotencyKeys as keys } from '../db/schema';
import { ApiError } from '../http/problem';

export const IDEMPOTENCY_TTL_HOURS = 24;
const MAX_KEY_LENGTH = 255;

export interface IdempotencyKey {
  key: string;
  /** SHA-256 of the route and the body: the same key with another request is a reuse. */
  requestHash: string;
}

export interface StoredAnswer {
  status: number;
  /** The first answer's body, byte for byte. */
  body: string;
}

/** Reads the optional Idempotency-Key header of a write. */
export function idempotencyKeyOf(request: Request, route: string, rawBody: Uint8Array): IdempotencyKey | undefined {
  const key = request.headers.get('idempotency-key');
  if (key === null) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new ApiError('invalid_payload', 'The Idempotency-Key header must be 1-255 characters.', {
      errors: [{ path: 'Idempotency-Key', code: 'too_big', message: 'Idempotency-Key must be 1-255 characters' }],
    });
  }
  const requestHash = createHash('sha256').update(route).update('\n').update(rawBody).digest('hex');
  return { key, requestHash };
}

export const inProgress = () =>
  new ApiError('idempotency_in_progress', 'A request with this Idempotency-Key is still running. Retry shortly.', {
    headers: { 'retry-after': '1' },
  });

/**
 * The answer recorded for this key in the last 24 hours: the same request gets it again, another
 * request with the same key is refused. Null when the key has no live record.
 */
export async function replayOf(db: Db, userId: string, k: IdempotencyKey): Promise<StoredAnswer | null> {
  const [stored] = await rows<{ request_hash: string; status: number; response: string }>(
    db,
    sql`SELECT ${keys.requestHash} AS request_hash, ${keys.status} AS status, ${keys.response} AS response FROM ${keys}
        WHERE ${keys.userId} = ${userId} AND ${keys.key} = ${k.key}
          AND ${keys.createdAt} > now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
  );
  if (!stored) return null;
  if (stored.request_hash !== k.requestHash) {
    throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request in the last 24 hours.');
  }
  return { status: stored.status, body: stored.response };
}

let lastPurge = 0;

/** Deletes expired records, at most every ten minutes per process. */
export async function purgeExpiredKeys(db: Db, now = Date.now()): Promise<void> {
  if (now - lastPurge < 600_000) return;
  lastPurge = now;
  await db.execute(
    sql`DELETE FROM ${keys} WHERE ${keys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
  );
}
