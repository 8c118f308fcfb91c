// The second half of `npm run build`: the service's own programs (scripts/*.ts) compiled once
// into .next/codetally/*.mjs, so that running them needs neither tsx nor TypeScript; and, when
// Next made a standalone output, that folder completed so it runs on its own:
// `node .next/standalone/server.js`.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
/** The programs, each an entry of the bundle: `start` (npm start), `serve`, `migrate`, `admin`. */
export const programs = ['start', 'serve', 'migrate', 'admin'];
export const programsDir = path.join(root, '.next', 'codetally');

export async function bundlePrograms() {
  fs.rmSync(programsDir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(programs.map((name) => [name, `scripts/${name}.ts`])),
    outdir: programsDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Next is the same package the built app runs on; PGlite loads its WASM from its own folder.
    // Everything else is compiled in, so a standalone folder needs only what Next traced.
    external: ['next', 'next/*', '@electric-sql/pglite', '@electric-sql/pglite/*'],
    // Packages compiled in that still call require() (postgres.js, Auth.js) get one of their own.
    banner: { js: "import { createRequire as __codetallyRequire } from 'node:module'; const require = __codetallyRequire(import.meta.url);" },
    logLevel: 'warning',
  });
}

/** Completes Next's standalone folder: static files, migrations, the programs, and our server.js. */
export function completeStandalone() {
  const standalone = path.join(root, '.next', 'standalone');
  if (!fs.existsSync(standalone)) return false;
  const copy = (from, to) => fs.existsSync(from) && fs.cpSync(from, to, { recursive: true });
  copy(path.join(root, '.next', 'static'), path.join(standalone, '.next', 'static'));
  copy(path.join(root, 'public'), path.join(standalone, 'public'));
  copy(path.join(root, 'drizzle'), path.join(standalone, 'drizzle'));
  copy(programsDir, path.join(standalone, '.next', 'codetally'));
  // Next's own server.js would serve without the service's HTTP server (lib/server/front.ts).
  fs.writeFileSync(path.join(standalone, 'server.js'), "// Codetally: migrate, then serve (the same program as npm start).\nimport('./.next/codetally/start.mjs');\n");
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  await bundlePrograms();
  const standalone = completeStandalone();
  console.log(`[codetally] programs compiled to .next/codetally${standalone ? '; .next/standalone is ready (node .next/standalone/server.js)' : ''}`);
}
