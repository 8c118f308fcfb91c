import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { rows, type DbHandle } from './client';
import { runOnlineSteps } from './online-steps';
import { applySessionSettings } from './settings';

export const migrationsFolder = path.resolve(process.cwd(), 'drizzle');

/** The advisory lock migrations run under on PostgreSQL (any fixed number of this service's). */
const MIGRATION_LOCK = sql`hashtextextended('codetally:migrations', 0)`;

/**
 * Applies the versioned migrations in drizzle/ that this database has not seen yet, then the
 * online steps not done yet (lib/db/online-steps.ts), and on PostgreSQL the session settings of
 * the role (lib/db/settings.ts). On PostgreSQL,
 * under an advisory lock: processes started together on an empty database migrate one after
 * another (the later ones find nothing left to apply). The lock is the session's, so the handle
 * should have one connection (as `npm start` and `db:migrate` open it); it ends with the session
 * at the latest.
 */
export async function migrateDb(handle: DbHandle, folder = migrationsFolder): Promise<void> {
  const locked = handle.kind === 'postgres';
  if (locked) await takeMigrationLock(handle);
  try {
    await refuseSquashedHistory(handle, folder);
    const run = handle.kind === 'pglite' ? migratePglite : migratePostgres;
    // Both migrators accept any drizzle PostgreSQL database; the cast only bridges their driver types.
    await run(handle.db as never, { migrationsFolder: folder });
    // What a migration's transaction must not do on a large table (lib/db/online-steps.ts).
    if (folder === migrationsFolder) await runOnlineSteps(handle);
    if (handle.kind === 'postgres') {
      const refused = await applySessionSettings(handle.db);
      if (refused) console.warn(`[codetally] warning: the session settings of the service's role could not be set (${refused}); each server process says at start what is missing`);
    }
  } finally {
    if (locked) await handle.db.execute(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => {});
  }
}

/**
 * Takes the migrations' lock by asking again every 100 ms rather than waiting inside one statement:
 * a process that waits in pg_advisory_lock holds a snapshot the whole time, and the lock holder's
 * CREATE INDEX CONCURRENTLY (an online step) waits for every older snapshot to end, so the two
 * would deadlock.
 */
async function takeMigrationLock(handle: DbHandle): Promise<void> {
  for (;;) {
    const [{ taken }] = await rows<{ taken: boolean }>(handle.db, sql`SELECT pg_try_advisory_lock(${MIGRATION_LOCK}) AS taken`);
    if (taken) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The migrations were squashed into one baseline before the first release: a database made by an
 * earlier pre-release version has applied none of today's, and running the baseline on it would
 * fail halfway. Say so instead.
 */
async function refuseSquashedHistory(handle: DbHandle, folder: string): Promise<void> {
  const [{ made }] = await rows<{ made: boolean }>(handle.db, sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS made`);
  if (!made) return;
  const applied = await rows<{ hash: string }>(handle.db, sql`SELECT hash FROM drizzle.__drizzle_migrations`);
  const known = new Set(readMigrationFiles({ migrationsFolder: folder }).map((m) => m.hash));
  if (applied.length > 0 && !applied.some((m) => known.has(m.hash))) {
    throw new Error(
      'This database was made by a pre-release version of Codetally whose migrations have since been squashed; it cannot be upgraded. ' +
        'Export what you need (GET /main/api/v1/me/export) and start on a new database (an empty DATA_DIR or DATABASE_URL).',
    );
  }
}
