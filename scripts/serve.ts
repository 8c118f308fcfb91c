// Serves the production build: Next's request handler behind the service's own HTTP server
// (lib/server/front.ts), on PORT. `npm start` (scripts/start.ts) migrates first, then runs this.
import fs from 'node:fs';
import path from 'node:path';
import { closeDb } from '../lib/db/client';
import { dataDirHolder, inUse } from '../lib/db/embedded-lock';
import { frontServer, stopServing } from '../lib/server/front';
import { authSecretProblem } from '../lib/auth/secret';
import { stopImports } from '../lib/wakatime/importing/import-queue';
import { enterAppRoot, loadConfigOrExit } from './env';

/** How long requests in flight, then imports being read, get to finish once the server stops. */
const STOP_GRACE_MS = 10_000;
/**
 * The longest a stop takes in all: both graces and closing the database (PostgreSQL's pool closes
 * the connections whose statements still run after 5 s; the embedded database first runs the
 * statements already queued for it, each bounded: no statement of the service runs for minutes on
 * the thread that would handle the signal). Past it the process exits without waiting longer, as a
 * host's SIGKILL would end it, only sooner and saying so.
 */
const STOP_BOUND_MS = 2 * STOP_GRACE_MS + 10_000;
let stopping = false;

const root = enterAppRoot();
const cfg = loadConfigOrExit();
// What would stop the server anyway (lib/server/boot.ts), said before Next starts.
const holder = cfg.DATABASE_URL ? null : dataDirHolder(cfg.DATA_DIR);
const problem = authSecretProblem(cfg) ?? (holder && inUse(cfg.DATA_DIR, holder).message);
if (problem) {
  console.error(`[codetally] ${problem}`);
  process.exit(1);
}
Object.assign(process.env, { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' });
// The configuration the build was made with, as Next's own standalone server reads it: the
// running server neither needs next.config.ts nor compiles it.
const { config: builtConfig } = JSON.parse(fs.readFileSync(path.join(root, '.next', 'required-server-files.json'), 'utf8'));
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG ??= JSON.stringify(builtConfig);
const { default: next } = await import('next');
const app = next({ dev: false, dir: root, hostname: 'localhost', port: cfg.PORT });
await app.prepare();
const server = frontServer(app.getRequestHandler(), {
  trustProxy: cfg.TRUST_PROXY,
  siteUrl: cfg.SITE_URL,
  requestTimeoutMs: cfg.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
});
await new Promise<void>((resolve) => server.listen(cfg.PORT, resolve));
console.log(`[codetally] serving on http://localhost:${cfg.PORT}`);

/**
 * Stop taking connections, let requests in flight finish (up to a bound), put the imports being
 * read back in the queue (their start not counted: a deploy is not a file that kills the server),
 * close the database; all of it within STOP_BOUND_MS.
 */
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`[codetally] ${signal}: finishing requests in flight, then stopping`);
  setTimeout(() => {
    console.error(`[codetally] still stopping after ${STOP_BOUND_MS / 1000} s: exiting without waiting for the rest`);
    process.exit(1);
  }, STOP_BOUND_MS);
  await stopServing(server, STOP_GRACE_MS);
  await stopImports(STOP_GRACE_MS);
  await closeDb().catch((err) => console.error('[codetally] closing the database failed:', (err as Error).message));
  process.exit(0);
}
// Once: the same signal again ends the process at once (the operator's way not to wait).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop(signal));
