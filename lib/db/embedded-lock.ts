import fs from 'node:fs';
import path from 'node:path';

// The embedded database belongs to one process: two PGlite instances on one directory corrupt
// it. Whoever opens it first writes its pid to a lock file (created exclusively); another
// process is refused with a message, and a lock left by a process that no longer runs is taken
// over. The directory is kept private to the service's user (0700).

const LOCK_FILE = 'codetally.pid';
/** Directories this process holds, and their lock files. */
const openHere = new Map<string, string>();

function removeLock(file: string): void {
  try {
    if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.rmSync(file, { force: true });
  } catch {
    // already gone
  }
}
process.once('exit', () => openHere.forEach(removeLock));

export class DataDirInUse extends Error {}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by someone else
  }
}

export function inUse(dir: string, pid: number | 'this process'): DataDirInUse {
  return new DataDirInUse(
    `The embedded database in ${dir} is already open in ${pid === 'this process' ? pid : `another process (pid ${pid})`}. ` +
      'Only one process may use it: stop the other one (or run admin commands while it runs, they go through it), ' +
      'or set DATABASE_URL to a PostgreSQL database that several processes can share.',
  );
}

/** The pid of another running process holding the directory, if any (checked without taking it). */
export function dataDirHolder(dir: string): number | null {
  try {
    const holder = Number(fs.readFileSync(path.join(path.resolve(dir), LOCK_FILE), 'utf8'));
    return Number.isInteger(holder) && holder > 0 && holder !== process.pid && running(holder) ? holder : null;
  } catch {
    return null;
  }
}

/** Removes write access for group and others from every file under `dir` (files of earlier runs). */
function privateFiles(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const { mode } = fs.lstatSync(file);
    if (!entry.isSymbolicLink() && mode & 0o022) fs.chmodSync(file, mode & ~0o022);
  }
}

/**
 * Takes the directory for this process (creating it, mode 0700); returns the release. The
 * database's files are written private to the service's user: the process's umask masks write
 * access for group and others (PGlite creates files 0666 otherwise).
 */
export function lockDataDir(dir: string): () => void {
  const root = path.resolve(dir);
  if (openHere.has(root)) throw inUse(root, 'this process');
  process.umask(process.umask() | 0o022);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  fs.chmodSync(root, 0o700);
  const file = path.join(root, LOCK_FILE);
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock naming this process was left by an earlier run with the same pid (a container's pid 1).
      const holder = dataDirHolder(root);
      if (holder) throw inUse(root, holder);
      fs.rmSync(file, { force: true });
    }
  }
  openHere.set(root, file);
  privateFiles(root);
  return () => {
    if (openHere.delete(root)) removeLock(file);
  };
}
