import fs from 'node:fs';
import type { Config } from '../lib/config';
import { openDb, type DbTarget } from '../lib/db/client';
import { migrateDb } from '../lib/db/migrate';
import { refreshCommunity } from '../lib/stats/community';
import { loadConfigOrExit } from './env';

/**
 * Where the programs that migrate (start, db:migrate, admin) open the database: the direct URL
 * when DATABASE_URL is a transaction pooler (migrations hold a session lock), else DATABASE_URL.
 */
export function directTarget(cfg: Config): DbTarget {
  return { databaseUrl: cfg.DATABASE_MIGRATION_URL ?? cfg.DATABASE_URL, dataDir: cfg.DATA_DIR };
}

async function migrate(cfg: Config): Promise<void> {
  if (!cfg.DATABASE_URL) fs.mkdirSync(cfg.DATA_DIR, { recursive: true, mode: 0o700 });
  const target = directTarget(cfg);
  const handle = await openDb(target, 1, { migrations: true });
  try {
    await migrateDb(handle);
    // Dates a migration marked (or writes left marked) are recomputed now, not by the first readers.
    const dates = await refreshCommunity(handle.db, Infinity);
    if (dates > 0) console.log(`[codetally] site-wide figures recomputed for ${dates} dates`);
  } finally {
    await handle.close();
  }
  console.log(`[codetally] migrations applied (${target.databaseUrl ? 'PostgreSQL' : `embedded database in ${cfg.DATA_DIR}`})`);
}

/** Applies pending migrations to the configured database (under a lock: see lib/db/migrate.ts); exits 1, saying why, when they fail. */
export async function migrateConfigured(): Promise<void> {
  await migrate(loadConfigOrExit()).catch((err) => {
    console.error('[codetally] migration failed:', (err as Error)?.message ?? err);
    process.exit(1);
  });
}
