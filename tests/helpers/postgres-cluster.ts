import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server';

// A PostgreSQL server of a test's own (initdb into a temporary folder, its own port), which the
// test may crash, freeze and restart without touching the machine's shared server; and a real
// PgBouncer in front of any PostgreSQL. Both are Debian's packages. Neither runs as root: under
// root (CI) they are spawned as the `postgres` system user, which the packages create.

const asRoot = process.getuid?.() === 0;

/** Where Debian keeps the server's programs (the newest major version installed), or null. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : null;
}

export function pgbouncerBin(): string | null {
  return ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => fs.existsSync(p)) ?? null;
}


/** A folder the server's user owns (a short path: it holds Unix sockets). */
function ownedTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  return dir;
}

/** Under root, the server's user and group, for spawn: the programs refuse to run as root. */
const serverUser = asRoot
  ? { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) }
  : {};

async function waitForPort(port: number, child: ChildProcess, output: () => string, what: string): Promise<void> {
  for (let i = 0; ; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (child.exitCode !== null || i > 300) throw new Error(`${what} did not start:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Cluster {
  port: number;
  /** A URL of a database on it (default: postgres), user postgres, no password. */
  url(database?: string): string;
  /** The postmaster's pid. */
  pid(): number;
  /** Every process of the server (postmaster and backends). */
  pids(): number[];
  /** Starts it again on the same data after a crash or stop (crash recovery runs first). */
  start(): Promise<void>;
  /** Sends a signal to the postmaster, or to every process of the server. */
  signal(signal: NodeJS.Signals, which?: 'postmaster' | 'all'): void;
  /** Stops it for good and removes its files. */
  remove(): Promise<void>;
}

/** A fresh PostgreSQL server of its own (initdb takes a few seconds). */
export async function startCluster(settings: Record<string, string> = {}): Promise<Cluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL server programs are not installed (Debian package postgresql)');
  const dir = ownedTempDir('ct-pg-');
  const data = path.join(dir, 'data');
  execFileSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C'], { stdio: 'pipe', cwd: dir, ...serverUser });
  return serve(bin, dir, data, settings);
}

/**
 * A streaming standby of `primary` (started with `streaming` settings: wal_level replica and WAL
 * senders), made as an operator makes one: `pg_basebackup -R` (initdb's pg_hba lets local
 * replication connections in), its own data folder and port, hot_standby on so it answers reads.
 * `applyDelay`: recovery_min_apply_delay, written where ALTER SYSTEM can change it later.
 */
export async function startStandby(primary: Cluster, options: { applyDelay?: string; settings?: Record<string, string> } = {}): Promise<Cluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL server programs are not installed (Debian package postgresql)');
  const dir = ownedTempDir('ct-pgs-');
  const data = path.join(dir, 'data');
  execFileSync(path.join(bin, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '--no-sync', '-c', 'fast'], { stdio: 'pipe', cwd: dir, ...serverUser });
  if (options.applyDelay) fs.appendFileSync(path.join(data, 'postgresql.auto.conf'), `recovery_min_apply_delay = '${options.applyDelay}'\n`);
  // The primary's postmaster.pid and options came with the copy: this server runs on its own.
  // `settings`: what the primary was started with beyond `streaming` (a standby needs max_connections
  // and the like at least the primary's, or it stops).
  return serve(bin, dir, data, { ...options.settings, hot_standby: 'on', hot_standby_feedback: 'on' });
}

/** What a primary needs for startStandby. */
export const streaming: Record<string, string> = { wal_level: 'replica', max_wal_senders: '5', wal_keep_size: '256MB' };

/** Runs the server of `data` (made by initdb or pg_basebackup) on a free port of its own. */
async function serve(bin: string, dir: string, data: string, settings: Record<string, string>): Promise<Cluster> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  let output = '';
  const options = Object.entries({ listen_addresses: '127.0.0.1', unix_socket_directories: dir, max_connections: '100', ...settings }).flatMap(([k, v]) => ['-c', `${k}=${v}`]);

  const spawnServer = () => {
    const started = spawn(path.join(bin, 'postgres'), ['-D', data, '-p', String(port), ...options], { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir, ...serverUser });
    started.stdout!.on('data', (d) => (output += d));
    started.stderr!.on('data', (d) => (output += d));
    return started;
  };
  const start = async () => {
    // After a kill -9 of the postmaster its backends take a moment to notice and exit; until then
    // a new postmaster refuses to start ("shared memory block is still in use"): try again.
    for (let i = 0; ; i++) {
      const started = spawnServer();
      child = started;
      try {
        await waitForPort(port, started, () => output, 'PostgreSQL');
        break;
      } catch (err) {
        if (i > 50) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    // Accepting connections is not yet answering them: wait until a query works (crash recovery).
    for (let i = 0; ; i++) {
      try {
        execFileSync(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-Atqc', 'SELECT 1'], { stdio: 'pipe' });
        return;
      } catch (err) {
        // A server that stopped after opening its port (a standby whose settings its primary's exceed) says why.
        const running = child as ChildProcess | null;
        if (running && running.exitCode !== null) throw new Error(`PostgreSQL stopped while starting:\n${output}`);
        if (i > 300) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const postmasterPid = () => Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pids = () => {
    const main = postmasterPid();
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(main)], { encoding: 'utf8' }).split('\n').map(Number).filter(Boolean);
    return [main, ...children];
  };
  await start();
  return {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    pid: postmasterPid,
    pids,
    start,
    signal(signal, which = 'postmaster') {
      for (const pid of which === 'all' ? pids() : [postmasterPid()]) {
        try {
          process.kill(pid, signal);
        } catch {
          // gone already
        }
      }
    },
    async remove() {
      const running = child;
      if (running && running.exitCode === null && running.signalCode === null) {
        try {
          for (const pid of pids()) process.kill(pid, 'SIGCONT');
          process.kill(postmasterPid(), 'SIGQUIT');
        } catch {
          // already down
        }
        await new Promise((r) => running.once('exit', r));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Pooler {
  port: number;
  /** The URL of a database through the pooler. */
  url(database: string): string;
  stop(): Promise<void>;
}

/**
 * A real PgBouncer in transaction mode in front of `upstream` (host:port, user postgres, trust),
 * every database name passed through.
 */
export async function startPgBouncer(upstream: { host: string; port: number }, options: { poolSize?: number } = {}): Promise<Pooler> {
  const bin = pgbouncerBin();
  if (!bin) throw new Error('PgBouncer is not installed (Debian package pgbouncer)');
  const dir = ownedTempDir('ct-pgb-');
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${upstream.host} port=${upstream.port} user=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 1000',
      `default_pool_size = ${options.poolSize ?? 20}`,
      // Every test file has a database of its own, so a pool of its own: idle server connections
      // are closed soon, and all pools together stay well under the server's max_connections
      // (past it clients wait in the pooler's queue, which is what a pooler is for).
      'server_idle_timeout = 2',
      'max_user_connections = 40',
      'server_check_delay = 1',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  fs.chmodSync(ini, 0o644);
  const child = spawn(bin, [ini], { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir, ...serverUser });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await waitForPort(port, child, () => output, 'PgBouncer');
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await new Promise((r) => child.once('exit', r));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
