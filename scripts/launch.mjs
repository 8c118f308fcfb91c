// npm start, npm run db:migrate, npm run admin: run a compiled program (.next/codetally/<name>.mjs,
// made by `npm run build`). `start` builds first when there is no build, so `npm install &&
// npm start` works on a fresh checkout; a host that built already starts at once and never
// rebuilds. The other programs compile themselves alone when missing (seconds, no Next build).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [name, ...args] = process.argv.slice(2);
const program = path.join(root, '.next', 'codetally', `${name}.mjs`);
const built = fs.existsSync(path.join(root, '.next', 'BUILD_ID'));

// The dependencies' patches (patches/, applied by patch-package when npm installs; each changed
// file carries a "codetally:" comment) must be in place: without them one dropped database
// connection ends the process, and failed statements log users' values. An install with scripts
// disabled skips them.
const patches = path.join(root, 'patches');
const patched = fs.readdirSync(patches).flatMap((patch) => [...fs.readFileSync(path.join(patches, patch), 'utf8').matchAll(/^\+\+\+ b\/(\S+)$/gm)].map((m) => m[1]));
const unpatched = patched.filter((file) => !fs.existsSync(path.join(root, file)) || !fs.readFileSync(path.join(root, file), 'utf8').includes('codetally:'));
if (unpatched.length > 0) {
  console.error(`[codetally] dependencies are installed without their patches (${unpatched.join(', ')}): run "npm install" with install scripts enabled (patch-package applies patches/).`);
  process.exit(1);
}

function run(command, argv) {
  const result = spawnSync(command, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) {
    console.error(`[codetally] ${[path.basename(command), ...argv].join(' ')} failed (see its output above)`);
    process.exit(1);
  }
}

if (name === 'start' && (!built || !fs.existsSync(program))) {
  console.log('[codetally] no build yet: building the app once (npm run build)...');
  run('npm', ['run', 'build']);
} else if (!fs.existsSync(program)) {
  run(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')]);
}
process.argv = [process.argv[0], program, ...args];
await import(program);
