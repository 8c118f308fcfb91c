import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { config } from '../config';
import { getDb } from '../db/client';
import { ApiError } from '../http/problem';
import { commandSchema, runCommand, type Command } from './commands';

// The embedded database belongs to one process. While the server runs, operator commands reach
// it through a Unix socket inside DATA_DIR (guarded by the directory's file permissions).

export function controlSocketPath(dataDir = config().DATA_DIR): string {
  return path.join(dataDir, 'control.sock');
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
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
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
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socketPath);
    let data = '';
    conn.setEncoding('utf8');
    conn.on('connect', () => conn.write(JSON.stringify(command) + '\n'));
    conn.on('data', (chunk) => (data += chunk));
    conn.on('end', () => resolve(JSON.parse(data) as ControlAnswer));
    conn.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve(null);
      else reject(err);
    });
  });
}
