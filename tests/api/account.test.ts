import { sql } from 'drizzle-orm';
import { NO_DIMENSIONS, NO_LINE_CHANGES } from '@/lib/ingest/rows';
import { beforeAll, describe, expect, it } from 'vitest';
import { DELETE as deleteMe, GET as getMe, PATCH as patchMe } from '@/app/main/api/v1/me/route';
import { GET as exportMe } from '@/app/main/api/v1/me/export/route';
import { GET as listTokensRoute, POST as createTokenRoute } from '@/app/main/api/v1/me/tokens/route';
import { DELETE as revokeTokenRoute } from '@/app/main/api/v1/me/tokens/[id]/route';
import { POST as createBadgeRoute } from '@/app/main/api/v1/badges/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { POST as postDesktop } from '@/app/main/api/v1/sync/activities/desktop/route';
import { POST as postHeartbeats } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { POST as postImport } from '@/app/main/api/v1/me/imports/route';
import { issueToken } from '@/lib/accounts/tokens';
import { storeHeartbeats } from '@/lib/wakatime/sending/heartbeat-store';
import { importsSettled } from '@/lib/wakatime/importing/import-queue';
import { signUp } from '@/lib/accounts/sign-in';
import { runAuthAction } from '@/lib/auth/authjs';
import { getDb, rows } from '@/lib/db/client';
import { writeRows } from '@/lib/ingest/store';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { documented } from '../helpers/contract';

const origin = 'http://localhost';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (request: Request, route?: any) => Promise<Response>;

async function me(handler: Handler, method: string, path: string, opts: { token?: string; cookie?: string; body?: unknown; headers?: Record<string, string>; id?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', host: 'localhost', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  const request = new Request(`${origin}/main/api/v1${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  return documented(request, await handler(request, opts.id ? { params: Promise.resolve({ id: opts.id }) } : undefined));
}

/** Signs up with email + password and signs in through Auth.js: the session cookie a browser would hold. */
async function signedIn(handle: string) {
  const email = `${handle}@example.test`;
  const id = await signUp(await getDb(), { handle, email, password: 'correct horse battery' }, testAddress);
  const res = await runAuthAction(origin, 'callback/credentials', { email, password: 'correct horse battery', callbackUrl: '/dashboard' }, { cookie: '' });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('authjs.session-token='));
  expect(cookie).toBeDefined();
  return { id, email, cookie: cookie! };
}

const uniq = () => Math.random().toString(36).slice(2, 8);
/** Each test file signs up from an address of its own: sign-ups are limited per address. */
const testAddress = `198.51.100.${Math.floor(Math.random() * 250)}-${uniq()}`;

beforeAll(async () => {
  // Email + password is on by default only with the embedded database; these tests use it on both.
  process.env.AUTH_PASSWORD = 'on';
  (await import('@/lib/config')).resetConfig();
});

describe('account routes (/me)', () => {
  it('answers a token with the account scope, refuses a plugin token and no credentials', async () => {
    const { user, token: pluginToken } = await newUser();
    const accountToken = await tokenWithScopes(user.id, ['account']);
    const ok = await me(getMe, 'GET', '/me', { token: accountToken });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('private, no-store');
    const body = await ok.json();
    expect(body).toMatchObject({ id: user.id, handle: user.handle, email: null, sign_in_providers: [] });
    expect(body.settings.profile_public).toBe(false);

    const plugin = await me(getMe, 'GET', '/me', { token: pluginToken });
    expect(plugin.status).toBe(403);
    expect((await plugin.json()).code).toBe('forbidden');
    const none = await me(getMe, 'GET', '/me');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('changes settings and timezone, and names the field of a bad value', async () => {
    const { user } = await newUser();
    const token = await tokenWithScopes(user.id, ['account']);
    const res = await me(patchMe, 'PATCH', '/me', { token, body: { timezone: 'Asia/Tokyo', settings: { profile_public: true, share_languages: true } } });
    expect(res.status).toBe(200);
    const changed = await res.json();
    expect(changed.timezone).toBe('Asia/Tokyo');
    expect(changed.settings).toMatchObject({ profile_public: true, share_languages: true, share_editors: false, community_stats: true });

    const bad = await me(patchMe, 'PATCH', '/me', { token, body: { timezone: 'Mars/Olympus', settings: { leaderboard: 'yes' } } });
    expect(bad.status).toBe(422);
    const problem = await bad.json();
    expect(problem.errors.map((e: { path: string }) => e.path).sort()).toEqual(['settings.leaderboard', 'timezone']);

    const other = await newUser();
    const taken = await me(patchMe, 'PATCH', '/me', { token, body: { handle: other.user.handle.toUpperCase() } });
    expect(taken.status).toBe(422);
    expect((await taken.json()).errors[0]).toMatchObject({ path: 'handle', code: 'handle_taken' });
  });

  it('works with the sign-in session, and refuses a session change from another site', async () => {
    const handle = `sess_${uniq()}`;
    const { cookie, email } = await signedIn(handle);
    const mine = await me(getMe, 'GET', '/me', { cookie });
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ handle, email, settings: { profile_public: false, leaderboard: false, share_languages: false } });

    const crossSite = await me(patchMe, 'PATCH', '/me', { cookie, body: { settings: { profile_public: true } }, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const noOrigin = await me(patchMe, 'PATCH', '/me', { cookie, body: { settings: { profile_public: true } } });
    expect(noOrigin.status).toBe(403);
    expect((await (await me(getMe, 'GET', '/me', { cookie })).json()).settings.profile_public).toBe(false);

    const sameSite = await me(patchMe, 'PATCH', '/me', { cookie, body: { settings: { profile_public: true } }, headers: { origin, 'sec-fetch-site': 'same-origin' } });
    expect(sameSite.status).toBe(200);
    expect((await sameSite.json()).settings.profile_public).toBe(true);

    const forged = await me(getMe, 'GET', '/me', { cookie: 'authjs.session-token=not-a-session' });
    expect(forged.status).toBe(401);
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const handle = `pw_${uniq()}`;
    await signUp(await getDb(), { handle, email: `${handle}@example.test`, password: 'correct horse battery' }, testAddress);
    for (const [email, password] of [
      [`${handle}@example.test`, 'wrong horse battery'],
      [`nobody_${handle}@example.test`, 'correct horse battery'],
    ]) {
      const res = await runAuthAction(origin, 'callback/credentials', { email, password, callbackUrl: '/dashboard' }, { cookie: '' });
      expect(res.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))).toBe(false);
      expect(res.headers.get('location')).toMatch(/error=CredentialsSignin/);
    }
  });

  it('creates a token shown once, lists it without its value, and revokes it', async () => {
    const { user } = await newUser();
    const accountToken = await tokenWithScopes(user.id, ['account']);
    const created = await me(createTokenRoute, 'POST', '/me/tokens', { token: accountToken, body: { name: 'laptop' } });
    expect(created.status).toBe(201);
    const { token, info } = await created.json();
    expect(info).toMatchObject({ name: 'laptop', scopes: ['sync', 'badges'], revoked_at: null });
    expect(token.startsWith(info.prefix)).toBe(true);
    const bucket = { activities: [{ language: 'Go', time: 60, date: daysFromToday(0), hour: 3 }] };
    expect((await call(postBatch, '/sync/activities', { token, body: bucket })).status).toBe(200);

    const listed = await (await me(listTokensRoute, 'GET', '/me/tokens', { token: accountToken })).json();
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(listed.tokens.find((t: { id: string }) => t.id === info.id).last_used_at).not.toBeNull();

    const bad = await me(createTokenRoute, 'POST', '/me/tokens', { token: accountToken, body: { name: '', scopes: ['root'] } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors.map((e: { path: string }) => e.path).sort()).toEqual(['name', 'scopes.0']);

    expect((await me(revokeTokenRoute, 'DELETE', `/me/tokens/${info.id}`, { token: accountToken, id: info.id })).status).toBe(204);
    expect((await call(postBatch, '/sync/activities', { token, body: bucket })).status).toBe(401);
    expect((await me(revokeTokenRoute, 'DELETE', `/me/tokens/${info.id}`, { token: accountToken, id: info.id })).status).toBe(404);
    const stranger = await newUser();
    const strangerToken = await tokenWithScopes(stranger.user.id, ['account']);
    expect((await me(revokeTokenRoute, 'DELETE', `/me/tokens/${info.id}`, { token: strangerToken, id: info.id })).status).toBe(404);
    // A path no token could have (PostgreSQL refuses NUL in text): a 404 like any unknown one.
    for (const id of ['\u0000', 'ct_\ud800', 'a b'])
      expect((await me(revokeTokenRoute, 'DELETE', `/me/tokens/${encodeURIComponent(id.isWellFormed() ? id : 'x')}`, { token: accountToken, id })).status).toBe(404);
  });

  it('gives a name a live token already has a number, the dashboard and the route alike; a revoked name is free again', async () => {
    const { user } = await newUser();
    const accountToken = await tokenWithScopes(user.id, ['account']);
    const create = async (name: string) => {
      const res = await me(createTokenRoute, 'POST', '/me/tokens', { token: accountToken, body: { name, format: 'uuid' } });
      expect(res.status).toBe(201);
      return (await res.json()).info as { id: string; name: string };
    };
    const first = await create('WakaTime plugins');
    expect(first.name).toBe('WakaTime plugins');
    // The dashboard's "Make a key" calls the same function with this name.
    const second = await issueToken(await getDb(), user.id, { name: 'WakaTime plugins', format: 'uuid' });
    expect(second.info.name).toBe('WakaTime plugins (2)');
    expect((await create('wakatime PLUGINS')).name).toBe('wakatime PLUGINS (3)');
    expect((await create('WakaTime plugins (2)')).name).toBe('WakaTime plugins (2) (2)');
    // The longest name allowed stays within the limit with its number.
    const long = 'x'.repeat(100);
    expect((await create(long)).name).toBe(long);
    const numbered = (await create(long)).name;
    expect([numbered.length, numbered.endsWith(' (2)')]).toEqual([100, true]);
    // Once revoked, a token's name no longer counts.
    expect((await me(revokeTokenRoute, 'DELETE', `/me/tokens/${first.id}`, { token: accountToken, id: first.id })).status).toBe(204);
    expect((await create('WakaTime plugins')).name).toBe('WakaTime plugins');
    const listed = (await (await me(listTokensRoute, 'GET', '/me/tokens', { token: accountToken })).json()).tokens as { name: string; revoked_at: string | null }[];
    const live = listed.filter((t) => t.revoked_at === null).map((t) => t.name.toLowerCase());
    expect(new Set(live).size).toBe(live.length);
  });

  it('exports everything kept, then deletes every row of the user', async () => {
    const { user, token } = await newUser();
    const accountToken = await tokenWithScopes(user.id, ['account']);
    const date = daysFromToday(0);
    await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'Rust', time: 90, date, hour: 4, project_name: 'engine', ide_name: 'vim' }] } });
    await call(postDesktop, '/sync/activities/desktop', { token, body: { activities: [{ program_name: 'Figma', path: '', filename: '', time: 30, date, hour: 4, platform: 'macos' }] } });
    await call(createBadgeRoute, '/badges', { token, body: { metric: 'total', range: '7d' } });
    // Heartbeats from a WakaTime plugin, and an import of a data dump.
    const key = (await issueToken(await getDb(), user.id, { name: 'vim', format: 'uuid' })).token;
    const now = Math.floor(Date.now() / 1000);
    const beats = [{ entity: '/src/a.rs', time: now - 120, language: 'Rust', project: 'engine' }, { entity: '/src/a.rs', time: now - 60, language: 'Rust', project: 'engine' }];
    const wakaRequest = new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(beats),
    });
    expect((await postHeartbeats(wakaRequest, { params: Promise.resolve({ user: 'current' }) })).status).toBe(201);
    const dump = JSON.stringify({ days: [{ date: 'x', heartbeats: [{ entity: '/src/b.rs', time: now - 40 * 86_400, language: 'Rust' }] }] });
    const importRequest = new Request('http://localhost/main/api/v1/me/imports', { method: 'POST', headers: { authorization: `Bearer ${accountToken}`, 'content-type': 'application/json' }, body: dump });
    expect((await postImport(importRequest)).status).toBe(202);
    await importsSettled();

    const exported = await me(exportMe, 'GET', '/me/export', { token: accountToken });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/attachment/);
    const data = await exported.json();
    expect(data.account.id).toBe(user.id);
    expect(data.activities).toContainEqual({ date, hour: 4, language: 'Rust', project_name: 'engine', ide_name: 'Vim', time: 90, lines: 0 });
    // The heartbeats' minute (in one hour or split over two).
    expect(data.activities.filter((a: { ide_name: string }) => a.ide_name !== 'Vim').reduce((sum: number, a: { time: number }) => sum + a.time, 0)).toBe(60);
    expect(data.desktop_activities).toEqual([{ date, hour: 4, platform: 'macos', app: 'Figma', time: 30 }]);
    expect(data.badges).toHaveLength(1);
    expect(data.tokens).toHaveLength(3);
    expect(data.heartbeats.map((h: { time: number; counted_seconds: number }) => [h.time, h.counted_seconds])).toEqual([[now - 120, 60], [now - 60, 0]]);
    expect(data.imports).toMatchObject([{ status: 'done', heartbeats_read: 1 }]);
    expect(JSON.stringify(data)).not.toContain('/src/');
    expect(JSON.stringify(data)).not.toContain(token);

    expect((await me(deleteMe, 'DELETE', '/me', { token: accountToken })).status).toBe(204);
    const db = await getDb();
    const tables = await rows<{ table_name: string }>(
      db,
      sql`SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'user_id'`,
    );
    expect(tables.length).toBeGreaterThan(10);
    for (const { table_name } of tables) {
      const [left] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table_name)} WHERE user_id = ${user.id}`);
      expect([table_name, left.n]).toEqual([table_name, 0]);
    }
    expect((await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'Go', time: 1, date, hour: 1 }] } })).status).toBe(401);
    // A write authenticated just before the deletion reaches the store after it: it is refused
    // whole (ide_activity has no key of its own to users; its rollup rows do), nothing is left.
    const late = [{ date, hour: 5, language: 'Go', project: '', editor: '', ...NO_DIMENSIONS, millis: 1000, lines: 0, ...NO_LINE_CHANGES }];
    await expect(writeRows(db, 'ide', user.id, late)).rejects.toThrow();
    // So is a heartbeat batch (heartbeats have no key to users either: the batch finds no user).
    await storeHeartbeats(db, { id: user.id, timezone: 'UTC' }, [{ at: Date.now(), type: 'file', digest: 1, category: 'coding', language: 'Go', project: '', editor: 'vim', os: 'Linux', app: '', machine: '', agent: '', aiLines: 0, humanLines: 0 }]);
    for (const table of ['ide_activity', 'heartbeats']) {
      const [orphans] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE user_id = ${user.id}`);
      expect([table, orphans.n]).toEqual([table, 0]);
    }
  });
});

describe('outside sign-in providers', () => {
  it('sends the browser to GitHub with this site\'s callback when GitHub is configured', async () => {
    const { resetConfig } = await import('@/lib/config');
    process.env.AUTH_GITHUB_ID = 'gh-client-id';
    process.env.AUTH_GITHUB_SECRET = 'gh-client-secret';
    resetConfig();
    try {
      const res = await runAuthAction(origin, 'signin/github', { callbackUrl: '/dashboard' }, { cookie: '' });
      const location = new URL(res.headers.get('location')!);
      expect(location.origin + location.pathname).toBe('https://github.com/login/oauth/authorize');
      expect(location.searchParams.get('client_id')).toBe('gh-client-id');
      expect(location.searchParams.get('redirect_uri')).toBe(`${origin}/auth/callback/github`);
      expect(res.headers.getSetCookie().some((c) => /authjs\.(state|pkce)/.test(c))).toBe(true);
    } finally {
      delete process.env.AUTH_GITHUB_ID;
      delete process.env.AUTH_GITHUB_SECRET;
      resetConfig();
    }
    const off = await runAuthAction(origin, 'signin/github', { callbackUrl: '/dashboard' }, { cookie: '' });
    expect(off.headers.get('location') ?? '').not.toContain('github.com');
  });

  it('links a provider account to one private user, named after the provider login when free', async () => {
    const { userForProviderAccount } = await import('@/lib/accounts/sign-in');
    const db = await getDb();
    const login = `octo_${uniq()}`;
    const first = await userForProviderAccount(db, 'github', `${login}-1`, { login, name: 'Octo Cat' });
    const again = await userForProviderAccount(db, 'github', `${login}-1`, { login });
    expect(again).toBe(first);
    const other = await userForProviderAccount(db, 'oidc', `${login}-2`, { preferred_username: login.toUpperCase() });
    expect(other).not.toBe(first);
    const token = await tokenWithScopes(first, ['account']);
    const account = await (await me(getMe, 'GET', '/me', { token })).json();
    expect(account).toMatchObject({ handle: login, display_name: 'Octo Cat', sign_in_providers: ['github'], settings: { profile_public: false, leaderboard: false } });
    const otherAccount = await (await me(getMe, 'GET', '/me', { token: await tokenWithScopes(other, ['account']) })).json();
    expect(otherAccount.handle).toBe(`${login.toUpperCase()}-2`);
  });
});
