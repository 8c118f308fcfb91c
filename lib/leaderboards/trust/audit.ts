import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client';
import { cols } from '../../db/names';
import { operatorAudit } from '../../db/schema';

// The audit log: every operator action, by whom, on whom, why and until when. Handles only (the
// record outlives an account and is shown to operators): never an address, an email or a User-Agent.

/** Who acted: an operator's handle, `admin-token` (the ADMIN_TOKEN holder), `admin-cli` (`npm run admin`) or `automatic` (LEADERBOARD_AUTO_HIDE, a hide's end). */
export type Actor = string;

export interface AuditEntry {
  at: string;
  operator: string;
  action: string;
  handle: string | null;
  reason: string | null;
  until: string | null;
}

export const AUDIT_PAGE = 200;

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

export async function recordAction(db: Db, entry: { operator: Actor; action: string; handle?: string | null; reason?: string | null; until?: string | null }): Promise<void> {
  const a = operatorAudit;
  await db.execute(
    sql`INSERT INTO ${a} (${cols(a.operator, a.action, a.handle, a.reason, a.until)})
        VALUES (${entry.operator}, ${entry.action}, ${entry.handle ?? null}, ${entry.reason ?? null}, ${entry.until ?? null}::timestamptz)`,
  );
}

/** The newest `limit` entries (at most AUDIT_PAGE), of one handle (any case) if given. */
export async function auditLog(db: Db, handle?: string | null, limit = AUDIT_PAGE): Promise<AuditEntry[]> {
  const a = operatorAudit;
  const found = await rows<{ at: string | Date; operator: string; action: string; handle: string | null; reason: string | null; until: string | Date | null }>(
    db,
    sql`SELECT ${a.at} AS at, ${a.operator} AS operator, ${a.action} AS action, ${a.handle} AS handle, ${a.reason} AS reason, ${a.until} AS until
        FROM ${a} ${handle ? sql`WHERE lower(${a.handle}) = lower(${handle})` : sql``} ORDER BY ${a.id} DESC LIMIT ${Math.min(limit, AUDIT_PAGE)}`,
  );
  return found.map((r) => ({ at: iso(r.at)!, operator: r.operator, action: r.action, handle: r.handle, reason: r.reason, until: iso(r.until) }));
}
