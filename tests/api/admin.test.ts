import { afterEach, describe, expect, it } from 'vitest';
import { POST as createUserRoute } from '@/app/main/api/v1/admin/users/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { runCommand } from '@/lib/admin/commands';
import { resetConfig } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { call } from '../helpers/api';

const adminToken = 'test-admin-token-0123456789';
const create = (body: unknown, token = adminToken) => call(createUserRoute, '/admin/users', { token, body });

afterEach(() => {
  process.env.ADMIN_TOKEN = adminToken;
  resetConfig();
});

describe('POST /admin/users', () => {
  it('creates a private user and a plugin token that can write at once', async () => {
    const res = await create({ handle: 'Alice', display_name: 'Alice A.', timezone: 'Europe/Berlin' });
    expect(res.status).toBe(201);
    const { user, token } = await res.json();
    expect(user).toMatchObject({
      handle: 'Alice',
      display_name: 'Alice A.',
      timezone: 'Europe/Berlin',
      settings: { profile_public: false, share_languages: false, share_editors: false, share_apps: false, leaderboard: false, community_stats: true },
    });
    expect(token).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);
    const write = await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'Go', time: 1 }] } });
    expect(write.status).toBe(200);
  });

  it('applies the settings it is given', async () => {
    const res = await create({ handle: 'pub', settings: { profile_public: true, leaderboard: true } });
    expect((await res.json()).user.settings).toMatchObject({ profile_public: true, leaderboard: true, share_languages: false });
  });

  it('refuses a taken handle, whatever its case, naming the field', async () => {
    expect((await create({ handle: 'carol' })).status).toBe(201);
    const again = await create({ handle: 'CAROL' });
    expect(again.status).toBe(422);
    expect((await again.json()).errors).toEqual([expect.objectContaining({ path: 'handle', code: 'handle_taken' })]);
  });

  it.each([
    [{ handle: 'has space' }, 'handle'],
    [{ handle: '0b9d1f5e-6a47-4f43-9c3a-6d1b2a7e9f00' }, 'handle'],
    [{ handle: 'ok', timezone: 'Mars/Olympus' }, 'timezone'],
    [{ handle: 'ok2', settings: { leaderboard: 'yes' } }, 'settings.leaderboard'],
  ])('answers 422 for %j', async (body, path) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect((await res.json()).errors[0].path).toBe(path);
  });

  it('answers 401 to a wrong admin token', async () => {
    const res = await create({ handle: 'mallory' }, 'not-the-admin-token');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('does not exist when ADMIN_TOKEN is unset', async () => {
    delete process.env.ADMIN_TOKEN;
    resetConfig();
    const res = await create({ handle: 'nobody' }, 'anything-at-all-here');
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('not_found');
  });
});

describe('operator commands', () => {
  it('issue, list and revoke tokens for a user', async () => {
    const db = await getDb();
    await runCommand(db, { command: 'create-user', input: { handle: 'dave' } });
    const issued = (await runCommand(db, { command: 'issue-token', handle: 'dave', name: 'laptop', scopes: ['sync'], format: 'ct' })) as {
      token: string;
      info: { prefix: string };
    };
    const listed = (await runCommand(db, { command: 'list-tokens', handle: 'DAVE' })) as { tokens: { name: string; prefix: string }[] };
    expect(listed.tokens.map((t) => t.name).sort()).toEqual(['first token', 'laptop']);
    expect(JSON.stringify(listed)).not.toContain(issued.token);

    const body = { activities: [{ language: 'Go', time: 1 }] };
    expect((await call(postBatch, '/sync/activities', { token: issued.token, body })).status).toBe(200);
    await runCommand(db, { command: 'revoke-token', handle: 'dave', token: issued.info.prefix });
    expect((await call(postBatch, '/sync/activities', { token: issued.token, body })).status).toBe(401);
    await expect(runCommand(db, { command: 'revoke-token', handle: 'dave', token: issued.info.prefix })).rejects.toThrow(/no live token/);
  });
});
