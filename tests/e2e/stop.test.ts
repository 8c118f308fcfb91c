import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDb, rows } from '../../lib/db/client';
import { startTestServer } from '../helpers/server';

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
});
