import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as postSingle } from '@/app/main/api/v1/activities/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { getDb, rows } from '@/lib/db/client';
import { call, newUser, storedIde } from '../helpers/api';

const batch = (time: number) => ({ activities: [{ language: 'Rust', time, date: '2026-02-01', hour: 8 }] });

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, storing nothing twice', async () => {
    const { user, token } = await newUser();
    const headers = { 'idempotency-key': 'retry-1' };
    const first = await call(postBatch, '/sync/activities', { token, body: batch(100), headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.json();

    const again = await call(postBatch, '/sync/activities', { token, body: batch(100), headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    expect((await storedIde(user.id))[0].millis).toBe(100_000);
  });

  it('answers 422 idempotency_key_reused for the same key with another body or route', async () => {
    const { user, token } = await newUser();
    const headers = { 'idempotency-key': 'k' };
    expect((await call(postBatch, '/sync/activities', { token, body: batch(10), headers })).status).toBe(200);
    const other = await call(postBatch, '/sync/activities', { token, body: batch(11), headers });
    expect(other.status).toBe(422);
    expect((await other.json()).code).toBe('idempotency_key_reused');
    const otherRoute = await call(postSingle, '/activities', { token, body: batch(10).activities[0], headers });
    expect((await otherRoute.json()).code).toBe('idempotency_key_reused');
    expect((await storedIde(user.id))[0].millis).toBe(10_000);
  });

  it('keeps keys apart per user', async () => {
    const a = await newUser();
    const b = await newUser();
    const headers = { 'idempotency-key': 'shared-name' };
    await call(postBatch, '/sync/activities', { token: a.token, body: batch(5), headers });
    const res = await call(postBatch, '/sync/activities', { token: b.token, body: batch(5), headers });
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(await storedIde(b.user.id)).toHaveLength(1);
  });

  it('lets a racing crowd of duplicates store the batch exactly once', async () => {
    const { user, token } = await newUser();
    const headers = { 'idempotency-key': 'race' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(postBatch, '/sync/activities', { token, body: batch(60), headers })),
    );
    const statuses = answers.map((r) => r.status);
    // Each duplicate either replays the stored answer or is told the first is still running.
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(answers.filter((r) => r.status === 200 && !r.headers.get('idempotent-replayed'))).toHaveLength(1);
    for (const r of answers.filter((r) => r.status === 409)) {
      expect((await r.json()).code).toBe('idempotency_in_progress');
      expect(r.headers.get('retry-after')).toBeTruthy();
    }
    expect((await storedIde(user.id))[0].millis).toBe(60_000);
  });

  it('forgets a key after 24 hours', async () => {
    const { user, token } = await newUser();
    const headers = { 'idempotency-key': 'old' };
    await call(postBatch, '/sync/activities', { token, body: batch(1), headers });
    const db = await getDb();
    await db.execute(sql`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE user_id = ${user.id}`);
    const later = await call(postBatch, '/sync/activities', { token, body: batch(1), headers });
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect((await storedIde(user.id))[0].millis).toBe(2000);
    const [record] = await rows<{ fresh: boolean }>(db, sql`SELECT created_at > now() - interval '1 hour' AS fresh FROM idempotency_keys WHERE user_id = ${user.id}`);
    expect(record.fresh).toBe(true);
  });

  it('does not record a request that stored nothing', async () => {
    const { user, token } = await newUser();
    const headers = { 'idempotency-key': 'bad-first' };
    const bad = await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'Go', time: -1 }] }, headers });
    expect(bad.status).toBe(422);
    const [{ n }] = await rows<{ n: number }>(await getDb(), sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE user_id = ${user.id}`);
    expect(n).toBe(0);
  });

  it('rejects a key longer than 255 characters', async () => {
    const { token } = await newUser();
    const res = await call(postBatch, '/sync/activities', { token, body: batch(1), headers: { 'idempotency-key': 'x'.repeat(256) } });
    expect(res.status).toBe(422);
    expect((await res.json()).errors[0].path).toBe('Idempotency-Key');
  });
});

// Only PostgreSQL has a second session that can hold the key's lock while a request arrives.
describe.skipIf(process.env.TEST_DB === 'pglite')('a first request still running', () => {
  it('answers 409 idempotency_in_progress with Retry-After, then the retry stores once', async () => {
    const postgres = (await import('postgres')).default;
    const { user, token } = await newUser();
    // The other request's session, straight to PostgreSQL (a session lock does not belong to a
    // client behind a transaction pooler).
    const holder = postgres(process.env.DATABASE_MIGRATION_URL ?? process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      const session = await holder.reserve();
      await session`SELECT pg_advisory_lock(hashtextextended(${user.id} || '/' || 'slow', 0))`;
      const busy = await call(postBatch, '/sync/activities', { token, body: batch(30), headers: { 'idempotency-key': 'slow' } });
      expect(busy.status).toBe(409);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect((await busy.json()).code).toBe('idempotency_in_progress');
      expect(await storedIde(user.id)).toEqual([]);
      await session`SELECT pg_advisory_unlock_all()`;
      session.release();
      const retry = await call(postBatch, '/sync/activities', { token, body: batch(30), headers: { 'idempotency-key': 'slow' } });
      expect(retry.status).toBe(200);
      expect((await storedIde(user.id))[0].millis).toBe(30_000);
    } finally {
      await holder.end();
    }
  });
});
