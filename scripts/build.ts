import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const { missingGuard } = createRequire(import.meta.url)('./patch-postgres.cjs') as { missingGuard: () => string | null };

/** Why postgres.js cannot be used (it lacks the guard that keeps a dropped connection from killing the server), or null. */
export const postgresGuardProblem = missingGuard;

const sources = ['app', 'lib', 'public', 'drizzle', 'instrumentation.ts', 'proxy.ts', 'next.config.ts', 'package.json', 'tsconfig.json'];

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** True when there is no production build, or a source file changed after it was made. */
export function buildIsStale(): boolean {
  const buildId = path.join('.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  return sources.some((s) => newestMtime(s) > built);
}

export function nextBin(): string {
  return path.resolve('node_modules', 'next', 'dist', 'bin', 'next');
}

/** The node arguments that serve the production build (scripts/serve.ts) on the PORT of the environment. */
export function serveArgs(): string[] {
  return ['--import', 'tsx', path.resolve('scripts', 'serve.ts')];
}

/** Builds the app unless an up-to-date build exists. */
export function ensureBuild(): void {
  const problem = postgresGuardProblem();
  if (problem) throw new Error(problem);
  if (!buildIsStale()) return;
  console.log('[codetally] building the app (first start, or sources changed)...');
  const result = spawnSync(process.execPath, [nextBin(), 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error('the build failed (see its output above)');
}
