import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { getDb, rows } from '@/lib/db/client';
import { call, newUser, storedIde } from '../helpers/api';

// The database goes away in the middle of a write: a real PostgreSQL backend is terminated
// while the request's transaction waits on a lock, as in a failover or a restart.
describe.skipIf(process.env.TEST_DB !== 'postgres')('database going away mid-request', () => {
  it('answers 503 with Retry-After, stores nothing, and the retry succeeds once', async () => {
    const { user, token } = await newUser();
    const control = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {}, connection: { application_name: 'test-control' } });
    const body = { activities: [{ language: 'Zig', time: 90, date: '2026-04-01', hour: 6 }] };
    const headers = { 'idempotency-key': 'during-outage' };
    try {
      const locker = await control.reserve();
      await locker`BEGIN`;
      await locker`LOCK TABLE ide_activity IN SHARE MODE`;
      const pending = call(postBatch, '/sync/activities', { token, body, headers });

      for (let i = 0; ; i++) {
        const waiting = await control`SELECT 1 FROM pg_stat_activity
          WHERE application_name = 'codetally' AND datname = current_database() AND wait_event_type = 'Lock'`;
        if (waiting.length > 0) break;
        if (i > 200) throw new Error('the write never reached the lock');
        await new Promise((r) => setTimeout(r, 25));
      }
      await control`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'codetally' AND datname = current_database()`;
      await locker`ROLLBACK`;
      locker.release();

      const res = await pending;
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBeTruthy();
      const problem = await res.json();
      expect(problem.code).toBe('unavailable');
      expect(JSON.stringify(problem)).not.toMatch(/terminat|SQL|postgres|stack/i);

      expect(await storedIde(user.id)).toEqual([]);
      const [{ n }] = await rows<{ n: number }>(await getDb(), sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE user_id = ${user.id}`);
      expect(n).toBe(0);

      const retry = await call(postBatch, '/sync/activities', { token, body, headers });
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect((await storedIde(user.id))[0].millis).toBe(90_000);
    } finally {
      await control.end();
    }
  });
});
