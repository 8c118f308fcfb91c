// postinstall: guard postgres.js against writing to a socket that has already closed.
// postgres@3.4.9 defers small writes with setImmediate; when the server drops the connection
// first (restart, failover, pg_terminate_backend), the deferred write dereferences a null socket
// and throws outside any promise, killing the process (upstream issues #1066, #1154, #1208).
// The guard settles the pending query with CONNECTION_CLOSED instead, as upstream PR #1209 does.
const fs = require('node:fs');
const path = require('node:path');

const marker = '/* codetally: closed-socket guard */';
const original = 'function nextWrite(fn) {\n    const x = socket.write(chunk, fn)';
const patched = `function nextWrite(fn) {\n    ${marker}\n    if (!socket) {\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options, socket))\n      return false\n    }\n    const x = socket.write(chunk, fn)`;

let root;
try {
  root = path.resolve(path.dirname(require.resolve('postgres')), '..', '..'); // <root>/cjs/src/index.js
} catch {
  process.exit(0); // not installed (yet): nothing to patch
}
for (const file of ['src/connection.js', 'cjs/src/connection.js', 'cf/src/connection.js']) {
  const target = path.join(root, file);
  if (!fs.existsSync(target)) continue;
  const source = fs.readFileSync(target, 'utf8');
  if (source.includes(marker)) continue;
  if (!source.includes(original)) {
    console.warn(`[codetally] postgres ${file}: nextWrite changed upstream; check whether the closed-socket guard is still needed`);
    continue;
  }
  fs.writeFileSync(target, source.replace(original, patched));
}
