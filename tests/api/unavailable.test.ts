import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { getDb, rows, statementLimits, writeBack } from '@/lib/db/client';
import { errorResponse } from '@/lib/http/problem';
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

// A locked or slow database: every statement has a lock and a statement timeout, so the request
// answers 503 (retry later) within seconds instead of hanging with its client.
describe.skipIf(process.env.TEST_DB !== 'postgres')('a locked or slow database', () => {
  it('a write blocked by a lock answers 503 after the lock timeout, stores nothing, and succeeds once the lock is gone', async () => {
    const { user, token } = await newUser();
    const control = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {}, connection: { application_name: 'test-control' } });
    const body = { activities: [{ language: 'Zig', time: 30, date: '2026-04-02', hour: 7 }] };
    try {
      const locker = await control.reserve();
      await locker`BEGIN`;
      await locker`LOCK TABLE ide_activity IN SHARE MODE`;
      const started = Date.now();
      const res = await call(postBatch, '/sync/activities', { token, body });
      const waited = Date.now() - started;
      await locker`ROLLBACK`;
      locker.release();

      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBeTruthy();
      expect((await res.json()).code).toBe('unavailable');
      expect(waited).toBeGreaterThanOrEqual(statementLimits.lock_timeout - 100);
      expect(waited).toBeLessThan(statementLimits.lock_timeout + 5_000);
      expect(await storedIde(user.id)).toEqual([]);

      expect((await call(postBatch, '/sync/activities', { token, body })).status).toBe(200);
    } finally {
      await control.end();
    }
  });

  it('a statement running past the statement timeout is cancelled: a 503, not a hung request', async () => {
    const failure = await rows(await getDb(), sql`SELECT pg_sleep(${statementLimits.statement_timeout / 1000 + 5})`).catch((err) => err);
    expect(failure.code).toBe('57014');
    const res = errorResponse(failure);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBeTruthy();
  }, 30_000);
});

describe.skipIf(process.env.TEST_DB !== 'postgres')('the service\'s sessions on PostgreSQL', () => {
  it('push the pages they write out to the disk as they go, so that later write-back does not hold commits', async () => {
    const [{ setting, source }] = await rows<{ setting: string; source: string }>(
      await getDb(),
      sql`SELECT current_setting('backend_flush_after') AS setting, source FROM pg_settings WHERE name = 'backend_flush_after'`,
    );
    expect(setting).toBe(writeBack.backend_flush_after);
    expect(source).toBe('client'); // the service's own, not the server's default
  });
});
