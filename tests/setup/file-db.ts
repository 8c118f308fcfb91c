import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, inject } from 'vitest';
import { closeDb } from '../../lib/db/client';
import { resetConfig } from '../../lib/config';
import { copyPglite, copyPostgres } from './databases';

// Each test file gets its own copy of the migrated template, chosen before any module reads the config.
if (process.env.TEST_DB === 'postgres' || process.env.TEST_DB === 'pgbouncer') {
  const direct = await copyPostgres(process.env.TEST_DATABASE_URL!, inject('postgresTemplate'));
  process.env.DATABASE_URL = direct;
  if (process.env.TEST_DB === 'pgbouncer') {
    // The service through the pooler in transaction mode, migrations on the direct URL.
    const pooled = new URL(direct);
    pooled.hostname = '127.0.0.1';
    pooled.port = String(inject('poolerPort'));
    process.env.DATABASE_URL = pooled.toString();
    process.env.DATABASE_POOLER = 'transaction';
    process.env.DATABASE_MIGRATION_URL = direct;
  }
  process.env.AUTH_SECRET = 'test-auth-secret-for-postgres-0123456789';
  // Files the service keeps besides the database (import uploads).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-test-'));
  process.env.DATA_DIR = dir;
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
} else {
  delete process.env.DATABASE_URL;
  const dir = copyPglite(inject('pgliteTemplate'));
  process.env.DATA_DIR = dir;
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
}
process.env.ADMIN_TOKEN = 'test-admin-token-0123456789';
process.env.SYNC_RATE_LIMIT_PER_MINUTE = '0';
process.env.PUBLIC_CACHE_SECONDS = '0';
process.env.LEADERBOARD_MAX_AGE = '0';
resetConfig();
afterAll(() => closeDb());
