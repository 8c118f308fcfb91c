import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDb } from '../../lib/db/client';
import { migrateDb } from '../../lib/db/migrate';
import { ensureBuild, nextBin } from '../../scripts/build';
import { testDataRoot } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    serverDataDir: string;
  }
}

export const e2eRateLimit = 30;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

// The black-box suite talks to a real `next start` of a production build on a fresh embedded database.
export default async function setup(project: TestProject) {
  ensureBuild();
  const dataDir = path.join(testDataRoot, `server-${process.pid}-${Date.now()}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const handle = await openDb({ dataDir });
  await migrateDb(handle);
  await handle.close();

  const port = await freePort();
  const adminToken = 'e2e-admin-token-0123456789';
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, SYNC_RATE_LIMIT_PER_MINUTE: String(e2eRateLimit), LEADERBOARD_MAX_AGE: '0', NEXT_TELEMETRY_DISABLED: '1' };
  delete env.DATABASE_URL;
  const server: ChildProcess = spawn(process.execPath, [nextBin(), 'start', '-p', String(port)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));

  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}/main/api/v1/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300 || server.exitCode !== null) throw new Error(`next start did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  project.provide('baseUrl', baseUrl);
  project.provide('adminToken', adminToken);
  project.provide('serverDataDir', dataDir);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
