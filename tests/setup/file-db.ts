import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, inject } from 'vitest';
import { closeDb } from '../../lib/db/client';
import { resetConfig } from '../../lib/config';
import { copyPglite, copyPostgres } from './databases';

// Each test file gets its own copy of the migrated template, chosen before any module reads the config.
if (process.env.TEST_DB === 'postgres') {
  process.env.DATABASE_URL = await copyPostgres(process.env.TEST_DATABASE_URL!, inject('postgresTemplate'));
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
