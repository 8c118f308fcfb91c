import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { POST as postBeats } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { apiTokens } from '@/lib/db/schema';
import { config, resetConfig } from '@/lib/config';
import { findPrincipal } from '@/lib/auth/principal';
import { hashToken } from '@/lib/auth/tokens';
import { issueToken, listTokens, MAX_LIVE_TOKENS, revokeToken } from '@/lib/accounts/tokens';
import { getDb, openDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/problem';
import { call, newUser, storedIde, tokenWithScopes } from '../helpers/api';
import { withinOneWindow } from '../helpers/clock';

const body = { activities: [{ language: 'C', time: 1, date: '2026-01-01', hour: 1 }] };

function setLimit(n: number, perUser?: number) {
  process.env.SYNC_RATE_LIMIT_PER_MINUTE = String(n);
  if (perUser === undefined) delete process.env.SYNC_USER_RATE_LIMIT_PER_MINUTE;
  else process.env.SYNC_USER_RATE_LIMIT_PER_MINUTE = String(perUser);
  resetConfig();
}

afterEach(() => setLimit(0));


describe('write rate limit', () => {
  it('counts writes per token and answers 429 with Retry-After past the limit', () =>
    withinOneWindow(async () => {
      setLimit(5);
      const { token } = await newUser();
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await call(postBatch, '/sync/activities', { token, body }));
      expect(answers.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      // The per-user budget is twice the per-token one unless set.
      expect(answers[0].headers.get('ratelimit-policy')).toBe('"sync";q=5;w=60, "sync-user";q=10;w=60');
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
    }));

  it('counts a request that writes nothing, and refuses the next write past the limit without storing it', () =>
    withinOneWindow(async () => {
      setLimit(2);
      const { user, token } = await newUser();
      expect((await call(postBatch, '/sync/activities', { token, body })).status).toBe(200);
      const invalid = await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'C', time: -1 }] } });
      expect(invalid.status).toBe(422);
      expect(invalid.headers.get('ratelimit')).toMatch(/^"sync";r=0;/);
      const third = await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'Go', time: 1, date: '2026-01-01', hour: 1 }] } });
      expect(third.status).toBe(429);
      expect((await storedIde(user.id)).map((r) => r.language)).toEqual(['C']);
    }));

  // The embedded database belongs to one process by design; several processes mean PostgreSQL.
  it.skipIf(process.env.TEST_DB === 'pglite')('is one budget for every connection to the database (as for several server processes)', () =>
    withinOneWindow(async () => {
      setLimit(10);
      const { token } = await newUser();
      // A second, independent pool stands for a second server process on the same PostgreSQL.
      const second = await openDb({ databaseUrl: config().DATABASE_URL, dataDir: '', pooler: config().DATABASE_POOLER }, 4);
      try {
        const fromSecond = await Promise.all(
          Array.from({ length: 6 }, () => findPrincipal(second.db, hashToken(token), { scope: 'sync', limits: { kind: 'write', token: 10, user: 0 } })),
        );
        expect(fromSecond.map((f) => f!.rate!.exceeded)).toEqual([false, false, false, false, false, false]);
        const answers = await Promise.all(Array.from({ length: 6 }, () => call(postBatch, '/sync/activities', { token, body })));
        expect(answers.filter((r) => r.status === 200)).toHaveLength(4);
        expect(answers.filter((r) => r.status === 429)).toHaveLength(2);
      } finally {
        await second.close();
      }
    }));

  it('counts heartbeat requests the same way, checked in their write statement once the key is known', () =>
    withinOneWindow(async () => {
      setLimit(3);
      const u = await newUser();
      const db = await getDb();
      const { token: key, info } = await issueToken(db, u.user.id, { name: 'vim', format: 'uuid' });
      const t0 = Math.floor(Date.now() / 1000) - 600;
      const send = (i: number) =>
        postBeats(
          new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
            method: 'POST',
            headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json' },
            body: JSON.stringify([{ entity: 'a.go', time: t0 + i * 60, language: 'Go' }]),
          }),
          { params: Promise.resolve({ user: 'current' }) },
        );
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await send(i));
      expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 429]);
      expect(answers[1].headers.get('ratelimit')).toMatch(/^"sync";r=1;t=\d+$/);
      expect(await answers[3].json()).toEqual({ error: expect.stringMatching(/write requests a minute/) });
      // Three heartbeats stored: two minutes counted; the fourth was not stored.
      expect((await storedIde(u.user.id)).reduce((sum, r) => sum + r.millis, 0)).toBe(120_000);
      // A key revoked elsewhere (this process still knows it): the write statement finds it.
      setLimit(0);
      await db.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, info.id));
      expect((await send(5)).status).toBe(401);
      expect((await storedIde(u.user.id)).reduce((sum, r) => sum + r.millis, 0)).toBe(120_000);
    }));

  it('counts a user\'s tokens together: more tokens do not multiply what one account may write', () =>
    withinOneWindow(async () => {
      setLimit(5, 6);
      const { user, token } = await newUser();
      const tokens = [token, await tokenWithScopes(user.id, ['sync']), await tokenWithScopes(user.id, ['sync'])];
      for (const t of tokens) {
        for (let i = 0; i < 2; i++) expect((await call(postBatch, '/sync/activities', { token: t, body })).status).toBe(200);
      }
      for (const t of tokens) {
        const refused = await call(postBatch, '/sync/activities', { token: t, body });
        expect(refused.status).toBe(429);
        expect(refused.headers.get('ratelimit')).toMatch(/^"sync-user";r=0;t=\d+$/);
        expect((await refused.json()).detail).toMatch(/for this account \(all its tokens together\)/);
      }
      expect((await storedIde(user.id))[0].millis).toBe(6000);
    }));
});

/** A body that counts the reads asked of it (none until a read: no read-ahead). */
function watchedBody() {
  const watched = { reads: 0, body: null as unknown as ReadableStream<Uint8Array> };
  const chunk = new TextEncoder().encode(`[${'['.repeat(64 * 1024)}`);
  watched.body = new ReadableStream<Uint8Array>({ pull: (controller) => void (watched.reads++, controller.enqueue(chunk)) }, { highWaterMark: 0 });
  return watched;
}

const post = (url: string, authorization: string, body: ReadableStream<Uint8Array>) =>
  new Request(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);

describe('a client past its budget', () => {
  it('is refused again before its body is read, per token and per user, until the window resets', () =>
    withinOneWindow(async () => {
      setLimit(1);
      const url = 'http://localhost/main/api/v1/sync/activities';
      const { token } = await newUser();
      expect((await call(postBatch, '/sync/activities', { token, body })).status).toBe(200);
      expect((await call(postBatch, '/sync/activities', { token, body })).status).toBe(429);
      const watched = watchedBody();
      const again = await postBatch(post(url, `Bearer ${token}`, watched.body));
      expect(again.status).toBe(429);
      expect(watched.reads).toBe(0);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(again.headers.get('ratelimit')).toMatch(/^"sync";r=0;t=\d+$/);
      expect((await again.json()).code).toBe('rate_limited');

      // The user's budget: one token past it refuses the user's other tokens this process knows.
      setLimit(5, 2);
      const { user, token: first } = await newUser();
      const second = await tokenWithScopes(user.id, ['sync']);
      expect((await call(postBatch, '/sync/activities', { token: second, body })).status).toBe(200);
      expect((await call(postBatch, '/sync/activities', { token: first, body })).status).toBe(200);
      expect((await call(postBatch, '/sync/activities', { token: first, body })).status).toBe(429);
      const userWatched = watchedBody();
      const refused = await postBatch(post(url, `Bearer ${second}`, userWatched.body));
      expect([refused.status, userWatched.reads]).toEqual([429, 0]);
      expect(refused.headers.get('ratelimit')).toMatch(/^"sync-user";r=0;t=\d+$/);
      expect((await storedIde(user.id))[0].millis).toBe(2000);
    }));

  it('on the heartbeat routes too, answered in WakaTime\'s shape', () =>
    withinOneWindow(async () => {
      setLimit(1);
      const u = await newUser();
      const { token: key } = await issueToken(await getDb(), u.user.id, { name: 'vim', format: 'uuid' });
      const url = 'http://localhost/api/wakatime/v1/users/current/heartbeats.bulk';
      const authorization = `Basic ${Buffer.from(key).toString('base64')}`;
      const route = { params: Promise.resolve({ user: 'current' }) };
      const beats = () => new Blob([JSON.stringify([{ entity: 'a.go', time: Date.now() / 1000 - 60, language: 'Go' }])]).stream();
      expect((await postBeats(post(url, authorization, beats()), route)).status).toBe(201);
      expect((await postBeats(post(url, authorization, beats()), route)).status).toBe(429);
      const watched = watchedBody();
      const again = await postBeats(post(url, authorization, watched.body), route);
      expect([again.status, watched.reads]).toEqual([429, 0]);
      expect(await again.json()).toEqual({ error: expect.stringMatching(/write requests a minute/) });
    }));

  it('is refused as before once the limits change (the budgets are counted anew)', () =>
    withinOneWindow(async () => {
      setLimit(1);
      const { token } = await newUser();
      await call(postBatch, '/sync/activities', { token, body });
      expect((await call(postBatch, '/sync/activities', { token, body })).status).toBe(429);
      setLimit(0);
      expect((await call(postBatch, '/sync/activities', { token, body })).status).toBe(200);
    }));
});

describe('tokens per user', () => {
  it(`are at most ${MAX_LIVE_TOKENS} live ones, even asked for all at once; a revoked one makes room`, async () => {
    const { user } = await newUser();
    const db = await getDb();
    const attempts = await Promise.all(
      Array.from({ length: MAX_LIVE_TOKENS + 5 }, (_, i) => issueToken(db, user.id, { name: `t${i}`, scopes: ['sync'] }).catch((err) => err)),
    );
    const refused = attempts.filter((a) => a instanceof ApiError);
    expect(refused).toHaveLength(6); // the first token, from newUser, counts too
    // Pro allows the most any account may hold; past it, the plan's limit answers.
    expect(refused[0]).toMatchObject({ status: 403, code: 'plan_limit', extra: { errors: [{ path: 'api_tokens', code: 'plan_limit' }] } });
    const live = (await listTokens(db, user.id)).filter((t) => !t.revoked_at);
    expect(live).toHaveLength(MAX_LIVE_TOKENS);
    await revokeToken(db, user.id, live[0].id);
    await expect(issueToken(db, user.id, { name: 'after revoking', scopes: ['sync'] })).resolves.toHaveProperty('token');
  });
});
