import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { rows } from './client';
import { STATEMENT_TIMEOUT_MS } from './deadline';

// What the service's PostgreSQL sessions run with, kept as settings of its role in its database
// (ALTER ROLE ... IN DATABASE ... SET), which PostgreSQL applies to every session it starts for
// that role there: through a direct connection and through any pooler alike. Sent as startup
// parameters instead, PgBouncer refuses the connection (08P01 unsupported startup parameter), and
// a pooler told to ignore them drops them silently; SET on a connection does not last behind a
// transaction pooler. The migration step applies them (lib/db/migrate.ts), on the direct URL;
// every server process checks at start that its sessions carry them (lib/server/boot.ts).

interface Setting {
  name: string;
  /** In the unit pg_settings reports it in. */
  value: number;
  unit: 'ms' | '8kB';
  why: string;
}

export const sessionSettings: readonly Setting[] = [
  { name: 'statement_timeout', value: STATEMENT_TIMEOUT_MS, unit: 'ms', why: 'a slow statement fails (503, retried) instead of holding a connection' },
  { name: 'lock_timeout', value: 5_000, unit: 'ms', why: 'a statement waiting on a lock gives up' },
  { name: 'idle_in_transaction_session_timeout', value: 60_000, unit: 'ms', why: 'a transaction its client abandoned releases its locks' },
  // Pages a backend writes out itself (evicting them from shared buffers) go to the disk every
  // 256 kB, not left for the kernel: with Linux's default write-back the pages a burst of
  // heartbeats left were written out later in bursts that held every commit's WAL flush, and so
  // the answers (docs/scaling.md). PostgreSQL's default is 0: none.
  { name: 'backend_flush_after', value: 32, unit: '8kB', why: 'commits do not wait behind the kernel\'s write-back bursts' },
];

/** A setting's value as SET takes it. */
const literal = (s: Setting) => (s.unit === 'ms' ? `${s.value}ms` : `${s.value * 8}kB`);

/** The statements that set them for the current role in the current database, for an operator to run. */
export async function sessionSettingStatements(db: Db): Promise<string[]> {
  const [{ role, database }] = await rows<{ role: string; database: string }>(
    db,
    sql`SELECT quote_ident(current_user) AS role, quote_ident(current_database()) AS database`,
  );
  return sessionSettings.map((s) => `ALTER ROLE ${role} IN DATABASE ${database} SET ${s.name} = '${literal(s)}'`);
}

/**
 * Sets them on the current role in the current database (a role may set its own; migrations run
 * as the service's role, or as an owner who can). Returns null, or why it could not.
 */
export async function applySessionSettings(db: Db): Promise<string | null> {
  try {
    for (const statement of await sessionSettingStatements(db)) await db.execute(sql.raw(statement));
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * Null when a session of this pool carries every setting, else one sentence saying which do not,
 * and what to run. (Behind a pooler, server connections it opened before the settings were
 * applied keep the old values until it reconnects them.)
 */
export async function sessionSettingsProblem(db: Db): Promise<string | null> {
  const found = await rows<{ name: string; setting: string }>(
    db,
    sql`SELECT name, setting FROM pg_settings WHERE name IN (${sql.join(sessionSettings.map((s) => sql`${s.name}`), sql`, `)})`,
  );
  const actual = new Map(found.map((r) => [r.name, Number(r.setting)]));
  const wrong = sessionSettings.filter((s) => actual.get(s.name) !== s.value);
  if (wrong.length === 0) return null;
  const statements = (await sessionSettingStatements(db)).filter((_, i) => wrong.includes(sessionSettings[i]));
  return (
    `the database sessions lack ${wrong.map((s) => `${s.name} = ${literal(s)} (${s.why}; found ${actual.get(s.name) ?? 'nothing'})`).join(', ')}. ` +
    `Run the migrations (npm run db:migrate: they set them on the role), or as a role that may: ${statements.join('; ')}; ` +
    'behind a pooler, then make it reconnect (PgBouncer: RECONNECT in its console). Requests are still bounded by the service itself.'
  );
}
