import { describe, expect, it } from 'vitest';
import { POST as postSingle } from '@/app/main/api/v1/activities/route';
import { POST as postSingleDesktop } from '@/app/main/api/v1/activities/desktop/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { POST as postDesktop } from '@/app/main/api/v1/sync/activities/desktop/route';
import { updateAccount } from '@/lib/accounts/me';
import { revokeToken } from '@/lib/accounts/tokens';
import { localDateHour } from '@/lib/local-time';
import { getDb } from '@/lib/db/client';
import { call, newUser, storedDesktop, storedIde, tokenWithScopes } from '../helpers/api';

const bucket = (over: Record<string, unknown> = {}) => ({
  language: 'TypeScript',
  time: 60,
  date: '2026-01-05',
  hour: 10,
  project_name: 'codetally',
  ide_name: 'vscode',
  ...over,
});

async function problemOf(res: Response) {
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  return res.json();
}

describe('POST /sync/activities', () => {
  it('groups, sums and acknowledges a batch, and adds to what is stored', async () => {
    const { user, token } = await newUser();
    const first = await call(postBatch, '/sync/activities', {
      token,
      body: { activities: [bucket({ time: 100, lines: 4 }), bucket({ time: 20, lines: 1 }), bucket({ ide_name: 'vim', time: 5 })] },
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ accepted: 3, grouped: 2, rejected: [], ignored_fields: [] });

    const second = await call(postBatch, '/sync/activities', { token, body: { activities: [bucket({ time: 30 })] } });
    expect(second.status).toBe(200);
    // Editors under their canonical names (lib/editors.ts); the order of names is the database's collation's.
    expect(await storedIde(user.id)).toEqual(
      expect.arrayContaining([
        { date: '2026-01-05', hour: 10, language: 'TypeScript', project: 'codetally', editor: 'Vim', millis: 5000, lines: 0 },
        { date: '2026-01-05', hour: 10, language: 'TypeScript', project: 'codetally', editor: 'VS Code', millis: 150_000, lines: 5 },
      ]),
    );
    expect(await storedIde(user.id)).toHaveLength(2);
  });

  it('stores the valid part of a batch and reports each rejected bucket with its index', async () => {
    const { user, token } = await newUser();
    const res = await call(postBatch, '/sync/activities', {
      token,
      body: { activities: [bucket(), bucket({ hour: 24 }), bucket({ content: 'const x = 1' }), bucket({ time: 1, color: 'blue' })] },
    });
    expect(res.status).toBe(200);
    const ack = await res.json();
    expect(ack).toMatchObject({ accepted: 2, grouped: 1, ignored_fields: ['color'] });
    expect(ack.rejected).toEqual([
      { index: 1, errors: [{ path: 'hour', code: 'too_big', message: 'hour must be 0-23' }] },
      { index: 2, errors: [expect.objectContaining({ path: 'content', code: 'content_not_allowed' })] },
    ]);
    expect((await storedIde(user.id))[0].millis).toBe(61_000);
  });

  it('answers 422 invalid_payload with every bucket\'s errors when nothing is valid, and stores nothing', async () => {
    const { user, token } = await newUser();
    const res = await call(postBatch, '/sync/activities', {
      token,
      body: { activities: [bucket({ time: 0 }), bucket({ diff: '+x' })] },
    });
    expect(res.status).toBe(422);
    const body = await problemOf(res);
    expect(body).toMatchObject({ status: 422, code: 'invalid_payload', title: 'Invalid payload', type: expect.stringContaining('#invalid_payload') });
    expect(body.errors).toEqual([
      { index: 0, path: 'time', code: 'too_small', message: 'time must be greater than 0' },
      { index: 1, path: 'diff', code: 'content_not_allowed', message: expect.any(String) },
    ]);
    expect(await storedIde(user.id)).toEqual([]);
  });

  it.each([
    ['not JSON', '{"activities": [', 'malformed_json'],
    ['an array', '[]', 'malformed_json'],
    ['no activities array', '{"activity": []}', 'malformed_json'],
    ['activities not an array', '{"activities": {}}', 'malformed_json'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'malformed_json'],
  ])('answers 400 for a body that is %s', async (_, raw, code) => {
    const { token } = await newUser();
    const res = await call(postBatch, '/sync/activities', { token, raw: raw as BodyInit });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).code).toBe(code);
  });

  it('answers 422 for an empty batch', async () => {
    const { token } = await newUser();
    const res = await call(postBatch, '/sync/activities', { token, body: { activities: [] } });
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors[0]).toMatchObject({ path: 'activities', code: 'too_small' });
  });

  it('answers 415 for a body that is not application/json', async () => {
    const { token } = await newUser();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await call(postBatch, '/sync/activities', { token, body: { activities: [bucket()] }, headers: { 'content-type': type } });
      expect(res.status).toBe(415);
      expect((await problemOf(res)).code).toBe('unsupported_media_type');
    }
  });

  it('answers 413 past 1000 activities or 1 MiB, storing nothing', async () => {
    const { user, token } = await newUser();
    const many = await call(postBatch, '/sync/activities', { token, body: { activities: Array.from({ length: 1001 }, () => bucket()) } });
    expect(many.status).toBe(413);
    expect((await problemOf(many)).code).toBe('payload_too_large');

    // A streamed body with no Content-Length is cut off while it is read.
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        if (sent > 4 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const big = await postBatch(
      new Request('http://localhost/main/api/v1/sync/activities', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(big.status).toBe(413);
    expect(sent).toBeLessThanOrEqual(1024 * 1024 + 2 * chunk.byteLength);
    expect(await storedIde(user.id)).toEqual([]);
  });
});

describe('authentication and scope', () => {
  it.each([
    ['no Authorization header', undefined],
    ['a non-Bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['a malformed token', 'Bearer not-a-token'],
    ['an unknown token', `Bearer ct_${'A'.repeat(43)}`],
  ])('answers 401 with WWW-Authenticate for %s', async (_, header) => {
    const res = await call(postBatch, '/sync/activities', {
      body: { activities: [bucket()] },
      headers: header ? { authorization: header } : {},
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await problemOf(res)).code).toBe('unauthorized');
  });

  it('answers 401 for a revoked token', async () => {
    const { user, token } = await newUser();
    expect(await revokeToken(await getDb(), user.id, token.slice(0, 11))).toBe(true);
    const res = await call(postBatch, '/sync/activities', { token, body: { activities: [bucket()] } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('answers 401 once a token it wrote with is revoked, whatever the body, and stores nothing more', async () => {
    const { user, token } = await newUser();
    // The first write looks the token up; this process then keeps its principal in memory.
    expect((await call(postBatch, '/sync/activities', { token, body: { activities: [bucket()] } })).status).toBe(200);
    expect(await revokeToken(await getDb(), user.id, token.slice(0, 11))).toBe(true);
    const write = await call(postBatch, '/sync/activities', { token, body: { activities: [bucket({ time: 5 })] } });
    expect(write.status).toBe(401);
    expect(write.headers.get('www-authenticate')).toContain('invalid_token');
    const malformed = await call(postBatch, '/sync/activities', { token, raw: '{"activities": [' });
    expect(malformed.status).toBe(401);
    expect(await storedIde(user.id)).toEqual([expect.objectContaining({ millis: 60_000 })]);
  });

  it("reads buckets without a date or hour in the user's timezone of the moment, even right after a change", async () => {
    const { user, token } = await newUser({ timezone: 'Pacific/Kiritimati' });
    expect((await call(postBatch, '/sync/activities', { token, body: { activities: [bucket()] } })).status).toBe(200);
    await updateAccount(await getDb(), user.id, { timezone: 'Pacific/Pago_Pago' }); // 25 hours behind
    const before = localDateHour('Pacific/Pago_Pago');
    const res = await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'Go', time: 30 }] } });
    const after = localDateHour('Pacific/Pago_Pago');
    expect(res.status).toBe(200);
    const go = (await storedIde(user.id)).filter((r) => r.language === 'Go');
    expect(go).toHaveLength(1); // stored once, in the new timezone only
    expect(go[0].millis).toBe(30_000);
    expect([before, after]).toContainEqual({ date: go[0].date, hour: go[0].hour });
  });

  it('answers 403 for a token without the sync scope', async () => {
    const { user } = await newUser();
    const token = await tokenWithScopes(user.id, ['badges', 'account']);
    const res = await call(postBatch, '/sync/activities', { token, body: { activities: [bucket()] } });
    expect(res.status).toBe(403);
    expect((await problemOf(res)).code).toBe('forbidden');
    expect(await storedIde(user.id)).toEqual([]);
  });

  it('writes only for the token\'s own user, whatever the body claims', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const res = await call(postBatch, '/sync/activities', {
      token: alice.token,
      body: { activities: [bucket({ user_id: bob.user.id, user: bob.user.handle })] },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).ignored_fields).toEqual(['user', 'user_id']);
    expect(await storedIde(bob.user.id)).toEqual([]);
    expect(await storedIde(alice.user.id)).toHaveLength(1);
  });
});

describe('the other write routes', () => {
  it('POST /activities stores one bucket and answers 201 with the ack', async () => {
    const { user, token } = await newUser();
    const res = await call(postSingle, '/activities', { token, body: bucket({ time: 42 }) });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ accepted: 1, grouped: 1, rejected: [], ignored_fields: [] });
    expect((await storedIde(user.id))[0].millis).toBe(42_000);

    const bad = await call(postSingle, '/activities', { token, body: bucket({ time: 'soon' }) });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors[0]).toMatchObject({ index: 0, path: 'time', code: 'invalid_type' });
    expect((await call(postSingle, '/activities', { token, body: [bucket()] })).status).toBe(400);
  });

  it('POST /sync/activities/desktop groups by date, hour, platform and application', async () => {
    const { user, token } = await newUser();
    const app = { platform: 'Linux', date: '2026-01-05', hour: 9, path: '/usr/bin/firefox', filename: 'firefox', program_name: 'Firefox' };
    const res = await call(postDesktop, '/sync/activities/desktop', {
      token,
      body: {
        activities: [
          { ...app, time: 60 },
          { ...app, time: 30, path: '/opt/firefox/firefox' },
          { ...app, time: 10, program_name: '', filename: 'kitty' },
          { ...app, time: 5, program_name: '', filename: '' },
          { ...app, time: 5, hour: 25 },
        ],
      },
    });
    expect(res.status).toBe(200);
    const ack = await res.json();
    expect(ack).toMatchObject({ accepted: 4, grouped: 3 });
    expect(ack.rejected[0]).toMatchObject({ index: 4 });
    expect(await storedDesktop(user.id)).toEqual([
      { date: '2026-01-05', hour: 9, platform: 'Linux', app: 'Firefox', millis: 90_000 },
      { date: '2026-01-05', hour: 9, platform: 'Linux', app: 'kitty', millis: 10_000 },
      { date: '2026-01-05', hour: 9, platform: 'Linux', app: 'unknown', millis: 5_000 },
    ]);
    // Desktop time is its own figure: nothing lands in coding time.
    expect(await storedIde(user.id)).toEqual([]);
  });

  it('POST /activities/desktop stores one bucket with 201', async () => {
    const { user, token } = await newUser();
    const res = await call(postSingleDesktop, '/activities/desktop', {
      token,
      body: { platform: 'Windows', time: 12, date: '2026-01-05', hour: 3, path: '', filename: 'Code.exe', program_name: '' },
    });
    expect(res.status).toBe(201);
    expect((await storedDesktop(user.id))[0]).toMatchObject({ app: 'Code.exe', millis: 12_000 });
  });
});
