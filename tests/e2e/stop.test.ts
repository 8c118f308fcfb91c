import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { issueToken } from '../../lib/accounts/tokens';
import { openDb, rows } from '../../lib/db/client';
import { migrateDb } from '../../lib/db/migrate';
import { renameProject } from '../../lib/projects/rename';
import { largeMerge, projectTotals } from '../helpers/large-merge';
import { startTestServer } from '../helpers/server';
import { testDataRoot } from '../setup/databases';

// A server of its own, stopped with SIGTERM while clients write to it, as a host stops it.

const adminToken = 'stop-test-admin-token-0123456789';

describe('stopping the server', () => {
  it('on SIGTERM finishes what it acknowledged, refuses the rest with a failure a client retries, and leaves nothing half-written', async () => {
    const server = await startTestServer({ ADMIN_TOKEN: adminToken, SYNC_RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const created = await fetch(`${server.baseUrl}/main/api/v1/admin/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ handle: 'stopper' }),
      });
      const { user, token } = (await created.json()) as { user: { id: string }; token: string };
      const date = new Date().toISOString().slice(0, 10);
      const acknowledged = new Set<number>();
      const refused: string[] = [];
      let next = 0;
      let stopped = false;
      // Eight clients, each batch with its own Idempotency-Key and 20 buckets of its own, sending
      // until the server is gone.
      const client = async () => {
        for (;;) {
          const i = next++;
          const activities = Array.from({ length: 20 }, (_, k) => ({ language: `L${i}`, project_name: `p${k}`, time: 1, date, hour: 0 }));
          try {
            const res = await fetch(`${server.baseUrl}/main/api/v1/sync/activities`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `batch-${i}` },
              body: JSON.stringify({ activities }),
            });
            await res.arrayBuffer();
            if (res.status === 200) acknowledged.add(i);
            else refused.push(String(res.status));
          } catch (err) {
            refused.push(((err as Error).cause as { code?: string } | undefined)?.code ?? (err as Error).message);
            if (stopped) return;
          }
        }
      };
      const clients = Array.from({ length: 8 }, client);
      await new Promise((r) => setTimeout(r, 1500));
      stopped = true;
      const t0 = Date.now();
      await server.stop();
      const stopMs = Date.now() - t0;
      await Promise.all(clients);

      expect(server.output()).toContain('SIGTERM: finishing requests in flight');
      expect(stopMs).toBeLessThan(15_000);
      expect(acknowledged.size).toBeGreaterThan(10);
      // What a client saw fail is what it sends again: a refused connection, a reset, or a 503.
      for (const reason of refused) expect(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'fetch failed', '503']).toContain(reason);

      const handle = await openDb({ dataDir: server.dataDir });
      try {
        const stored = await rows<{ language: string; buckets: number; millis: number }>(
          handle.db,
          sql`SELECT language, count(*)::int AS buckets, sum(millis)::float8 AS millis FROM ide_activity WHERE user_id = ${user.id}::uuid GROUP BY language`,
        );
        const byBatch = new Map(stored.map((s) => [s.language, s]));
        // Every acknowledged batch is stored, whole.
        for (const i of acknowledged) expect(byBatch.get(`L${i}`)).toEqual({ language: `L${i}`, buckets: 20, millis: 20_000 });
        // Whatever else is stored (answered as the connection closed) is whole too.
        for (const s of stored) expect(s).toMatchObject({ buckets: 20, millis: 20_000 });
      } finally {
        await handle.close();
      }
    } finally {
      await server.stop();
      server.remove();
    }
  }, 90_000);

  // The split of a large merge once ran minutes-long statements on the embedded database, on the
  // thread that handles the signal: the server could not stop (decision 0028).
  it('on SIGTERM while a large merge is split back out, stops within its bound and leaves the split whole or undone', async () => {
    const dataDir = path.join(testDataRoot, `stop-split-${process.pid}-${Date.now()}`);
    const setup = await openDb({ dataDir }, 1, { migrations: true });
    let userId: string;
    let token: string;
    let before: Awaited<ReturnType<typeof projectTotals>>;
    try {
      await migrateDb(setup);
      ({ userId } = await largeMerge(setup.db, { buckets: 35_000, heartbeats: 35_000, otherRows: 175_000 }));
      before = await projectTotals(setup.db, userId);
      ({ token } = await issueToken(setup.db, userId, { name: 'split', scopes: ['account'] }));
      await renameProject(setup.db, userId, 'a', 'b');
    } finally {
      await setup.close();
    }
    const server = await startTestServer({}, undefined, dataDir);
    try {
      const split = fetch(`${server.baseUrl}/main/api/v1/me/projects/b/split`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ project: 'a' }),
      }).then(
        (res) => res.status,
        () => 'cut',
      );
      await new Promise((r) => setTimeout(r, 500));
      // Within the stop's own bound (scripts/serve.ts, 30 s), with room for a slow host: not minutes.
      const stopped = await Promise.race([server.stop().then(() => true), new Promise((r) => setTimeout(() => r(false), 60_000))]);
      expect(server.output()).toContain('SIGTERM: finishing requests in flight');
      expect(stopped).toBe(true);
      const answered = await split;
      expect([200, 503, 'cut']).toContain(answered);
      const handle = await openDb({ dataDir });
      try {
        const after = await projectTotals(handle.db, userId);
        const merged = await rows<{ n: number }>(handle.db, sql`SELECT count(*)::int AS n FROM project_merges WHERE user_id = ${userId}::uuid`);
        // Split whole (as before the merge, the record gone), or not at all (all of it in b, the record kept).
        if (answered === 200 || merged[0].n === 0) {
          expect(after).toEqual(before);
          expect(merged[0].n).toBe(0);
        } else {
          expect(after.map((p) => p.project)).toEqual(['b']);
          expect(after[0].millis).toBe(before.reduce((sum, p) => sum + p.millis, 0));
        }
      } finally {
        await handle.close();
      }
    } finally {
      // A server that did not stop is not left running.
      await server.kill();
      server.remove();
    }
  }, 240_000);
});
