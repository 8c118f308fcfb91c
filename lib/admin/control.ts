import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { config } from '../config';
import { getDb } from '../db/client';
import { ApiError } from '../http/problem';
import { commandSchema, runCommand, type Command } from './commands';

// The embedded database belongs to one process. While the server runs, operator commands reach
// it through a Unix socket inside DATA_DIR (guarded by the directory's file permissions),
// however deep DATA_DIR is (viaShortPath).

export function controlSocketPath(dataDir = config().DATA_DIR): string {
  return path.join(path.resolve(dataDir), 'control.sock');
}

/** The longest path a Unix socket may be bound or reached at (sun_path holds 108 bytes, NUL included). */
const MAX_SOCKET_PATH = 107;

/**
 * Runs `reach` with a path of at most 107 bytes to `file`: the path itself, or, when DATA_DIR is
 * deeper than that, the same file through a symbolic link to its folder, made for the call in a
 * private temporary folder and removed after it. The socket itself always lives in DATA_DIR,
 * guarded by its permissions, whatever the length of its path.
 */
export async function viaShortPath<T>(file: string, reach: (reachable: string) => Promise<T>): Promise<T> {
  if (Buffer.byteLength(file) <= MAX_SOCKET_PATH) return reach(file);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-'));
  try {
    fs.symlinkSync(path.dirname(file), path.join(dir, 'd'));
    const reachable = path.join(dir, 'd', path.basename(file));
    if (Buffer.byteLength(reachable) > MAX_SOCKET_PATH) throw new Error(`the temporary folder ${os.tmpdir()} is too deep to reach the control socket: set TMPDIR to a shorter one`);
    return await reach(reachable);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export type ControlAnswer = { ok: true; result: unknown } | { ok: false; error: string };

export async function startControlSocket(): Promise<void> {
  // Opening the database first takes its lock: a second server on the same directory stops
  // there, before it could take over the first one's socket.
  await getDb();
  const socketPath = controlSocketPath();
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((conn) => {
    let buffer = '';
    conn.setEncoding('utf8');
    conn.on('data', async (chunk) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      conn.end(JSON.stringify(await answer(buffer.slice(0, newline))) + '\n');
    });
    conn.on('error', () => {});
  });
  await viaShortPath(socketPath, (reachable) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(reachable, resolve)));
  fs.chmodSync(socketPath, 0o600);
  server.unref();
  const cleanup = () => fs.rmSync(socketPath, { force: true });
  process.once('exit', cleanup);
}

async function answer(line: string): Promise<ControlAnswer> {
  try {
    const command = commandSchema.parse(JSON.parse(line));
    return { ok: true, result: await runCommand(await getDb(), command) };
  } catch (err) {
    const message = err instanceof ApiError ? `${err.detail} ${JSON.stringify(err.extra.errors ?? [])}` : (err as Error).message;
    return { ok: false, error: message };
  }
}

/** Sends one command to a running server; null when no server listens on the socket. */
export async function sendControlCommand(socketPath: string, command: Command): Promise<ControlAnswer | null> {
  if (!fs.existsSync(socketPath)) return null;
  const conn = await viaShortPath(
    socketPath,
    (reachable) =>
      new Promise<net.Socket | null>((resolve, reject) => {
        const opening = net.createConnection(reachable);
        opening.once('connect', () => resolve(opening));
        opening.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? resolve(null) : reject(err)));
      }),
  );
  if (!conn) return null;
  return new Promise((resolve, reject) => {
    let data = '';
    conn.setEncoding('utf8');
    conn.on('data', (chunk) => (data += chunk));
    conn.on('end', () => resolve(JSON.parse(data) as ControlAnswer));
    conn.on('error', reject);
    conn.write(JSON.stringify(command) + '\n');
  });
}
