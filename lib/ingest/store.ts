import { sql, type SQL } from 'drizzle-orm';
import { rows as resultRows, type Db } from '../db/client';
import type { DesktopRow, IdeRow } from './buckets';
import { IDEMPOTENCY_TTL_HOURS, type IdempotencyKey } from './idempotency';

// A write is one statement, so it is atomic without a round trip for BEGIN or COMMIT. The rows
// travel as a single JSON parameter (an array of tuples, half the bytes of an array of objects), are ordered by key (concurrent batches lock shared rows in
// the same order and cannot deadlock) and are added to what is stored. Callers pass rows
// already grouped: one statement may touch a row only once.

function ideUpsert(userId: string, rows: IdeRow[], guard: SQL): SQL {
  const tuples = rows.map((r) => [r.date, r.hour, r.language, r.project, r.editor, r.millis, r.lines]);
  return sql`
    INSERT INTO ide_activity AS a (user_id, date, hour, language, project, editor, millis, lines)
    SELECT ${userId}::uuid, (e->>0)::date, (e->>1)::smallint, e->>2, e->>3, e->>4, (e->>5)::bigint, (e->>6)::bigint
    FROM jsonb_array_elements(${JSON.stringify(tuples)}::jsonb) AS e
    ${guard}
    ORDER BY 2, 3, 4, 5, 6
    ON CONFLICT (user_id, date, hour, language, project, editor) DO UPDATE
      SET millis = a.millis + excluded.millis, lines = a.lines + excluded.lines, updated_at = now()`;
}

function desktopUpsert(userId: string, rows: DesktopRow[], guard: SQL): SQL {
  const tuples = rows.map((r) => [r.date, r.hour, r.platform, r.app, r.millis]);
  return sql`
    INSERT INTO desktop_activity AS a (user_id, date, hour, platform, app, millis)
    SELECT ${userId}::uuid, (e->>0)::date, (e->>1)::smallint, e->>2, e->>3, (e->>4)::bigint
    FROM jsonb_array_elements(${JSON.stringify(tuples)}::jsonb) AS e
    ${guard}
    ORDER BY 2, 3, 4, 5
    ON CONFLICT (user_id, date, hour, platform, app) DO UPDATE
      SET millis = a.millis + excluded.millis, updated_at = now()`;
}

const upserts = { ide: ideUpsert, desktop: desktopUpsert } as const;

export interface Claim extends IdempotencyKey {
  status: number;
  answer: unknown;
}

/** written: stored; busy: the key's first request is still running; taken: the key was used before. */
export type WriteOutcome = 'written' | 'busy' | 'taken';

/**
 * Stores grouped rows. With an idempotency claim, the same statement takes the key's lock
 * (not waiting: a held lock means the first request is still running), records the answer
 * unless a live record exists, and writes the rows only if it did: the key and the data
 * commit together or not at all. The unique key decides even against a first request that
 * committed after this statement's snapshot, because ON CONFLICT checks the latest row.
 */
export async function writeRows(
  db: Db,
  kind: 'ide' | 'desktop',
  userId: string,
  rows: IdeRow[] | DesktopRow[],
  claim?: Claim,
): Promise<WriteOutcome> {
  const upsert = upserts[kind] as (userId: string, rows: unknown[], guard: SQL) => SQL;
  if (!claim) {
    await db.execute(upsert(userId, rows, sql``));
    return 'written';
  }
  const [outcome] = await resultRows<{ locked: boolean; claimed: boolean }>(
    db,
    sql`
    WITH lock AS (
      SELECT pg_try_advisory_xact_lock(hashtextextended(${userId} || '/' || ${claim.key}, 0)) AS ok
    ), claim AS (
      INSERT INTO idempotency_keys AS k (user_id, key, request_hash, status, response)
      SELECT ${userId}::uuid, ${claim.key}, ${claim.requestHash}, ${claim.status}, ${JSON.stringify(claim.answer)}::jsonb
      FROM lock WHERE lock.ok
      ON CONFLICT (user_id, key) DO UPDATE
        SET request_hash = excluded.request_hash, status = excluded.status, response = excluded.response, created_at = now()
        WHERE k.created_at <= now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
      RETURNING 1
    ), data AS (${upsert(userId, rows, sql`WHERE EXISTS (SELECT 1 FROM claim)`)})
    SELECT (SELECT ok FROM lock) AS locked, EXISTS (SELECT 1 FROM claim) AS claimed`,
  );
  if (!outcome.locked) return 'busy';
  return outcome.claimed ? 'written' : 'taken';
}
