import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { openDb } from '../../lib/db/client';
import { migrateDb } from '../../lib/db/migrate';
import { serveArgs } from '../../scripts/build';
import { testDataRoot } from '../setup/databases';

// A real server (scripts/serve.ts, the production build) on a fresh embedded database of its own.

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Which server runs the build: `npm start`'s (the front server before Next's handler), or with
 * TEST_HOST=next Next's own `next start`, the local stand-in for a serverless host such as Vercel
 * (the deploy's migration step is done here, as on Vercel before the build goes live).
 */
export const testHost: 'front' | 'next' = process.env.TEST_HOST === 'next' ? 'next' : 'front';

function hostArgs(port: number): string[] {
  if (testHost === 'front') return serveArgs();
  // No --hostname: with one, Next takes a proxy's rewrite for another origin (its request URL
  // names localhost) and sends it out as a request from outside.
  return [path.resolve('node_modules/next/dist/bin/next'), 'start', '--port', String(port)];
}

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  /** What the server printed so far. */
  output(): string;
  /** Stops the server (its data stays, for a look afterwards, until `remove`). */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  remove(): void;
}

/**
 * Starts a server on the production build, which the e2e project's global setup made (once per
 * run), on a fresh embedded database (or the PostgreSQL database `env.DATABASE_URL` names,
 * migrated here), or again on the data and port of one that was stopped.
 */
export async function startTestServer(env: Record<string, string>, again?: { dataDir: string; port: number }, newDataDir?: string): Promise<TestServer & { port: number }> {
  const dataDir = again?.dataDir ?? newDataDir ?? path.join(testDataRoot, `server-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
  if (!again) {
    fs.mkdirSync(dataDir, { recursive: true });
    // The database the server is given (env.DATABASE_URL, on PostgreSQL), or an embedded one in dataDir.
    const handle = await openDb({ databaseUrl: env.DATABASE_MIGRATION_URL ?? env.DATABASE_URL, dataDir }, 1, { migrations: true });
    await migrateDb(handle);
    await handle.close();
  }
  const port = again?.port ?? (await freePort());
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1' };
  delete childEnv.DATABASE_URL;
  Object.assign(childEnv, env);
  // As a host runs it (vitest's own NODE_ENV is `test`); npm start's server sets it itself.
  if (testHost === 'next') Object.assign(childEnv, { NODE_ENV: 'production' });
  const server: ChildProcess = spawn(process.execPath, hostArgs(port), { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
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
    if (i > 300 || server.exitCode !== null) throw new Error(`the server did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const ended = (signal: NodeJS.Signals) => async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    server.kill(signal);
    await new Promise((r) => server.once('exit', r));
  };
  return {
    baseUrl,
    port,
    dataDir,
    output: () => output,
    stop: ended('SIGTERM'),
    kill: ended('SIGKILL'),
    remove: () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}
