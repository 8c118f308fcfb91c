import { inspect } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { POST as createUserRoute } from '@/app/main/api/v1/admin/users/route';
import { POST as postSingleDesktop } from '@/app/main/api/v1/activities/desktop/route';
import { GET as leaderboardRoute } from '@/app/main/api/v1/leaderboard/api/get/public/route';
import { PATCH as patchMe } from '@/app/main/api/v1/me/route';
import { POST as postToken } from '@/app/main/api/v1/me/tokens/route';
import { POST as postBadge } from '@/app/main/api/v1/badges/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { POST as postDesktop } from '@/app/main/api/v1/sync/activities/desktop/route';
import { getDb, rows } from '@/lib/db/client';
import { errorCode, isUniqueViolation } from '@/lib/db/errors';
import { users } from '@/lib/db/schema';
import { errorResponse } from '@/lib/http/problem';
import { ownApps } from '@/lib/stats/own';
import { call, newUser, storedDesktop, storedIde, tokenWithScopes } from '../helpers/api';
import { getChart } from '../helpers/public';
import { documented } from '../helpers/contract';

// Text PostgreSQL cannot store (NUL, unpaired surrogates) and names that would lie to a reader
// (C1 controls, bidi overrides, invisible characters), wherever a request can carry them: each
// is a 4xx naming the field and the rule, never a 500, and never costs the rest of a batch.

const lone = '\ud800';
const bucket = (over: Record<string, unknown> = {}) => ({ language: 'Go', time: 60, date: '2026-02-03', hour: 9, ...over });
const desktop = (over: Record<string, unknown> = {}) => ({ platform: 'Linux', time: 60, date: '2026-02-03', hour: 9, path: '', filename: '', program_name: 'kitty', ...over });

describe('bucket text', () => {
  it.each([
    ['language', lone, 'unpaired_surrogate'],
    ['language', `Go${lone}`, 'unpaired_surrogate'],
    ['project_name', `proj\udfff`, 'unpaired_surrogate'],
    ['ide_name', 'vs\u0000code', 'control_character'],
    ['language', 'Go\u0085', 'control_character'],
    ['project_name', 'evil\u202Etxt.exe', 'format_character'],
    ['ide_name', 'vim\u200B', 'format_character'],
    ['path', `/home/${lone}`, 'unpaired_surrogate'],
    ['filename', 'a\u0000.ts', 'control_character'],
  ])('an IDE bucket with %s %j is rejected as %s, the rest of the batch stored', async (field, value, code) => {
    const { user, token } = await newUser();
    const res = await call(postBatch, '/sync/activities', { token, body: { activities: [bucket({ [field]: value }), bucket({ language: 'Rust' })] } });
    expect(res.status).toBe(200);
    const ack = await res.json();
    expect(ack.accepted).toBe(1);
    expect(ack.rejected).toEqual([{ index: 0, errors: [expect.objectContaining({ path: field, code })] }]);
    expect((await storedIde(user.id)).map((r) => r.language)).toEqual(['Rust']);
  });

  it.each([
    ['platform', `Linux${lone}`, 'unpaired_surrogate'],
    ['program_name', `kitty${lone}`, 'unpaired_surrogate'],
    ['program_name', 'ki\u202Dtty', 'format_character'],
    ['filename', 'x\u009B.exe', 'control_character'],
  ])('a desktop bucket with %s %j is rejected as %s, the rest stored', async (field, value, code) => {
    const { user, token } = await newUser();
    const res = await call(postDesktop, '/sync/activities/desktop', { token, body: { activities: [desktop({ [field]: value }), desktop({ program_name: 'firefox' })] } });
    expect(res.status).toBe(200);
    expect((await res.json()).rejected).toEqual([{ index: 0, errors: [expect.objectContaining({ path: field, code })] }]);
    expect((await storedDesktop(user.id)).map((r) => r.app)).toEqual(['firefox']);
  });

  it('keeps names that need joiners: emoji sequences and scripts that use ZWJ/ZWNJ', async () => {
    const { user, token } = await newUser();
    const names = ['👩‍💻 side project', 'می‌خواهم'];
    const res = await call(postBatch, '/sync/activities', { token, body: { activities: names.map((project_name) => bucket({ project_name })) } });
    expect((await res.json()).accepted).toBe(2);
    expect((await storedIde(user.id)).map((r) => r.project).sort()).toEqual([...names].sort());
  });

  it('stores a batch whose unknown field names PostgreSQL could not store, with an idempotency key, and replays it byte for byte', async () => {
    const { user, token } = await newUser();
    const raw = JSON.stringify({ activities: [{ ...bucket(), [`x${lone}`]: 1, 'a\u0000b': 2, zeta: 3, alpha: 4 }] });
    const first = await call(postBatch, '/sync/activities', { token, raw, headers: { 'idempotency-key': 'weird-names' } });
    expect(first.status).toBe(200);
    const firstBytes = await first.text();
    expect(JSON.parse(firstBytes).ignored_fields).toEqual(['a\u0000b', 'alpha', `x${lone}`, 'zeta'].sort());
    const again = await call(postBatch, '/sync/activities', { token, raw, headers: { 'idempotency-key': 'weird-names' } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstBytes);
    expect(await storedIde(user.id)).toHaveLength(1);
  });

  it('replays the first answer byte for byte, keys in the order they were sent', async () => {
    const { token } = await newUser();
    const raw = JSON.stringify({ activities: [bucket(), bucket({ hour: 30 }), bucket({ colour: 'x' })] });
    const first = await call(postBatch, '/sync/activities', { token, raw, headers: { 'idempotency-key': 'order' } });
    const firstBytes = await first.text();
    expect(Object.keys(JSON.parse(firstBytes))).toEqual(['accepted', 'grouped', 'rejected', 'ignored_fields']);
    const again = await call(postBatch, '/sync/activities', { token, raw, headers: { 'idempotency-key': 'order' } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstBytes);
  });
});

describe('tiny desktop time', () => {
  it('a bucket of 0.0001 s is stored, and the owner\'s application figures still answer', async () => {
    const { user, token } = await newUser();
    const res = await call(postSingleDesktop, '/activities/desktop', { token, body: desktop({ time: 0.0001 }) });
    expect(res.status).toBe(201);
    expect(await storedDesktop(user.id)).toEqual([expect.objectContaining({ app: 'kitty', millis: 0 })]);
    await expect(ownApps(await getDb(), user.id, '2026-02-01', '2026-02-28')).resolves.toEqual([]);
  });
});

describe('query parameters', () => {
  it.each(['time', 'language', 'hitmaps', 'weekly'] as const)('%s: a user reference with NUL or controls is an unknown user (404)', async (chart) => {
    for (const ref of ['a%00b', '%00', 'a%C2%85b', '%ED%A0%80']) {
      const res = await getChart(chart, `user=${ref}`);
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('not_found');
    }
  });

  it.each(['0000-01-01', '0000-02-29'])('from=%s is a bad date (400 naming from), not a database error', async (from) => {
    const res = await getChart('time', `from=${from}&to=0000-03-01`);
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0]).toMatchObject({ path: 'from', code: 'invalid_query' });
  });

  it.each(['%00', 'Go%00', 'a%E2%80%AEb', 'x%C2%9Fy'])('leaderboard language=%s is refused with 400 naming language', async (language) => {
    const request = new Request(`http://localhost/main/api/v1/leaderboard/api/get/public?language=${language}`);
    const res = await documented(request, await leaderboardRoute(request));
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].path).toBe('language');
  });
});

describe('names people read', () => {
  const account = async (token: string, body: unknown) => {
    const request = new Request('http://localhost/main/api/v1/me', { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return documented(request, await patchMe(request));
  };

  it.each([
    ['a\u0000b', 'control_character'],
    [`ab${lone}`, 'unpaired_surrogate'],
    ['a\u0080b', 'control_character'],
    ['\u202Eevil', 'format_character'],
    ['admin\u200B', 'format_character'],
    ['x\uFEFFy', 'format_character'],
  ])('display_name %j: 422 %s from PATCH /me, the admin route and token names', async (name, code) => {
    const { user } = await newUser();
    const token = await tokenWithScopes(user.id, ['account']);
    const patched = await account(token, { display_name: name });
    expect(patched.status).toBe(422);
    expect((await patched.json()).errors[0]).toMatchObject({ path: 'display_name', code });

    const admin = await call(createUserRoute, '/admin/users', { token: 'test-admin-token-0123456789', body: { handle: `n${Date.now()}`, display_name: name } });
    expect(admin.status).toBe(422);
    expect((await admin.json()).errors[0]).toMatchObject({ path: 'display_name', code });

    const named = await call(postToken, '/me/tokens', { token, body: { name } });
    expect(named.status).toBe(422);
    expect((await named.json()).errors[0]).toMatchObject({ path: 'name', code });
  });

  it('badge labels and languages refuse the same characters', async () => {
    const { token } = await newUser();
    for (const body of [
      { metric: 'total', range: '7d', label: 'a\u0000b' },
      { metric: 'total', range: '7d', label: 'coded\u2066 7d' },
      { metric: 'language', range: '7d', language: `Go${lone}` },
    ]) {
      const res = await call(postBadge, '/badges', { token, body });
      expect(res.status).toBe(422);
    }
  });

  it('an ordinary name with accents, CJK and emoji is kept', async () => {
    const { user } = await newUser();
    const token = await tokenWithScopes(user.id, ['account']);
    const res = await account(token, { display_name: 'Zoë 李 🧑‍🚀' });
    expect(res.status).toBe(200);
    expect((await res.json()).display_name).toBe('Zoë 李 🧑‍🚀');
  });
});

// A failed statement names itself and its SQLSTATE wherever it is printed (its message,
// console.error's rendering with every cause, JSON), never a value it carried: neither its
// parameters nor the database's message or detail, which quote them.
describe('failed statements in the log', () => {
  /** Everything a log line or an error tracker could print of `err`. */
  const printed = (err: unknown) => [(err as Error).message, String(err), inspect(err, { depth: 10 }), JSON.stringify(err)].join('\n');

  it('name the statement and its SQLSTATE, never a parameter', async () => {
    const db = await getDb();
    const secret = 'alice-private-2026';
    const failure = await rows(db, sql`SELECT ${secret}::uuid AS id`).catch((err) => err);
    expect(errorCode(failure)).toBe('22P02');
    expect(printed(failure)).toMatch(/statement #[0-9a-f]{8} "SELECT \$1::uuid AS id" failed \(22P02\)/);
    expect(printed(failure)).not.toContain(secret);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = errorResponse(failure);
      expect(res.status).toBe(500);
      const text = logged.mock.calls.flat().map((a) => inspect(a, { depth: 10 })).join(' ');
      expect(text).toContain('22P02');
      expect(text).not.toContain(secret);
    } finally {
      logged.mockRestore();
    }
  });

  it('a value the database quotes back stays out: a malformed uuid, a taken unique value', async () => {
    const db = await getDb();
    const malformed = await db.select().from(users).where(eq(users.id, 'not-a-uuid-secret-value')).catch((err) => err);
    expect(errorCode(malformed)).toBe('22P02');
    expect(printed(malformed)).not.toContain('not-a-uuid-secret-value');

    const { user } = await newUser({ handle: 'taken-handle-secret-7q' });
    const taken = await db.insert(users).values({ handle: user.handle, displayName: 'Second' }).catch((err) => err);
    expect(isUniqueViolation(taken)).toBe(true);
    expect(printed(taken)).toContain('23505');
    expect(printed(taken)).not.toContain('taken-handle-secret-7q');
  });

  it('inside a transaction and a nested one, and from the transaction\'s own COMMIT', async () => {
    const db = await getDb();
    const inside = await db.transaction((tx) => rows(tx, sql`SELECT ${'bob-secret'}::int`)).catch((err) => err);
    expect(errorCode(inside)).toBe('22P02');
    expect(printed(inside)).not.toContain('bob-secret');

    const nested = await db
      .transaction((tx) => tx.transaction((inner) => inner.select().from(users).where(eq(users.id, 'nested-secret-value'))))
      .catch((err) => err);
    expect(errorCode(nested)).toBe('22P02');
    expect(printed(nested)).not.toContain('nested-secret-value');

    // A deferred unique constraint refuses the rows only at COMMIT, which the driver runs itself.
    const atCommit = await db
      .transaction(async (tx) => {
        await tx.execute(sql`CREATE TEMP TABLE deferred_probe (v text UNIQUE DEFERRABLE INITIALLY DEFERRED) ON COMMIT DROP`);
        await tx.execute(sql`INSERT INTO deferred_probe VALUES (${'commit-secret-value'}), (${'commit-secret-value'})`);
      })
      .catch((err) => err);
    expect(isUniqueViolation(atCommit)).toBe(true);
    expect(printed(atCommit)).not.toContain('commit-secret-value');
  });
});
