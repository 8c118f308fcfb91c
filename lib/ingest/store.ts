import { sql, type SQL } from 'drizzle-orm';
import { HOUR_CAP_MILLIS } from '../activity';
import { preparedRows, type Db } from '../db/client';
import type { DesktopRow, IdeRow } from './buckets';
import type { Admit, AdmitResult } from '../auth/write-door';
import { countedColumns, countWriteCtes } from '../http/rate-limit';
import { IDEMPOTENCY_TTL_HOURS, type IdempotencyKey } from './idempotency';

// A write is one statement, so it is atomic without a round trip for BEGIN or COMMIT. The rows
// travel as a single JSON parameter (an array of tuples, sent as text: a prepared statement's
// jsonb parameter would be serialized again), are ordered by key (concurrent batches
// lock shared rows in the same order and cannot deadlock) and are added to what is stored. The
// same statement adds them to the rollups the public reads use, so the two always agree.
// Callers pass rows already grouped: one statement may touch a row only once.

/** CTEs that store IDE rows and update the rollups; `guard` may veto the whole batch. */
function ideWrites(userId: string, rows: IdeRow[], guard: SQL): SQL {
  const tuples = rows.map((r) => [r.date, r.hour, r.language, r.project, r.editor, r.millis, r.lines]);
  return sql`
    batch AS MATERIALIZED (
      SELECT (e->>0)::date AS date, (e->>1)::smallint AS hour, e->>2 AS language, e->>3 AS project,
             e->>4 AS editor, (e->>5)::bigint AS millis, (e->>6)::bigint AS lines
      FROM jsonb_array_elements(${JSON.stringify(tuples)}::text::jsonb) AS e
      ${guard}
    ),
    activity AS (
      INSERT INTO ide_activity AS a (user_id, date, hour, language, project, editor, millis, lines)
      SELECT ${userId}::uuid, date, hour, language, project, editor, millis, lines FROM batch
      ORDER BY date, hour, language, project, editor
      ON CONFLICT (user_id, date, hour, language, project, editor) DO UPDATE
        SET millis = a.millis + excluded.millis, lines = a.lines + excluded.lines, updated_at = now()
    ),
    batch_hours AS (SELECT date, hour, sum(millis)::bigint AS millis FROM batch GROUP BY date, hour),
    hours AS (
      INSERT INTO user_hours AS h (user_id, date, hour, millis)
      SELECT ${userId}::uuid, date, hour, millis FROM batch_hours ORDER BY date, hour
      ON CONFLICT (user_id, date, hour) DO UPDATE SET millis = h.millis + excluded.millis
      RETURNING date, hour, millis
    ),
    days AS (
      -- What the batch adds to each day once every hour is capped: the capped hour after the
      -- write minus the capped hour before it (the stored hour minus what this batch added).
      INSERT INTO user_days AS d (user_id, date, millis)
      SELECT ${userId}::uuid, h.date,
             sum(least(h.millis, ${HOUR_CAP_MILLIS}) - least(h.millis - b.millis, ${HOUR_CAP_MILLIS}))
      FROM hours h JOIN batch_hours b USING (date, hour)
      GROUP BY h.date ORDER BY h.date
      ON CONFLICT (user_id, date) DO UPDATE SET millis = d.millis + excluded.millis
    ),
    languages AS (
      INSERT INTO user_day_languages AS l (user_id, date, language, millis)
      SELECT ${userId}::uuid, date, language, sum(millis) FROM batch GROUP BY date, language ORDER BY date, language
      ON CONFLICT (user_id, date, language) DO UPDATE SET millis = l.millis + excluded.millis
    ),
    editors AS (
      INSERT INTO user_day_editors AS ed (user_id, date, editor, millis)
      SELECT ${userId}::uuid, date, editor, sum(millis) FROM batch GROUP BY date, editor ORDER BY date, editor
      ON CONFLICT (user_id, date, editor) DO UPDATE SET millis = ed.millis + excluded.millis
    ),
    community AS (
      -- Site-wide rollups of these dates are recomputed on the next site-wide read (lib/stats/community.ts).
      INSERT INTO community_dirty (date) SELECT DISTINCT date FROM batch
    ),
    version AS (
      UPDATE users SET stats_version = stats_version + 1
      WHERE id = ${userId}::uuid AND EXISTS (SELECT 1 FROM batch)
    )`;
}

/** CTEs that store desktop rows (desktop time has no public rollups). */
function desktopWrites(userId: string, rows: DesktopRow[], guard: SQL): SQL {
  const tuples = rows.map((r) => [r.date, r.hour, r.platform, r.app, r.millis]);
  return sql`
    activity AS (
      INSERT INTO desktop_activity AS a (user_id, date, hour, platform, app, millis)
      SELECT ${userId}::uuid, (e->>0)::date, (e->>1)::smallint, e->>2, e->>3, (e->>4)::bigint
      FROM jsonb_array_elements(${JSON.stringify(tuples)}::text::jsonb) AS e
      ${guard}
      ORDER BY 2, 3, 4, 5
      ON CONFLICT (user_id, date, hour, platform, app) DO UPDATE
        SET millis = a.millis + excluded.millis, updated_at = now()
    )`;
}

const writes = { ide: ideWrites, desktop: desktopWrites } as const;

export interface Claim extends IdempotencyKey {
  status: number;
  /** The answer's body exactly as sent, so that a replay sends the same bytes. */
  body: string;
}

/** written: stored; busy: the key's first request is still running; taken: the key was used before. */
export type WriteOutcome = 'written' | 'busy' | 'taken';

interface WriteResultRow extends AdmitResult {
  locked: boolean | null;
  claimed: boolean | null;
}

/**
 * Stores grouped rows. With an idempotency claim, the same statement takes the key's lock
 * (not waiting: a held lock means the first request is still running), records the answer
 * unless a live record exists, and writes the rows only if it did: the key and the data
 * commit together or not at all. The unique key decides even against a first request that
 * committed after this statement's snapshot, because ON CONFLICT checks the latest row.
 * With `admit`, the outcome stands only if what the statement found admits the write
 * (`Admission.settle`); otherwise nothing was written.
 */
export async function writeRows(
  db: Db,
  kind: 'ide' | 'desktop',
  userId: string,
  rows: IdeRow[] | DesktopRow[],
  claim?: Claim,
  admit?: Admit,
): Promise<{ outcome: WriteOutcome; admitted?: AdmitResult }> {
  const [row] = await preparedRows<WriteResultRow>(db, writeStatement(kind, userId, rows, claim, admit));
  const admitted = admit && {
    timeZone: row.timeZone,
    token_count: row.token_count,
    token_reset: row.token_reset,
    user_count: row.user_count,
    user_reset: row.user_reset,
  };
  if (!claim) return { outcome: 'written', admitted };
  if (!row.locked) return { outcome: 'busy', admitted };
  return { outcome: row.claimed ? 'written' : 'taken', admitted };
}

/**
 * The token check and rate count of a write whose principal came from memory (lib/auth/write-door.ts):
 * `admitted` holds a row when the token is live, the timezone the one the batch was read with and
 * the counts within the token's and the user's budgets.
 */
function admitCtes(admit: Admit): SQL {
  const { token: tokenLimit, user: userLimit } = admit.limits;
  const within = [
    tokenLimit > 0 ? sql`(SELECT count FROM token_counted) <= ${tokenLimit}` : null,
    userLimit > 0 ? sql`(SELECT count FROM user_counted) <= ${userLimit}` : null,
  ].filter((c) => c !== null);
  return sql`
    token AS (
      SELECT t.id AS token_id, t.user_id, u.timezone FROM api_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.id = ${admit.tokenId}::uuid AND t.revoked_at IS NULL
    ),
    current AS (SELECT token_id, user_id FROM token WHERE timezone = ${admit.timeZone}),
    ${countWriteCtes(sql`SELECT token_id, user_id FROM current`, admit.limits)},
    admitted AS (SELECT 1 FROM current ${within.length ? sql`WHERE ${sql.join(within, sql` AND `)}` : sql``})`;
}

/** The idempotency claim: taken only under the key's lock, and only when `gate` (if any) holds a row. */
function claimCtes(userId: string, claim: Claim, gate: SQL | null): SQL {
  return sql`
    lock AS (
      SELECT pg_try_advisory_xact_lock(hashtextextended(${userId} || '/' || ${claim.key}, 0)) AS ok
      ${gate ? sql`WHERE EXISTS (SELECT 1 FROM ${gate})` : sql``}
    ), claim AS (
      INSERT INTO idempotency_keys AS k (user_id, key, request_hash, status, response)
      SELECT ${userId}::uuid, ${claim.key}, ${claim.requestHash}, ${claim.status}, ${claim.body}
      FROM lock WHERE lock.ok
      ON CONFLICT (user_id, key) DO UPDATE
        SET request_hash = excluded.request_hash, status = excluded.status, response = excluded.response, created_at = now()
        WHERE k.created_at <= now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
      RETURNING 1
    )`;
}

/** The one statement of a write (exported for the ingest benchmark's raw ceiling). */
export function writeStatement(kind: 'ide' | 'desktop', userId: string, rows: IdeRow[] | DesktopRow[], claim?: Claim, admit?: Admit): SQL {
  const ctes = writes[kind] as (userId: string, rows: unknown[], guard: SQL) => SQL;
  const parts: SQL[] = [];
  let gate: SQL | null = null;
  if (admit) {
    parts.push(admitCtes(admit));
    gate = sql.raw('admitted');
  }
  if (claim) {
    parts.push(claimCtes(userId, claim, gate));
    gate = sql.raw('claim');
  }
  parts.push(ctes(userId, rows, gate ? sql`WHERE EXISTS (SELECT 1 FROM ${gate})` : sql``));
  const claimed = claim
    ? sql`(SELECT ok FROM lock) AS locked, EXISTS (SELECT 1 FROM claim) AS claimed`
    : sql`NULL::boolean AS locked, NULL::boolean AS claimed`;
  const admitted = admit
    ? sql`(SELECT timezone FROM token) AS "timeZone", ${countedColumns}`
    : sql`NULL::text AS "timeZone", NULL::int AS token_count, NULL::int AS token_reset, NULL::int AS user_count, NULL::int AS user_reset`;
  return sql`WITH ${sql.join(parts, sql`, `)} SELECT ${claimed}, ${admitted}`;
}
