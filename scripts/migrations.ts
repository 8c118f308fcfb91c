import fs from 'node:fs';
import { openDb } from '../lib/db/client';
import { migrateDb } from '../lib/db/migrate';
import { refreshCommunity } from '../lib/stats/community';
import { loadConfigOrExit } from './env';

/** Applies pending migrations to the configured database (under a lock: see lib/db/migrate.ts). */
export async function migrateConfigured(): Promise<void> {
  const cfg = loadConfigOrExit();
  if (!cfg.DATABASE_URL) fs.mkdirSync(cfg.DATA_DIR, { recursive: true, mode: 0o700 });
  const databaseUrl = cfg.DATABASE_MIGRATION_URL ?? cfg.DATABASE_URL;
  const handle = await openDb({ databaseUrl, dataDir: cfg.DATA_DIR }, 1, { limits: false });
  try {
    await migrateDb(handle);
    // Dates a migration marked (or writes left marked) are recomputed now, not by the first readers.
    const dates = await refreshCommunity(handle.db, Infinity);
    if (dates > 0) console.log(`[codetally] site-wide figures recomputed for ${dates} dates`);
  } finally {
    await handle.close();
  }
  console.log(`[codetally] migrations applied (${databaseUrl ? 'PostgreSQL' : `embedded database in ${cfg.DATA_DIR}`})`);
}
