import { afterEach, describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { config, resetConfig } from '@/lib/config';
import { openDb } from '@/lib/db/client';
import { findPrincipal } from '@/lib/auth/principal';
import { hashToken } from '@/lib/auth/tokens';
import { call, newUser, storedIde } from '../helpers/api';
import { freshRateWindow } from '../helpers/clock';

const body = { activities: [{ language: 'C', time: 1, date: '2026-01-01', hour: 1 }] };

function setLimit(n: number) {
  process.env.SYNC_RATE_LIMIT_PER_MINUTE = String(n);
  resetConfig();
}

afterEach(() => setLimit(0));


describe('write rate limit', () => {
  it('counts writes per token and answers 429 with Retry-After past the limit', async () => {
    setLimit(5);
    await freshRateWindow();
    const { token } = await newUser();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await call(postBatch, '/sync/activities', { token, body }));
    expect(answers.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0].headers.get('ratelimit-policy')).toBe('"sync";q=5;w=60');
    expect(answers[0].headers.get('ratelimit')).toMatch(/^"sync";r=4;t=\d+$/);
    const limited = answers[5];
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit')).toMatch(/^"sync";r=0;/);
    expect((await limited.json()).code).toBe('rate_limited');

    // Another token of another user has its own budget.
    const other = await newUser();
    expect((await call(postBatch, '/sync/activities', { token: other.token, body })).status).toBe(200);
  });

  it('counts a request that writes nothing, and refuses the next write past the limit without storing it', async () => {
    setLimit(2);
    await freshRateWindow();
    const { user, token } = await newUser();
    expect((await call(postBatch, '/sync/activities', { token, body })).status).toBe(200);
    const invalid = await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'C', time: -1 }] } });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('ratelimit')).toMatch(/^"sync";r=0;/);
    const third = await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'Go', time: 1, date: '2026-01-01', hour: 1 }] } });
    expect(third.status).toBe(429);
    expect((await storedIde(user.id)).map((r) => r.language)).toEqual(['C']);
  });

  // The embedded database belongs to one process by design; several processes mean PostgreSQL.
  it.skipIf(process.env.TEST_DB !== 'postgres')('is one budget for every connection to the database (as for several server processes)', async () => {
    setLimit(10);
    await freshRateWindow();
    const { token } = await newUser();
    // A second, independent pool stands for a second server process on the same PostgreSQL.
    const second = await openDb({ databaseUrl: config().DATABASE_URL, dataDir: '' }, 4);
    try {
      const fromSecond = await Promise.all(
        Array.from({ length: 6 }, () => findPrincipal(second.db, hashToken(token), { scope: 'sync', limit: 10 })),
      );
      expect(fromSecond.map((f) => f!.rate!.exceeded)).toEqual([false, false, false, false, false, false]);
      const answers = await Promise.all(Array.from({ length: 6 }, () => call(postBatch, '/sync/activities', { token, body })));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(4);
      expect(answers.filter((r) => r.status === 429)).toHaveLength(2);
    } finally {
      await second.close();
    }
  });
});
