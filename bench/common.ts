import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { openDb } from '../lib/db/client';
import { migrateDb } from '../lib/db/migrate';
import { ensureBuild, serveArgs } from '../scripts/build';

export const benchBaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(benchBaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops and recreates a database, then applies the migrations. */
export async function freshDatabase(name: string): Promise<string> {
  const admin = postgres(benchBaseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = databaseUrl(name);
  const handle = await openDb({ databaseUrl: url, dataDir: '' }, 1);
  await migrateDb(handle);
  await handle.close();
  return url;
}

/** Builds if needed and starts the server (scripts/serve.ts) on a port against the given database. */
export async function startServer(port: number, env: Record<string, string>, nodeArgs: string[] = []): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  ensureBuild();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...serveArgs()], {
    // A server on PostgreSQL needs the session key every process shares (any will do here).
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', AUTH_SECRET: 'bench-auth-secret-0123456789abcdefghij', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/main/api/v1/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (i > 300) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The middle figure of alternating rounds (this machine's speed drifts from one phase to the next). */
export function median(figures: number[]): number {
  return percentile([...figures].sort((a, b) => a - b), 50);
}

export function machine(): Record<string, unknown> {
  return { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, memory_gib: Math.round(os.totalmem() / 2 ** 30), node: process.version };
}

export function writeResults(name: string, results: unknown): string {
  const dir = path.resolve('bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  return file;
}

/** The processes of the local PostgreSQL server (postmaster and backends), or null when it is not local. */
export async function localPostgres(): Promise<(() => string[]) | null> {
  const sql = postgres(benchBaseUrl, { max: 1, onnotice: () => {} });
  let dataDir: string;
  try {
    dataDir = (await sql`SHOW data_directory`)[0].data_directory as string;
  } catch {
    return null;
  } finally {
    await sql.end();
  }
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const postmaster = fs.readFileSync(pidFile, 'utf8').split('\n')[0].trim();
  return () => [postmaster, ...execFileSync('pgrep', ['-P', postmaster]).toString().split('\n').filter(Boolean)];
}

/**
 * Models the production layout on one machine: the database on its own core (as on its own
 * host), the service and the load generator on the other. Needs a local PostgreSQL and the
 * right to change CPU affinity; returns null (and changes nothing) otherwise. The returned
 * function puts every process back on all cores.
 */
export async function pinDatabaseToOwnCore(): Promise<(() => void) | null> {
  if (os.cpus().length < 2) return null;
  const family = await localPostgres();
  if (!family || !setAffinity('1', ...family()) || !setAffinity('0', process.pid)) return null;
  return () => {
    setAffinity(allCpus(), ...family());
    setAffinity(allCpus(), process.pid);
  };
}

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (ms) each process has used so far, from /proc (Linux); empty where it cannot be read. */
function cpuByPid(pids: (number | string)[]): Map<string, number> {
  const used = new Map<string, number>();
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      used.set(String(pid), ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks); // utime + stime
    } catch {
      // gone, or no /proc here
    }
  }
  return used;
}

/** Lists the processes of a group, as they are when asked. */
export type Pids = () => (number | string)[];

/**
 * Starts counting the CPU time of a group of processes (listed again at the end: database
 * backends come and go). The returned function gives the milliseconds used since, or null where
 * /proc cannot be read. A process that exits in between is not counted (pools keep theirs open).
 */
export function cpuMeter(pids: Pids): () => number | null {
  const before = cpuByPid(pids());
  return () => {
    const after = cpuByPid(pids());
    if (after.size === 0) return null;
    let used = 0;
    for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
    return used;
  };
}

export const allCpus = () => `0-${os.cpus().length - 1}`;

/** Puts processes (every thread) on the given CPUs; false where this machine does not allow it. */
export function setAffinity(cpus: string, ...pids: (number | string)[]): boolean {
  try {
    for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The disk, probed while a load runs: 8 kB written and flushed (fdatasync) every 20 ms to a file
 * in the temporary directory, as PostgreSQL flushes its WAL at each commit. A commit waits for
 * its flush, and PostgreSQL's statement durations leave that wait out: this tells a slow disk
 * from a slow service. `stop()` gives each flush's start (performance.now()) and duration in ms.
 */
export function diskFlushProbe(): { stop: () => Promise<{ at: number; ms: number }[]> } {
  const flushes: { at: number; ms: number }[] = [];
  const file = path.join(os.tmpdir(), `codetally-flush-probe-${process.pid}`);
  let running = true;
  const done = (async () => {
    const handle = await fs.promises.open(file, 'w');
    try {
      const page = Buffer.alloc(8192, 1);
      for (let i = 0; running; i++) {
        const at = performance.now();
        await handle.write(page, 0, page.length, (i % 64) * page.length);
        await handle.datasync();
        flushes.push({ at, ms: performance.now() - at });
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await handle.close();
      await fs.promises.rm(file, { force: true });
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return flushes;
    },
  };
}
