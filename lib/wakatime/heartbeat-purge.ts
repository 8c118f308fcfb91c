import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { col } from '../db/names';
import { heartbeats, users } from '../db/schema';
import { AHEAD_LIMIT_MS, GAP_MS, LATE_LIMIT_MS } from './heartbeat';

let lastPurge = 0;

/** Purges old heartbeats (purgeOldHeartbeats) at most every ten minutes per process, in the background. */
export function purgeNowAndThen(db: Db, now = Date.now()): void {
  if (now - lastPurge < 600_000) return;
  lastPurge = now;
  purgeOldHeartbeats(db, now).catch((err) => console.error('[codetally] purging old heartbeats failed:', (err as Error).message));
}

/**
 * Deletes the heartbeats past keeping, user by user through the primary key (users who ever sent
 * one: heartbeats_since; whose late ones are due: late_heartbeats_until): by their time, once no
 * late heartbeat can reach them, and those that arrived late 14 days after they did
 * (`purge_after`; their keys stay in late_heartbeat_keys). No index on time alone: it served only
 * this, and added WAL to every heartbeat stored (docs/scaling.md).
 */
export async function purgeOldHeartbeats(db: Db, now = Date.now()): Promise<void> {
  const before = now - LATE_LIMIT_MS - AHEAD_LIMIT_MS - GAP_MS;
  const [h, u] = [heartbeats, users];
  const due = sql`${u.heartbeatsSince} < ${before} OR ${u.lateHeartbeatsUntil} < ${now}`;
  await db.execute(
    sql`DELETE FROM ${h} WHERE ${h.userId} = ANY (ARRAY(SELECT ${u.id} FROM ${u} WHERE ${due})) AND ${h.at} < ${before} AND coalesce(${h.purgeAfter}, 0) < ${now}`,
  );
  // A late batch since raised it past now, and keeps its rows until then.
  await db.execute(sql`UPDATE ${u} SET ${col(u.lateHeartbeatsUntil)} = NULL WHERE ${u.lateHeartbeatsUntil} < ${now}`);
}
