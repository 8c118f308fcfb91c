// Builds the client: src/cli.ts and src/index.ts to dist/*.mjs, one file each, no dependencies at
// run time (a `codetally heartbeat` call starts in tens of milliseconds).
import fs from 'node:fs';
import { build } from 'esbuild';

fs.rmSync(new URL('dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
  outdir: new URL('dist', import.meta.url).pathname,
  absWorkingDir: new URL('.', import.meta.url).pathname,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
