import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { rows, type Db } from '../../db/client';
import { col, cols } from '../../db/names';
import { heartbeats, lateHeartbeatKeys, userAiSessions, users } from '../../db/schema';
import { AHEAD_LIMIT_MS, GAP_MS, LATE_LIMIT_MS } from './heartbeat';

let lastPurge = 0;

/**
 * How long a heartbeat is remembered after its row is purged, or after it was last sent again
 * since (decision 0026): longer than any resend of a real client (wakatime-cli's offline queue
 * resending a batch whose answer was lost, at its next run online; a relay's retries; an AI sync
 * reading an agent's history again), short enough that what is kept has a bound: the heartbeats
 * a user sent in 14 days and this horizon. A heartbeat sent again after this long a silence counts again.
 */
export const KEYS_KEPT_MS = 90 * 86_400_000;

/**
 * What tells two heartbeats apart (time, type, entity digest) as one 64-bit number: the key a
 * heartbeat is remembered by once its row is gone (late_heartbeat_keys). The same in the purge
 * that writes it and in the heartbeat statement that looks it up.
 */
export const heartbeatKeySql = (at: SQL, type: SQL, digest: SQL): SQL =>
  sql`('x' || left(md5(${at}::text || '/' || ${type} || '/' || ${digest}::text), 16))::bit(64)::bigint`;

/** Purges old heartbeats (purgeOldHeartbeats) at most every ten minutes per process, in the background. */
export function purgeNowAndThen(db: Db, now = Date.now()): void {
  if (now - lastPurge < 600_000) return;
  lastPurge = now;
  purgeOldHeartbeats(db, now).catch((err) => console.error('[codetally] purging old heartbeats failed:', (err as Error).message));
}

/**
 * The most rows one statement of the purge deletes: the purge runs on the embedded database's
 * only thread too, and the backlog one account can leave (everything it sent 14 days ago, or 90
 * days ago for its keys) has no bound of its own. A batch of heartbeats, their keys written, took
 * 80 ms on the embedded database and 45 ms on PostgreSQL (decision 0026); the purge goes batch
 * after batch until one comes back short, and requests run between them.
 */
const PURGE_BATCH = 5_000;

/** Runs `statement` (answering `n`, the rows it deleted) until it deletes fewer than PURGE_BATCH. */
async function inBatches(db: Db, statement: SQL): Promise<void> {
  for (;;) {
    const [{ n }] = await rows<{ n: number }>(db, statement);
    if (n < PURGE_BATCH) return;
  }
}

/**
 * Deletes the heartbeats past keeping, user by user through the primary key (users who ever sent
 * one: heartbeats_since; whose late ones are due: late_heartbeats_until): by their time, once no
 * late heartbeat can reach them, and those that arrived late 14 days after they did
 * (`purge_after`). The statement that deletes them keeps each one's key for KEYS_KEPT_MS, so that
 * no moment exists where a heartbeat is neither a row nor a key; then the keys past their horizon
 * go, through their own index. Both in batches (PURGE_BATCH). No index on the heartbeats' time
 * alone: it served only this, and added WAL to every heartbeat stored (docs/scaling.md); the keys'
 * index is written by the purge (and late resends) only.
 */
export async function purgeOldHeartbeats(db: Db, now = Date.now()): Promise<void> {
  const before = now - LATE_LIMIT_MS - AHEAD_LIMIT_MS - GAP_MS;
  const [h, u, k, a] = [heartbeats, users, lateHeartbeatKeys, userAiSessions];
  const due = sql`${u.heartbeatsSince} < ${before} OR ${u.lateHeartbeatsUntil} < ${now}`;
  const key = heartbeatKeySql(col(h.at), col(h.type), col(h.entityDigest));
  await inBatches(
    db,
    sql`
    WITH doomed AS MATERIALIZED (
      SELECT ${cols(h.userId, h.at, h.type, h.entityDigest)} FROM ${h}
      WHERE ${h.userId} = ANY (ARRAY(SELECT ${u.id} FROM ${u} WHERE ${due})) AND ${h.at} < ${before} AND coalesce(${h.purgeAfter}, 0) < ${now}
      LIMIT ${PURGE_BATCH}
    ),
    gone AS (
      DELETE FROM ${h} USING doomed d WHERE ${h.userId} = d.user_id AND ${h.at} = d.at AND ${h.type} = d.type AND ${h.entityDigest} = d.entity_digest
      RETURNING ${h.userId}, ${h.at}, ${h.type}, ${h.entityDigest}
    ),
    remembered AS (
      INSERT INTO ${k} (${cols(k.userId, k.key, k.forgetAfter)})
      SELECT DISTINCT ${col(h.userId)}, ${key}, ${now + KEYS_KEPT_MS}::bigint FROM gone
      ON CONFLICT (${cols(k.userId, k.key)}) DO UPDATE SET ${col(k.forgetAfter)} = greatest(${k.forgetAfter}, excluded.${col(k.forgetAfter)})
    )
    SELECT count(*)::int AS n FROM gone`,
  );
  await forgetPast(db, k, [k.userId, k.key], k.forgetAfter, now);
  // AI sessions past their horizon (one named again after it would count once more).
  await forgetPast(db, a, [a.userId, a.session], a.forgetAfter, now);
  // A late batch since raised it past now, and keeps its rows until then.
  await db.execute(sql`UPDATE ${u} SET ${col(u.lateHeartbeatsUntil)} = NULL WHERE ${u.lateHeartbeatsUntil} < ${now}`);
}

/** Deletes a table's rows whose `forgetAfter` has passed, through its index, in batches. */
function forgetPast(db: Db, table: PgTable, key: PgColumn[], forgetAfter: PgColumn, now: number): Promise<void> {
  return inBatches(
    db,
    sql`
    WITH gone AS (
      DELETE FROM ${table} WHERE (${cols(...key)}) IN (SELECT ${cols(...key)} FROM ${table} WHERE ${forgetAfter} < ${now} LIMIT ${PURGE_BATCH})
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM gone`,
  );
}
