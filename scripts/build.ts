// For tests and benchmarks: make the production build when it is missing or older than the
// sources, and the arguments that run its compiled programs. (npm start never rebuilds a build
// that exists: scripts/launch.mjs.)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const sources = ['app', 'lib', 'public', 'drizzle', 'scripts', 'instrumentation.ts', 'proxy.ts', 'next.config.ts', 'package.json', 'tsconfig.json'];

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** A compiled program of the build (scripts/bundle.mjs): start, serve, migrate or admin. */
export function programPath(name: 'start' | 'serve' | 'migrate' | 'admin'): string {
  return path.resolve('.next', 'codetally', `${name}.mjs`);
}

/** True when there is no production build, or a source file changed after it was made. */
export function buildIsStale(): boolean {
  const made = programPath('serve');
  if (!fs.existsSync(made) || !fs.existsSync(path.join('.next', 'BUILD_ID'))) return true;
  const built = fs.statSync(made).mtimeMs;
  return sources.some((s) => newestMtime(s) > built);
}

/** The node arguments that serve the production build (scripts/serve.ts) on the PORT of the environment. */
export function serveArgs(): string[] {
  return [programPath('serve')];
}

/** Runs `npm run build` unless an up-to-date build exists. */
export function ensureBuild(): void {
  if (!buildIsStale()) return;
  console.log('[codetally] building the app (no build, or sources changed)...');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error('the build failed (see its output above)');
}
