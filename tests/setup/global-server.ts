import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { ensureBuild } from '../../scripts/build';
import { startTestServer } from '../helpers/server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    serverDataDir: string;
  }
}

export const e2eRateLimit = 30;

// The black-box suite talks to the real server of a production build on a fresh embedded database.
// The build is made here, once per run (CI builds before the tests, so this finds it up to date);
// servers the test files start use the same build. The reference client is built too (a
// fraction of a second).
export default async function setup(project: TestProject) {
  ensureBuild();
  execFileSync(process.execPath, ['client/build.mjs'], { stdio: 'inherit' }); // the reference client's CLI (tests/e2e/client.test.ts)
  const adminToken = 'e2e-admin-token-0123456789';
  const server = await startTestServer({ ADMIN_TOKEN: adminToken, SYNC_RATE_LIMIT_PER_MINUTE: String(e2eRateLimit), LEADERBOARD_MAX_AGE: '0' });
  project.provide('baseUrl', server.baseUrl);
  project.provide('adminToken', adminToken);
  project.provide('serverDataDir', server.dataDir);
  return async () => {
    await server.stop();
    server.remove();
  };
}
