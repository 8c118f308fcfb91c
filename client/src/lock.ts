import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import type { Home } from './home';

// One sender per home at a time. On Linux the lock is an abstract Unix socket named after the
// home: binding it is atomic, and the kernel releases it the moment its process dies, however it
// dies. Elsewhere it is a file created exclusively with the holder's pid, taken over when that
// process is gone.

export interface Lock {
  release(): Promise<void>;
}

/** Takes the send lock of `home`, or answers null at once when another process holds it. */
export async function tryLock(home: Home): Promise<Lock | null> {
  return process.platform === 'linux' ? socketLock(home) : fileLock(home);
}

async function socketLock(home: Home): Promise<Lock | null> {
  const name = `\0codetally-send-${createHash('sha256').update(home.dir).digest('hex').slice(0, 32)}`;
  const server = net.createServer();
  server.unref();
  const bound = await new Promise<boolean>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(false) : reject(err)));
    server.listen(name, () => resolve(true));
  });
  return bound ? { release: () => new Promise<void>((resolve) => server.close(() => resolve())) } : null;
}

function fileLock(home: Home): Lock | null {
  home.ensure();
  const file = home.file('send.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return { release: async () => fs.rmSync(file, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(file, 'utf8'));
      if (alive(holder)) return null;
      fs.rmSync(file, { force: true }); // its holder is gone
    }
  }
  return null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
