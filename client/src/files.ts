import fs from 'node:fs';
import path from 'node:path';

// Durable files: what is written is on disk (file and directory entry fsynced) before it is
// acknowledged, and a file is either whole or absent (written beside, then renamed in).

/** Writes `text` to `file` atomically and durably; `mode` for secrets. */
export function writeDurably(file: string, text: string, mode = 0o644): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`);
  const fd = fs.openSync(tmp, 'wx', mode);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  syncDir(path.dirname(file));
}

/** Makes a directory's entries (files created, renamed or removed in it) durable. */
export function syncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads a JSON file; `fallback` when it does not exist. */
export function readJson<T>(file: string, fallback: T): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw err;
  }
}

/** Removes files, ignoring those already gone, then makes the removal durable. */
export function removeAll(dir: string, names: readonly string[]): void {
  for (const name of names) fs.rmSync(path.join(dir, name), { force: true });
  if (names.length > 0) syncDir(dir);
}

/** Temporary files a crash left behind (never acknowledged), older than a minute. */
export function removeLeftovers(dir: string, now = Date.now()): void {
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.tmp')) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > 60_000) fs.rmSync(file, { force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
}
