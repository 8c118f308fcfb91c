import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { heartbeats, mailReports, mailYearReviews, passwordLogins, relayQueue, trustFlags, userHours, users } from '../db/schema';
import { hiddenFromPublic } from '../sharing/gate';
import { textProblem } from '../text';

// What an operator reads: accounts, the flags queue and the install's own figures. Used by the
// operator routes (GET /admin/users, GET /admin/flags) and the console at /admin alike. Each list
// is capped; a flag names a handle, a day and a figure, never an address.

export const ACCOUNTS_PAGE = 50;
export const FLAGS_PAGE = 200;

export interface AccountRow {
  handle: string;
  email: string | null;
  plan: string;
  created_at: string;
  last_heartbeat_at: string | null;
  flags: number;
  hidden: { reason: string; until: string | null } | null;
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/**
 * When an account was last heard from: its last kept heartbeat (heartbeats are kept 14 days and
 * only the WakaTime routes send them), else the end of its last hour with time (the sync route and
 * the desktop agent, imports, and anything older), as the WakaTime projects list says it.
 */
function lastSeen(beat: number | null, hourEnd: number | null): string | null {
  const [b, e] = [beat === null ? null : Number(beat), hourEnd === null ? null : Number(hourEnd)];
  const last = b !== null && (e === null || b >= e - 3_600_000) ? b : e;
  return last === null ? null : new Date(last).toISOString();
}

/** Accounts whose handle or address contains `q` (any case), newest first; every account without `q`. */
export async function findAccounts(db: Db, q: string | null): Promise<AccountRow[]> {
  const [u, p, h, f, uh] = [users, passwordLogins, heartbeats, trustFlags, userHours];
  // Text no handle or address holds (NUL, an unpaired surrogate) finds nothing; PostgreSQL refuses it.
  if (q && textProblem(q)) return [];
  const like = q ? `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const found = await rows<{
    handle: string; email: string | null; plan: string; created_at: string | Date; last_at: number | null; last_hour: number | null; flags: number;
    hidden: boolean; reason: string | null; until: string | Date | null;
  }>(
    db,
    sql`SELECT ${u.handle} AS handle, ${p.email} AS email, ${u.planId} AS plan, ${u.createdAt} AS created_at,
               (SELECT max(${h.at}) FROM ${h} WHERE ${h.userId} = ${u.id})::float8 AS last_at,
               (SELECT extract(epoch FROM (${uh.date} + make_interval(hours => ${uh.hour} + 1)) AT TIME ZONE ${u.timezone}) * 1000
                FROM ${uh} WHERE ${uh.userId} = ${u.id} ORDER BY ${uh.date} DESC, ${uh.hour} DESC LIMIT 1)::float8 AS last_hour,
               (SELECT count(*) FROM ${f} WHERE ${f.userId} = ${u.id})::int AS flags,
               ${hiddenFromPublic(u)} AS hidden, ${u.hiddenReason} AS reason, ${u.hiddenUntil} AS until
        FROM ${u} LEFT JOIN ${p} ON ${p.userId} = ${u.id}
        ${like ? sql`WHERE lower(${u.handle}) LIKE ${like} OR lower(${p.email}) LIKE ${like}` : sql``}
        ORDER BY ${u.createdAt} DESC, ${u.id} LIMIT ${ACCOUNTS_PAGE}`,
  );
  return found.map((r) => ({
    handle: r.handle,
    email: r.email,
    plan: r.plan,
    created_at: iso(r.created_at)!,
    last_heartbeat_at: lastSeen(r.last_at, r.last_hour),
    flags: r.flags,
    hidden: r.hidden ? { reason: r.reason!, until: iso(r.until) } : null,
  }));
}

export interface FlagRow {
  handle: string;
  signal: string;
  day: string;
  detail: string;
  first_seen_at: string;
  /** Whether the account is hidden now (the console's queue shows it; the route leaves it out). */
  hidden: boolean;
}

/** The flags, newest first: the queue operators review. */
export async function listFlags(db: Db): Promise<FlagRow[]> {
  const [u, f] = [users, trustFlags];
  const found = await rows<{ handle: string; signal: string; day: string; detail: string; first_seen_at: string | Date; hidden: boolean }>(
    db,
    sql`SELECT ${u.handle} AS handle, ${f.signal} AS signal, to_char(${f.day}, 'YYYY-MM-DD') AS day, ${f.detail} AS detail,
               ${f.firstSeenAt} AS first_seen_at, ${hiddenFromPublic(u)} AS hidden
        FROM ${f} JOIN ${u} ON ${u.id} = ${f.userId}
        ORDER BY ${f.firstSeenAt} DESC, ${u.handle}, ${f.signal}, ${f.day} LIMIT ${FLAGS_PAGE}`,
  );
  return found.map((r) => ({ ...r, first_seen_at: iso(r.first_seen_at)! }));
}

export interface InstallFigures {
  accounts: number;
  heartbeats_today: number;
  database_bytes: number;
  mail_queue: number;
  /** Heartbeats waiting to be relayed to users' old services. */
  relay_queue: number;
}

/**
 * The install's own figures. The mail queue: weekly reports and year reviews being sent or
 * waiting to be tried again. Heartbeats today: each account's through the heartbeats' own key
 * (user, time), never a scan of the whole table.
 */
export async function installFigures(db: Db): Promise<InstallFigures> {
  const midnight = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  const [figures] = await rows<{ accounts: number; heartbeats_today: number; database_bytes: number; mail_queue: number; relay_queue: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM ${users})::float8 AS accounts,
               (SELECT coalesce(sum((SELECT count(*) FROM ${heartbeats} WHERE ${heartbeats.userId} = ${users.id} AND ${heartbeats.at} >= ${midnight})), 0) FROM ${users})::float8 AS heartbeats_today,
               pg_database_size(current_database())::float8 AS database_bytes,
               ((SELECT count(*) FROM ${mailReports} WHERE ${mailReports.status} IN ('sending', 'failed'))
                + (SELECT count(*) FROM ${mailYearReviews} WHERE ${mailYearReviews.status} IN ('sending', 'failed')))::float8 AS mail_queue,
               (SELECT count(*) FROM ${relayQueue})::float8 AS relay_queue`,
  );
  return {
    accounts: Number(figures.accounts),
    heartbeats_today: Number(figures.heartbeats_today),
    database_bytes: Number(figures.database_bytes),
    mail_queue: Number(figures.mail_queue),
    relay_queue: Number(figures.relay_queue),
  };
}
