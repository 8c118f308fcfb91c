// npm run db:migrate — apply pending migrations to the configured database
import fs from 'node:fs';
import { openDb } from '../lib/db/client';
import { migrateDb } from '../lib/db/migrate';
import { refreshCommunity } from '../lib/stats/community';
import { loadConfigOrExit } from './env';

export async function migrateConfigured(): Promise<void> {
  const cfg = loadConfigOrExit();
  if (!cfg.DATABASE_URL) fs.mkdirSync(cfg.DATA_DIR, { recursive: true, mode: 0o700 });
  const handle = await openDb({ databaseUrl: cfg.DATABASE_URL, dataDir: cfg.DATA_DIR }, 1, { limits: false });
  try {
    await migrateDb(handle);
    // Dates a migration marked (or writes left marked) are recomputed now, not by the first readers.
    const dates = await refreshCommunity(handle.db, Infinity);
    if (dates > 0) console.log(`[codetally] site-wide figures recomputed for ${dates} dates`);
  } finally {
    await handle.close();
  }
  console.log(`[codetally] migrations applied (${cfg.DATABASE_URL ? 'PostgreSQL' : `embedded database in ${cfg.DATA_DIR}`})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  migrateConfigured().catch((err) => {
    console.error('[codetally] migration failed:', err.message ?? err);
    process.exit(1);
  });
}
