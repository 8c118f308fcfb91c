import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
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
 * Deletes the heartbeats no late one can reach any more, user by user through the primary key
 * (users who ever sent one: heartbeats_since). No index on time alone: it served only this, and
 * added WAL to every heartbeat stored (docs/scaling.md).
 */
export async function purgeOldHeartbeats(db: Db, now = Date.now()): Promise<void> {
  const before = now - LATE_LIMIT_MS - AHEAD_LIMIT_MS - GAP_MS;
  const [h, u] = [heartbeats, users];
  await db.execute(
    sql`DELETE FROM ${h} WHERE ${h.userId} = ANY (ARRAY(SELECT ${u.id} FROM ${u} WHERE ${u.heartbeatsSince} < ${before})) AND ${h.at} < ${before}`,
  );
}
