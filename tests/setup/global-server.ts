import { execFileSync } from 'node:child_process';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { ensureBuild } from '../../scripts/build';
import { startPgBouncer } from '../helpers/postgres-cluster';
import { roundRobin } from '../helpers/round-robin';
import { startTestServer, type TestServer } from '../helpers/server';
import { databaseUrlFor } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    /** The embedded database's folder of the server; '' when it runs on PostgreSQL. */
    serverDataDir: string;
    /** The direct URL of the servers' PostgreSQL database (for the admin CLI); '' on the embedded one. */
    serverDatabaseUrl: string;
  }
}

export const e2eRateLimit = 30;

// The black-box suite talks to the real server of a production build on a fresh embedded database.
// The build is made here, once per run (CI builds before the tests, so this finds it up to date);
// servers the test files start use the same build. The reference client is built too (a
// fraction of a second). With TEST_POOLER=pgbouncer (and TEST_DATABASE_URL), the same suite
// talks instead to two server processes on a fresh PostgreSQL database reached through a real
// PgBouncer in transaction mode, each connection to the suite's address handed to the next one.
export default async function setup(project: TestProject) {
  ensureBuild();
  execFileSync(process.execPath, ['client/build.mjs'], { stdio: 'inherit' }); // the reference client's CLI (tests/e2e/client.test.ts)
  const adminToken = 'e2e-admin-token-0123456789';
  // PLANS=on: the suite's server sells plans (prices, Free's limits); tests/e2e/plans-off.test.ts
  // starts a default install of its own.
  const env = { ADMIN_TOKEN: adminToken, SYNC_RATE_LIMIT_PER_MINUTE: String(e2eRateLimit), LEADERBOARD_MAX_AGE: '0', PLANS: 'on' };
  project.provide('adminToken', adminToken);
  if (process.env.TEST_POOLER !== 'pgbouncer') {
    const server = await startTestServer(env);
    project.provide('baseUrl', server.baseUrl);
    project.provide('serverDataDir', server.dataDir);
    project.provide('serverDatabaseUrl', '');
    return async () => {
      await server.stop();
      server.remove();
    };
  }

  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_POOLER=pgbouncer needs TEST_DATABASE_URL (a PostgreSQL server the suite may make databases on)');
  const name = `codetally_e2e_${process.pid}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const direct = new URL(databaseUrlFor(base, name));
  const pooler = await startPgBouncer({ host: direct.hostname, port: Number(direct.port || 5432) });
  const pooled = {
    ...env,
    DATABASE_URL: `${pooler.url(name)}?max=5`,
    DATABASE_POOLER: 'transaction',
    DATABASE_MIGRATION_URL: direct.toString(),
    AUTH_SECRET: 'e2e-pooled-auth-secret-0123456789abcdef',
    AUTH_PASSWORD: 'on', // the embedded database's default, which the suite signs up with
  };
  const servers: TestServer[] = [await startTestServer(pooled), await startTestServer(pooled)];
  const front = await roundRobin(servers.map((s) => Number(new URL(s.baseUrl).port)));
  project.provide('baseUrl', `http://127.0.0.1:${front.port}`);
  project.provide('serverDataDir', '');
  project.provide('serverDatabaseUrl', direct.toString());
  return async () => {
    await front.close();
    for (const server of servers) {
      await server.stop();
      server.remove();
    }
    await pooler.stop();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
}
