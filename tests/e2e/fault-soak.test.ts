import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { REQUEST_BOUND_SECONDS } from '../../lib/db/deadline';
import { pgbouncerBin, postgresBin, startCluster, startPgBouncer, type Cluster, type Pooler } from '../helpers/postgres-cluster';
import { startTestServer, type TestServer } from '../helpers/server';

// The fault soak: two service processes on a PostgreSQL server of the test's own (directly, and
// through a real PgBouncer in transaction mode, which queues what it cannot pass on), eight clients
// writing batches (each retried with its Idempotency-Key until acknowledged, as the reference
// client does), the CPU contended, while the database is crashed (kill -9 of the postmaster, and
// of a backend, which makes PostgreSQL restart itself), restarted, and frozen (SIGSTOP of the
// postmaster, then of every process of the server). Every request must be answered within the
// bound the README states (a 2xx, or a 503 with Retry-After), nothing acknowledged may be lost or
// counted twice, and both processes must be healthy afterwards.

const ADMIN_TOKEN = 'soak-admin-token-0123456789';
const AUTH_SECRET = 'soak-auth-secret-0123456789abcdef0123';
const WRITERS = 8;
const BUCKETS = 10;
/** A request answered later than this is a failure of the bound (a little for the contended CPU). */
const LIMIT_MS = (REQUEST_BOUND_SECONDS + 2) * 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Attempt {
  batch: number;
  ms: number;
  status: number | string;
  retryAfter: string | null;
}

/** A client backend of the server (not one of its own processes). */
function clientBackend(cluster: Cluster): number | undefined {
  for (const pid of cluster.pids().slice(1)) {
    try {
      if (/postgres: postgres .*127\.0\.0\.1/.test(execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }))) return pid;
    } catch {
      // gone
    }
  }
  return undefined;
}

const installed = Boolean(postgresBin() && pgbouncerBin());

describe.skipIf(!installed && !process.env.CI).each(['directly', 'through PgBouncer in transaction mode'])('fault soak: crashes and a frozen database under load, %s', (how) => {
  it('answers every request within the bound, loses and doubles nothing acknowledged, and recovers', async () => {
    const cluster = await startCluster();
    const pooler: Pooler | null = how === 'directly' ? null : await startPgBouncer({ host: '127.0.0.1', port: cluster.port }, { poolSize: 6 });
    const servers: TestServer[] = [];
    const burners: ChildProcess[] = [];
    try {
      const env = {
        ...(pooler
          ? { DATABASE_URL: `${pooler.url('postgres')}?max=4`, DATABASE_POOLER: 'transaction', DATABASE_MIGRATION_URL: cluster.url() }
          : { DATABASE_URL: `${cluster.url()}?max=4` }),
        AUTH_SECRET,
        ADMIN_TOKEN,
        SYNC_RATE_LIMIT_PER_MINUTE: '0',
      };
      servers.push(await startTestServer(env));
      servers.push(await startTestServer(env));
      const created = await fetch(`${servers[0].baseUrl}/main/api/v1/admin/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ handle: 'soaker' }),
      });
      expect(created.status).toBe(201);
      const { user, token } = (await created.json()) as { user: { id: string }; token: string };

      // The CPU contended: a busy loop on each core.
      for (let i = 0; i < 2; i++) burners.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));

      const date = new Date().toISOString().slice(0, 10);
      const attempts: Attempt[] = [];
      const acknowledged = new Set<number>();
      let next = 0;
      let writing = true;
      const writer = async (w: number) => {
        while (writing) {
          const batch = next++;
          const activities = Array.from({ length: BUCKETS }, (_, k) => ({ language: `L${batch}`, project_name: `p${k}`, time: 1, date, hour: 0 }));
          // Until acknowledged, with the same key, alternating between the two processes.
          for (let attempt = 0; ; attempt++) {
            const base = servers[(w + attempt) % servers.length].baseUrl;
            const t0 = Date.now();
            let status: number | string;
            let retryAfter: string | null = null;
            try {
              const res = await fetch(`${base}/main/api/v1/sync/activities`, {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `batch-${batch}` },
                body: JSON.stringify({ activities }),
                signal: AbortSignal.timeout(LIMIT_MS + 30_000),
              });
              await res.arrayBuffer();
              status = res.status;
              retryAfter = res.headers.get('retry-after');
            } catch (err) {
              status = ((err as Error).cause as { code?: string } | undefined)?.code ?? (err as Error).name;
            }
            attempts.push({ batch, ms: Date.now() - t0, status, retryAfter });
            if (status === 200) {
              acknowledged.add(batch);
              break;
            }
            await sleep(Math.min(Number(retryAfter ?? 1), 2) * 250);
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));

      const faults: string[] = [];
      const fault = async (name: string, act: () => void | Promise<void>, thenWait: number) => {
        faults.push(name);
        await act();
        await sleep(thenWait);
      };
      await sleep(3000);
      await fault('kill -9 the postmaster, restart after 2 s', async () => {
        cluster.signal('SIGKILL');
        await sleep(2000);
        await cluster.start();
      }, 4000);
      await fault('kill -9 a backend (PostgreSQL restarts itself)', () => {
        const pid = clientBackend(cluster);
        if (pid) process.kill(pid, 'SIGKILL');
      }, 5000);
      await fault('SIGSTOP the postmaster for 8 s', async () => {
        cluster.signal('SIGSTOP');
        await sleep(8000);
        cluster.signal('SIGCONT');
      }, 4000);
      await fault('SIGSTOP every process of the server for 8 s', async () => {
        cluster.signal('SIGSTOP', 'all');
        await sleep(8000);
        cluster.signal('SIGCONT', 'all');
      }, 4000);
      await fault('kill -9 the postmaster again, restart after 2 s', async () => {
        cluster.signal('SIGKILL');
        await sleep(2000);
        await cluster.start();
      }, 5000);
      writing = false;
      await Promise.all(writers);
      for (const burner of burners) burner.kill('SIGKILL');

      // Every request was answered, within the bound: a 200, or a 503 naming when to retry.
      const late = attempts.filter((a) => a.ms > LIMIT_MS);
      const unanswered = attempts.filter((a) => typeof a.status !== 'number');
      const wrong = attempts.filter((a) => typeof a.status === 'number' && a.status !== 200 && !(a.status === 503 && a.retryAfter));
      const slowest = Math.max(...attempts.map((a) => a.ms));
      console.log(`[soak] ${attempts.length} requests, ${acknowledged.size} batches acknowledged, ${attempts.filter((a) => a.status === 503).length} answered 503, slowest ${slowest} ms; faults: ${faults.join('; ')}`);
      expect({ late, unanswered, wrong }).toEqual({ late: [], unanswered: [], wrong: [] });
      expect(acknowledged.size).toBeGreaterThan(50);
      expect(attempts.some((a) => a.status === 503)).toBe(true); // the faults were felt

      // Both processes healthy again.
      for (const server of servers) {
        const health = await fetch(`${server.baseUrl}/main/api/v1/health`);
        expect(health.status).toBe(200);
      }

      // Nothing acknowledged lost, nothing counted twice: each batch once, whole.
      const sql = postgres(cluster.url(), { max: 1, onnotice: () => {} });
      try {
        const stored = await sql<{ language: string; buckets: number; millis: number }[]>`
          SELECT language, count(*)::int AS buckets, sum(millis)::float8 AS millis FROM ide_activity WHERE user_id = ${user.id}::uuid GROUP BY language`;
        const byBatch = new Map(stored.map((s) => [s.language, s]));
        for (const batch of acknowledged) expect(byBatch.get(`L${batch}`)).toEqual({ language: `L${batch}`, buckets: BUCKETS, millis: BUCKETS * 1000 });
        expect(stored.length).toBe(acknowledged.size);
      } finally {
        await sql.end();
      }
    } finally {
      for (const burner of burners) burner.kill('SIGKILL');
      for (const server of servers) await server.stop().catch(() => {});
      for (const server of servers) server.remove();
      await pooler?.stop();
      await cluster.remove();
    }
  }, 240_000);
});
