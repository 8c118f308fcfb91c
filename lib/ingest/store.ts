import { sql, type SQL } from 'drizzle-orm';
import { HOUR_CAP_MILLIS } from '../activity';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { preparedRows, type Db } from '../db/client';
import { addExcluded, col, cols } from '../db/names';
import {
  apiTokens,
  communityDirty,
  desktopActivity,
  ideActivity,
  idempotencyKeys,
  userDayEditors,
  userDayLanguages,
  userDays,
  userHours,
  users,
} from '../db/schema';
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
/** The CTE `batch` (date, hour, language, project, editor, millis, lines) of IDE rows, and `batch_hours`. */
function ideBatch(rows: IdeRow[], guard: SQL): SQL {
  const tuples = rows.map((r) => [r.date, r.hour, r.language, r.project, r.editor, r.millis, r.lines]);
  return sql`
    batch AS MATERIALIZED (
      SELECT (e->>0)::date AS date, (e->>1)::smallint AS hour, e->>2 AS language, e->>3 AS project,
             e->>4 AS editor, (e->>5)::bigint AS millis, (e->>6)::bigint AS lines
      FROM jsonb_array_elements(${JSON.stringify(tuples)}::text::jsonb) AS e
      ${guard}
    ),
    batch_hours AS (SELECT date, hour, sum(millis)::bigint AS millis FROM batch GROUP BY date, hour)`;
}

/**
 * What the batch adds to each day once every hour is capped: the capped hour after the write
 * minus the capped hour before it (the stored hour minus what this batch added). `hours` holds
 * the stored hours after the write.
 */
const cappedDayChange = sql`
  SELECT h.date, sum(least(h.millis, ${HOUR_CAP_MILLIS}) - least(h.millis - b.millis, ${HOUR_CAP_MILLIS})) AS millis
  FROM hours h JOIN batch_hours b USING (date, hour)
  GROUP BY h.date`;

/** CTEs that mark the batch's dates for the site-wide refresh and move the user's stats version. */
function ideMarks(userId: string): SQL {
  return sql`
    community AS (
      -- Site-wide rollups of these dates are recomputed on the next site-wide read (lib/stats/community.ts).
      INSERT INTO ${communityDirty} (${col(communityDirty.date)}) SELECT DISTINCT date FROM batch
    ),
    version AS (
      UPDATE ${users} SET ${col(users.statsVersion)} = ${users.statsVersion} + 1
      WHERE ${users.id} = ${userId}::uuid AND EXISTS (SELECT 1 FROM batch)
    )`;
}

function ideWrites(userId: string, rows: IdeRow[], guard: SQL): SQL {
  const [a, h, d, l, ed] = [ideActivity, userHours, userDays, userDayLanguages, userDayEditors];
  const activityKey = cols(a.userId, a.date, a.hour, a.language, a.project, a.editor);
  return sql`
    ${ideBatch(rows, guard)},
    activity AS (
      INSERT INTO ${a} (${activityKey}, ${cols(a.millis, a.lines)})
      SELECT ${userId}::uuid, date, hour, language, project, editor, millis, lines FROM batch
      ORDER BY date, hour, language, project, editor
      ON CONFLICT (${activityKey}) DO UPDATE
        SET ${addExcluded(a.millis)}, ${addExcluded(a.lines)}, ${col(a.updatedAt)} = now()
    ),
    hours AS (
      INSERT INTO ${h} (${cols(h.userId, h.date, h.hour, h.millis)})
      SELECT ${userId}::uuid, date, hour, millis FROM batch_hours ORDER BY date, hour
      ON CONFLICT (${cols(h.userId, h.date, h.hour)}) DO UPDATE SET ${addExcluded(h.millis)}
      RETURNING ${h.date} AS date, ${h.hour} AS hour, ${h.millis} AS millis
    ),
    days AS (
      INSERT INTO ${d} (${cols(d.userId, d.date, d.millis)})
      SELECT ${userId}::uuid, date, millis FROM (${cappedDayChange}) AS c ORDER BY date
      ON CONFLICT (${cols(d.userId, d.date)}) DO UPDATE SET ${addExcluded(d.millis)}
    ),
    languages AS (
      INSERT INTO ${l} (${cols(l.userId, l.date, l.language, l.millis)})
      SELECT ${userId}::uuid, date, language, sum(millis) FROM batch GROUP BY date, language ORDER BY date, language
      ON CONFLICT (${cols(l.userId, l.date, l.language)}) DO UPDATE SET ${addExcluded(l.millis)}
    ),
    editors AS (
      INSERT INTO ${ed} (${cols(ed.userId, ed.date, ed.editor, ed.millis)})
      SELECT ${userId}::uuid, date, editor, sum(millis) FROM batch GROUP BY date, editor ORDER BY date, editor
      ON CONFLICT (${cols(ed.userId, ed.date, ed.editor)}) DO UPDATE SET ${addExcluded(ed.millis)}
    ),
    ${ideMarks(userId)}`;
}

/**
 * CTEs that take back IDE time already stored (rows with negative millis, each matching a stored
 * row): UPDATEs only, so no candidate row below zero ever meets the tables' CHECKs, as an
 * upsert's would. Heartbeats use it when a late one shortens a credit (lib/wakatime/heartbeats.ts).
 */
function ideTakeBacks(userId: string, rows: IdeRow[]): SQL {
  const [a, h, d, l, ed] = [ideActivity, userHours, userDays, userDayLanguages, userDayEditors];
  const owned = (t: typeof a | typeof h | typeof d | typeof l | typeof ed) => sql`${t.userId} = ${userId}::uuid`;
  return sql`
    ${ideBatch(rows, sql``)},
    activity AS (
      UPDATE ${a} SET ${col(a.millis)} = ${a.millis} + b.millis, ${col(a.updatedAt)} = now() FROM batch b
      WHERE ${owned(a)} AND ${a.date} = b.date AND ${a.hour} = b.hour AND ${a.language} = b.language AND ${a.project} = b.project AND ${a.editor} = b.editor
    ),
    hours AS (
      UPDATE ${h} SET ${col(h.millis)} = ${h.millis} + b.millis FROM batch_hours b
      WHERE ${owned(h)} AND ${h.date} = b.date AND ${h.hour} = b.hour
      RETURNING ${h.date} AS date, ${h.hour} AS hour, ${h.millis} AS millis
    ),
    days AS (
      UPDATE ${d} SET ${col(d.millis)} = ${d.millis} + c.millis FROM (${cappedDayChange}) AS c
      WHERE ${owned(d)} AND ${d.date} = c.date
    ),
    languages AS (
      UPDATE ${l} SET ${col(l.millis)} = ${l.millis} + c.millis
      FROM (SELECT date, language, sum(millis) AS millis FROM batch GROUP BY date, language) AS c
      WHERE ${owned(l)} AND ${l.date} = c.date AND ${l.language} = c.language
    ),
    editors AS (
      UPDATE ${ed} SET ${col(ed.millis)} = ${ed.millis} + c.millis
      FROM (SELECT date, editor, sum(millis) AS millis FROM batch GROUP BY date, editor) AS c
      WHERE ${owned(ed)} AND ${ed.date} = c.date AND ${ed.editor} = c.editor
    ),
    ${ideMarks(userId)}`;
}

/** CTEs that store desktop rows (desktop time has no public rollups). */
function desktopWrites(userId: string, rows: DesktopRow[], guard: SQL): SQL {
  const tuples = rows.map((r) => [r.date, r.hour, r.platform, r.app, r.millis]);
  const a = desktopActivity;
  const key = cols(a.userId, a.date, a.hour, a.platform, a.app);
  return sql`
    activity AS (
      INSERT INTO ${a} (${key}, ${col(a.millis)})
      SELECT ${userId}::uuid, (e->>0)::date, (e->>1)::smallint, e->>2, e->>3, (e->>4)::bigint
      FROM jsonb_array_elements(${JSON.stringify(tuples)}::text::jsonb) AS e
      ${guard}
      ORDER BY 2, 3, 4, 5
      ON CONFLICT (${key}) DO UPDATE
        SET ${addExcluded(a.millis)}, ${col(a.updatedAt)} = now()
    )`;
}

/** CTEs that take back desktop time already stored (rows with negative millis): see ideTakeBacks. */
function desktopTakeBacks(userId: string, rows: DesktopRow[]): SQL {
  const tuples = rows.map((r) => [r.date, r.hour, r.platform, r.app, r.millis]);
  const a = desktopActivity;
  return sql`
    activity AS (
      UPDATE ${a} SET ${col(a.millis)} = ${a.millis} + (e->>4)::bigint, ${col(a.updatedAt)} = now()
      FROM jsonb_array_elements(${JSON.stringify(tuples)}::text::jsonb) AS e
      WHERE ${a.userId} = ${userId}::uuid AND ${a.date} = (e->>0)::date AND ${a.hour} = (e->>1)::smallint
        AND ${a.platform} = e->>2 AND ${a.app} = e->>3
    )`;
}

const writes = { ide: ideWrites, desktop: desktopWrites } as const;

/**
 * Takes back time already stored, in one statement: every row names a stored bucket and a
 * negative amount no larger than what it holds (what an earlier write added). Not idempotent:
 * the caller keeps what it added (lib/wakatime/heartbeats.ts keeps each credit).
 */
export async function takeBackRows(db: Db, kind: 'ide' | 'desktop', userId: string, rows: IdeRow[] | DesktopRow[]): Promise<void> {
  const ctes = kind === 'ide' ? ideTakeBacks(userId, rows as IdeRow[]) : desktopTakeBacks(userId, rows as DesktopRow[]);
  await db.execute(sql`WITH ${ctes} SELECT 1`);
}

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
  const [t, u] = [apiTokens, users];
  return sql`
    token AS (
      SELECT ${t.id} AS token_id, ${t.userId} AS user_id, ${u.timezone} AS timezone
      FROM ${t} JOIN ${u} ON ${u.id} = ${t.userId}
      WHERE ${t.id} = ${admit.tokenId}::uuid AND ${t.revokedAt} IS NULL
    ),
    current AS (SELECT token_id, user_id FROM token WHERE timezone = ${admit.timeZone}),
    ${countWriteCtes(sql`SELECT token_id, user_id FROM current`, admit.limits)},
    admitted AS (SELECT 1 FROM current ${within.length ? sql`WHERE ${sql.join(within, sql` AND `)}` : sql``})`;
}

/** The idempotency claim: taken only under the key's lock, and only when `gate` (if any) holds a row. */
function claimCtes(userId: string, claim: Claim, gate: SQL | null): SQL {
  const k = idempotencyKeys;
  const set = (c: AnyPgColumn) => sql`${col(c)} = excluded.${col(c)}`;
  return sql`
    lock AS (
      SELECT pg_try_advisory_xact_lock(hashtextextended(${userId} || '/' || ${claim.key}, 0)) AS ok
      ${gate ? sql`WHERE EXISTS (SELECT 1 FROM ${gate})` : sql``}
    ), claim AS (
      INSERT INTO ${k} (${cols(k.userId, k.key, k.requestHash, k.status, k.response)})
      SELECT ${userId}::uuid, ${claim.key}, ${claim.requestHash}, ${claim.status}, ${claim.body}
      FROM lock WHERE lock.ok
      ON CONFLICT (${cols(k.userId, k.key)}) DO UPDATE
        SET ${set(k.requestHash)}, ${set(k.status)}, ${set(k.response)}, ${col(k.createdAt)} = now()
        WHERE ${k.createdAt} <= now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
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
