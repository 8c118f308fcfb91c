import { sql } from 'drizzle-orm';
import { config } from '../../config';
import { rows, type Db } from '../../db/client';
import { col, cols } from '../../db/names';
import { heartbeats, trustFlags, trustScans, userDays, users } from '../../db/schema';
import { hideUser } from './hides';

// The signals of a gamed leaderboard, found in what Codetally already keeps (day rollups and the
// stored heartbeats: times and machine names), never in addresses, fingerprints or content. A scan
// reads only the users who wrote since their last scan (their stats version moved), and of them only
// the last two UTC days: its cost follows the activity since the last scan, not the install's size.
// Every process scans once a minute (lib/server/boot.ts), one at a time; the operators' flags
// route scans first. Decision 0035.

export const signals = ['hours_per_day', 'heartbeats_per_day', 'machines_per_hour', 'exact_interval'] as const;
export type Signal = (typeof signals)[number];

/** The thresholds, as the contract fixes them: more than these raises a flag. */
export const LIMITS = { hoursPerDay: 20, heartbeatsPerDay: 30_000, machinesPerHour: 3, intervalHours: 8 };
/** A gap longer than this is a pause, not an interval (WakaTime's rule for credited time). */
const MAX_GAP_MS = 15 * 60_000;
/** Users scanned in one statement. */
const BATCH = 200;
const HOUR_MS = 3_600_000;

const utcDay = (ms: string) => sql.raw(`(to_timestamp((${ms}) / 1000.0) AT TIME ZONE 'UTC')::date`);

/**
 * One batch: flags of the due users upserted (a flag keeps when it was first seen, its detail
 * follows the figure), their stats versions recorded; returns the flags new in this batch.
 */
async function scanBatch(tx: Db, since: number): Promise<{ user_id: string; handle: string; signal: Signal; due: number }[]> {
  const [u, s, d, h, f] = [users, trustScans, userDays, heartbeats, trustFlags];
  return rows(
    tx,
    sql`WITH due AS MATERIALIZED (
          SELECT ${u.id} AS id, ${u.handle} AS handle, ${u.statsVersion} AS stats_version FROM ${u} LEFT JOIN ${s} ON ${s.userId} = ${u.id}
          WHERE ${u.statsVersion} > coalesce(${s.statsVersion}, 0) ORDER BY ${u.id} LIMIT ${BATCH}
        ),
        beats AS MATERIALIZED (
          SELECT ${h.userId} AS user_id, ${h.at} AS at, coalesce(${h.machine}, '') AS machine FROM ${h} JOIN due ON due.id = ${h.userId} WHERE ${h.at} >= ${since}
        ),
        gaps AS (
          SELECT user_id, machine, at, at - lag(at) OVER (PARTITION BY user_id, machine ORDER BY at) AS gap FROM beats
        ),
        runs AS (
          SELECT user_id, machine, at, gap, sum(starts) OVER (PARTITION BY user_id, machine ORDER BY at) AS run FROM (
            SELECT *, CASE WHEN gap IS DISTINCT FROM lag(gap) OVER (PARTITION BY user_id, machine ORDER BY at) THEN 1 ELSE 0 END AS starts FROM gaps
          ) AS m
        ),
        found AS (
          SELECT ${d.userId} AS user_id, 'hours_per_day' AS signal, ${d.date} AS day, round(${d.millis}::numeric / ${HOUR_MS}, 1)::text || ' h coded' AS detail
          FROM ${d} JOIN due ON due.id = ${d.userId}
          WHERE ${d.date} >= (${utcDay(String(since))}) - 1 AND ${d.millis} > ${LIMITS.hoursPerDay * HOUR_MS}
          UNION ALL
          SELECT user_id, 'heartbeats_per_day', ${utcDay('at')}, count(*)::text || ' heartbeats'
          FROM beats GROUP BY user_id, ${utcDay('at')} HAVING count(*) > ${LIMITS.heartbeatsPerDay}
          UNION ALL
          SELECT user_id, 'machines_per_hour', ${utcDay('hour_no * 3600000')}, max(n)::text || ' machines in one hour'
          FROM (SELECT user_id, at / ${HOUR_MS} AS hour_no, count(DISTINCT machine) AS n FROM beats WHERE machine <> '' GROUP BY 1, 2) AS x
          WHERE n > ${LIMITS.machinesPerHour} GROUP BY user_id, 3
          UNION ALL
          SELECT user_id, 'exact_interval', ${utcDay('began')}, 'every ' || round(min(gap) / 1000.0, 1)::text || ' s for ' || round(max(ended - began)::numeric / ${HOUR_MS}, 1)::text || ' h'
          FROM (
            SELECT user_id, gap, min(at - gap) AS began, max(at) AS ended FROM runs WHERE gap > 0 AND gap <= ${MAX_GAP_MS}
            GROUP BY user_id, machine, run, gap HAVING max(at) - min(at - gap) > ${LIMITS.intervalHours * HOUR_MS}
          ) AS r GROUP BY user_id, 3
        ),
        stored AS (
          INSERT INTO ${f} (${cols(f.userId, f.signal, f.day, f.detail)}) SELECT user_id, signal, day, detail FROM found
          ON CONFLICT (${cols(f.userId, f.signal, f.day)}) DO UPDATE SET ${col(f.detail)} = excluded.${col(f.detail)}
          RETURNING ${f.userId} AS user_id, ${f.signal} AS signal, (xmax = 0) AS inserted
        ),
        scanned AS (
          INSERT INTO ${s} (${cols(s.userId, s.statsVersion)}) SELECT id, stats_version FROM due
          ON CONFLICT (${col(s.userId)}) DO UPDATE SET ${col(s.statsVersion)} = excluded.${col(s.statsVersion)}
        )
        SELECT st.user_id, due.handle, st.signal, (SELECT count(*) FROM due)::int AS due
        FROM stored st JOIN due ON due.id = st.user_id WHERE st.inserted
        UNION ALL SELECT NULL, NULL, NULL, (SELECT count(*) FROM due)::int`,
  );
}

/** Midnight UTC of yesterday, epoch ms: a scan reads heartbeats from then on. */
const scanSince = (now = Date.now()) => Math.floor(now / 86_400_000) * 86_400_000 - 86_400_000;

/**
 * Scans every user who wrote since their last scan, a batch at a time, one process at a time; with
 * LEADERBOARD_AUTO_HIDE=on a user newly flagged (and not hidden already) is hidden pending review,
 * the signal as the reason. Returns the flags raised.
 */
export async function scanSignals(db: Db, maxBatches = 50): Promise<{ handle: string; signal: Signal }[]> {
  const raised: { user_id: string; handle: string; signal: Signal }[] = [];
  for (let batch = 0; batch < maxBatches; batch++) {
    const found = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('codetally:trust-scan', 0))`);
      return scanBatch(tx, scanSince());
    });
    raised.push(...found.filter((r) => r.signal !== null));
    if ((found[0]?.due ?? 0) < BATCH) break;
  }
  if (config().LEADERBOARD_AUTO_HIDE) {
    const first = new Map<string, { handle: string; signal: Signal }>();
    for (const r of raised) if (!first.has(r.user_id)) first.set(r.user_id, r);
    for (const r of first.values()) await hideUser(db, { handle: r.handle, reason: r.signal, until: null }, 'automatic', { onlyIfShown: true });
  }
  return raised.map((r) => ({ handle: r.handle, signal: r.signal }));
}
