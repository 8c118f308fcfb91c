// postinstall: guard postgres.js against writing to a socket that has already closed.
// postgres@3.4.9 defers small writes with setImmediate; when the server drops the connection
// first (restart, failover, pg_terminate_backend), the deferred write dereferences a null socket
// and throws outside any promise, killing the process (upstream issues #1066, #1154, #1208).
// The guard settles the pending query with CONNECTION_CLOSED instead, as upstream PR #1209 does.
// A guard that cannot be applied fails the install, and the build and the server refuse to run
// without it (missingGuard): a process that dies on the first failover must not ship silently.
const fs = require('node:fs');
const path = require('node:path');

const marker = '/* codetally: closed-socket guard */';
const original = 'function nextWrite(fn) {\n    const x = socket.write(chunk, fn)';
const patched = `function nextWrite(fn) {\n    ${marker}\n    if (!socket) {\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options, socket))\n      return false\n    }\n    const x = socket.write(chunk, fn)`;
const files = ['src/connection.js', 'cjs/src/connection.js', 'cf/src/connection.js'];

/** Where postgres.js is installed, or null when it is not (yet). */
function postgresRoot() {
  try {
    return path.resolve(path.dirname(require.resolve('postgres')), '..', '..'); // <root>/cjs/src/index.js
  } catch {
    return null;
  }
}

/** The connection modules of postgres.js under `root`. */
function installed(root) {
  return root ? files.map((file) => path.join(root, file)).filter((file) => fs.existsSync(file)) : [];
}

/** Applies the guard; returns the files it could not guard. */
function applyGuard(root = postgresRoot()) {
  const failed = [];
  for (const target of installed(root)) {
    const source = fs.readFileSync(target, 'utf8');
    if (source.includes(marker)) continue;
    if (!source.includes(original)) failed.push(target);
    else fs.writeFileSync(target, source.replace(original, patched));
  }
  return failed;
}

/** A sentence saying what is wrong when a postgres.js file lacks the guard, else null. */
function missingGuard(root = postgresRoot()) {
  const unguarded = installed(root).filter((file) => !fs.readFileSync(file, 'utf8').includes(marker));
  if (unguarded.length === 0) return null;
  return `postgres.js is installed without Codetally's closed-socket guard (${unguarded.join(', ')}): run "npm install" (it applies the guard; npm must run install scripts), or check whether postgres.js still needs it.`;
}

module.exports = { applyGuard, missingGuard };

if (require.main === module && process.argv.includes('--check')) {
  const problem = missingGuard();
  if (problem) {
    console.error(`[codetally] ${problem}`);
    process.exit(1);
  }
} else if (require.main === module) {
  const failed = applyGuard();
  if (failed.length > 0) {
    console.error(`[codetally] postgres.js changed upstream: the closed-socket guard does not apply to ${failed.join(', ')}. Check whether it is still needed and update scripts/patch-postgres.cjs.`);
    process.exit(1);
  }
}
