#!/usr/bin/env node
// What bin/codetally starts: the compiled CLI (npm install builds it; `npm run build -w client` again after a change).
import fs from 'node:fs';

const cli = new URL('../dist/cli.mjs', import.meta.url);
if (!fs.existsSync(cli)) {
  console.error('codetally: the client is not built; run `npm install` (or `npm run build -w client`) in the repository.');
  process.exit(2);
}
await import(cli.href);
