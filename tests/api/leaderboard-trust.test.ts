import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { GET as getLeaders } from '@/app/api/wakatime/v1/leaders/route';
import { GET as getFlags } from '@/app/main/api/v1/admin/flags/route';
import { GET as getAudit } from '@/app/main/api/v1/admin/audit/route';
import { GET as getUsers } from '@/app/main/api/v1/admin/users/route';
import { DELETE as showRoute, POST as hideRoute } from '@/app/main/api/v1/admin/users/[handle]/hide/route';
import { GET as getBoard } from '@/app/main/api/v1/leaderboard/api/get/public/route';
import { GET as getMe } from '@/app/main/api/v1/me/route';
import { GET as getTime } from '@/app/main/api/v1/get/public/time/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { runCommand } from '@/lib/admin/commands';
import { issueMailToken } from '@/lib/accounts/mail-tokens';
import { resetPassword } from '@/lib/accounts/password-reset';
import { signUp } from '@/lib/accounts/sign-in';
import { issueToken } from '@/lib/accounts/tokens';
import { runAuthAction } from '@/lib/auth/authjs';
import { config, resetConfig } from '@/lib/config';
import { dbHandle, getDb, openDb, rows } from '@/lib/db/client';
import { LEADERBOARD_TAG } from '@/lib/cache/tags';
import { scanSignals } from '@/lib/leaderboards/trust/signals';
import { trustCheck } from '@/lib/leaderboards/trust/check';
import { leaderboardPage } from '@/lib/stats/leaderboard/pages';
import { newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// Leaderboards people can trust: a scripted cheater, sent through the real heartbeat API beside
// honest coders, raises the signals (and they none); an operator hides the cheater from every
// public board and site-wide figure at once (on every process), the cheater's own account says
// so, a hide ends by itself, LEADERBOARD_AUTO_HIDE hides pending review, and no flag or audit row
// holds anyone's address.

const origin = 'http://localhost';
const admin = { authorization: `Bearer ${process.env.ADMIN_TOKEN}` };
const HOUR = 3_600_000;
const yesterday = () => new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000);
const day = () => yesterday().toISOString().slice(0, 10);

beforeAll(() => {
  process.env.PUBLIC_NOISE_SECONDS = '0';
  process.env.AUTH_PASSWORD = 'on';
  process.env.PUBLIC_MIN_USERS = '3';
  resetConfig();
});

async function req(handler: (r: Request, c?: { params: Promise<Record<string, string>> }) => Promise<Response>, method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown; params?: Record<string, string> } = {}) {
  const url = `${origin}${path}`;
  const request = new Request(url, {
    method,
    headers: { 'content-type': 'application/json', ...opts.headers },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return expectDocumented(method, url, await handler(request, { params: Promise.resolve(opts.params ?? {}) }));
}

/** Sends heartbeats as wakatime-cli does (`size` a request), from one machine. */
async function send(key: string, machine: string, beats: { time: number; entity: string }[], size = 100) {
  for (let i = 0; i < beats.length; i += size) {
    const body = beats.slice(i, i + size).map((b) => ({ ...b, type: 'file', language: 'TypeScript', project: 'game', category: 'coding' }));
    const res = await req(postBulk as never, 'POST', '/api/wakatime/v1/users/current/heartbeats.bulk', {
      headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'x-machine-name': machine, 'user-agent': 'wakatime/13.1.0 (linux) vim/9.0 vim-wakatime/9.0.1' },
      body,
      params: { user: 'current' },
    });
    expect(res.status).toBe(201);
  }
}

async function coder(settings = { leaderboard: true, profile_public: true, share_languages: true }) {
  const u = await newUser({ settings: { ...settings, share_editors: false, share_apps: false, community_stats: true } });
  return u;
}

/** A script: every 120 s for 22 hours, from four machines (a key each), all day yesterday. */
async function cheat(handle: string, userId: string) {
  const start = yesterday().getTime() + HOUR;
  for (let m = 0; m < 4; m++) {
    const { token } = await issueToken(await getDb(), userId, { name: `box${m}`, format: 'uuid' });
    const beats = [];
    for (let t = start + m * 7_000; t < start + 22 * HOUR; t += 120_000) beats.push({ time: t / 1000, entity: `/srv/${handle}/bot${m}.ts` });
    await send(token, `box-${m}`, beats);
  }
}

/** An honest coder: about six hours with a person's irregular pauses, from one laptop. */
async function code(userId: string, seed: number) {
  const { token } = await issueToken(await getDb(), userId, { name: 'laptop', format: 'uuid' });
  const beats = [];
  let t = yesterday().getTime() + 8 * HOUR;
  for (let i = 0; t < yesterday().getTime() + 14 * HOUR; i++) {
    beats.push({ time: t / 1000, entity: `/home/me/src/file${i % 7}.ts` });
    t += 30_000 + ((i * 7919 + seed * 104729) % 170_000); // 30 s to 3 min 20 s, never one interval for long
  }
  await send(token, 'laptop', beats);
}

const board = async () => (await (await req(getBoard as never, 'GET', '/main/api/v1/leaderboard/api/get/public?range=7d&limit=100')).json()).entries.map((e: { user: { handle: string } }) => e.user.handle);
const leaders = async () => (await (await req(getLeaders as never, 'GET', '/api/wakatime/v1/leaders')).json()).data.map((e: { user: { username: string } }) => e.user.username);
const siteTotal = async () => {
  const body = await (await req(getTime as never, 'GET', `/main/api/v1/get/public/time?from=${day()}&to=${day()}`)).json();
  return body.suppressed ? null : body.total_seconds;
};
const flags = async () => (await (await req(getFlags as never, 'GET', '/main/api/v1/admin/flags', { headers: admin })).json()).data as { handle: string; signal: string; day: string; detail: string }[];

describe('leaderboards people can trust', () => {
  it('flag a scripted cheater and no honest coder; a hide takes them off every public board and site-wide figure, and only there', async () => {
    const honest = [await coder(), await coder(), await coder()];
    const cheater = await coder();
    for (const [i, h] of honest.entries()) await code(h.user.id, i + 1);
    await cheat(cheater.user.handle, cheater.user.id);

    const found = await flags();
    const of = (handle: string) => found.filter((f) => f.handle === handle).map((f) => f.signal).sort();
    expect(of(cheater.user.handle)).toEqual(['exact_interval', 'hours_per_day', 'machines_per_hour']);
    for (const h of honest) expect(of(h.user.handle)).toEqual([]);
    expect(found.find((f) => f.handle === cheater.user.handle && f.signal === 'machines_per_hour')).toMatchObject({ day: day(), detail: '4 machines in one hour' });

    // Before: the cheater tops the board and counts in the site-wide figures.
    expect((await board())[0]).toBe(cheater.user.handle);
    expect(await leaders()).toContain(cheater.user.handle);
    const before = await siteTotal();
    expect(before).toBeGreaterThan(22 * 3600);

    // The other process, where there is one: it hears the hide on the change feed.
    const other = process.env.TEST_DB === 'pglite' ? null : await openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: '', pooler: config().DATABASE_POOLER }, 2);
    const heardThere: string[] = [];
    other?.changes.subscribe((subject) => subject && heardThere.push(subject));
    if (other) expect(await leaderboardPage(other.db, { range: '7d', language: null, page: 1, limit: 100 }).then((p) => p.entries[0].user.handle)).toBe(cheater.user.handle);

    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const hid = await req(hideRoute as never, 'POST', `/main/api/v1/admin/users/${cheater.user.handle.toUpperCase()}/hide`, { headers: admin, body: { reason: 'exact_interval', until }, params: { handle: cheater.user.handle.toUpperCase() } });
    expect(hid.status).toBe(200);
    expect(await hid.json()).toEqual({ handle: cheater.user.handle, leaderboard_hidden: { reason: 'exact_interval', until } });

    expect(await board()).not.toContain(cheater.user.handle);
    expect(await board()).toEqual(expect.arrayContaining(honest.map((h) => h.user.handle)));
    expect(await leaders()).not.toContain(cheater.user.handle);
    const after = await siteTotal();
    expect(after).toBeLessThan(before - 20 * 3600);
    if (other) {
      // Told over the change feed; behind a transaction pooler none is received, and each read
      // asks the database for the snapshot's revision instead.
      if (process.env.TEST_DB === 'postgres') {
        await other.changes.heard();
        const deadline = Date.now() + 5000;
        while (!heardThere.includes(cheater.user.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(heardThere).toEqual(expect.arrayContaining([cheater.user.id, LEADERBOARD_TAG]));
      }
      const page = await leaderboardPage(other.db, { range: '7d', language: null, page: 1, limit: 100 });
      expect(page.entries.map((e) => e.user.handle)).not.toContain(cheater.user.handle);
      await other.close();
    }

    // Their own account says so; their own figures stay.
    const me = await req(getMe as never, 'GET', '/main/api/v1/me', { headers: { authorization: `Bearer ${await tokenWithScopes(cheater.user.id, ['account'])}` } });
    expect((await me.json()).leaderboard_hidden).toEqual({ reason: 'exact_interval', until });
    const own = await req(getTime as never, 'GET', `/main/api/v1/get/public/time?user=${cheater.user.handle}&from=${day()}&to=${day()}`);
    expect((await own.json()).total_seconds).toBeGreaterThan(20 * 3600);

    // Operators see the account hidden and flagged; shown again, it is back at once.
    const listed = await (await req(getUsers as never, 'GET', `/main/api/v1/admin/users?q=${cheater.user.handle}`, { headers: admin })).json();
    expect(listed.data).toEqual([expect.objectContaining({ handle: cheater.user.handle, flags: 3, hidden: { reason: 'exact_interval', until } })]);
    expect((await req(showRoute as never, 'DELETE', `/main/api/v1/admin/users/${cheater.user.handle}/hide`, { headers: admin, params: { handle: cheater.user.handle } })).status).toBe(204);
    expect((await board())[0]).toBe(cheater.user.handle);
    expect(await siteTotal()).toBe(before);

    const audit = await (await req(getAudit as never, 'GET', `/main/api/v1/admin/audit?handle=${cheater.user.handle}`, { headers: admin })).json();
    expect(audit.data.map((a: { action: string; operator: string }) => `${a.operator} ${a.action}`)).toEqual(['admin-token show', 'admin-token hide']);
  });

  it("lists an account's last heartbeat: the last one kept, else the end of its last hour with time", async () => {
    const [editor, synced, quiet] = [await coder(), await newUser({ timezone: 'Asia/Tokyo' }), await coder()];
    const start = yesterday().getTime() + 9 * HOUR;
    const { token } = await issueToken(await getDb(), editor.user.id, { name: 'laptop', format: 'uuid' });
    await send(token, 'laptop', [{ time: start / 1000, entity: '/src/a.ts' }, { time: (start + 600_000) / 1000, entity: '/src/a.ts' }]);
    // Codetally's own client sends hours, never heartbeats: its last hour with time ends at 15:00 in Tokyo.
    const sync = await tokenWithScopes(synced.user.id, ['sync']);
    const batch = { activities: [{ language: 'Go', time: 1200, date: day(), hour: 14 }] };
    expect((await req(postBatch as never, 'POST', '/main/api/v1/sync/activities', { headers: { authorization: `Bearer ${sync}` }, body: batch })).status).toBe(200);
    const last = async (handle: string) => (await (await req(getUsers as never, 'GET', `/main/api/v1/admin/users?q=${handle}`, { headers: admin })).json()).data[0].last_heartbeat_at;
    expect(await last(editor.user.handle)).toBe(new Date(start + 600_000).toISOString());
    expect(await last(synced.user.handle)).toBe(new Date(`${day()}T15:00:00+09:00`).toISOString());
    expect(await last(quiet.user.handle)).toBeNull();
  });

  it('more than 30 000 heartbeats in a UTC day raise their own flag; 30 000 do not', async () => {
    const [over, at] = [await coder(), await coder()];
    for (const [u, count] of [[over, 30_001], [at, 30_000]] as const) {
      const { token } = await issueToken(await getDb(), u.user.id, { name: 'flood', format: 'uuid' });
      // Spread over yesterday at irregular gaps (1 to 4 s), from one machine.
      const start = yesterday().getTime();
      const beats = Array.from({ length: count }, (_, i) => ({ time: (start + i * 2_870 + ((i * 7919) % 1_000)) / 1000, entity: `/src/f${i % 13}.ts` }));
      await send(token, 'desk', beats, 1000);
    }
    const found = await flags();
    expect(found.filter((f) => f.signal === 'heartbeats_per_day').map((f) => [f.handle, f.day, f.detail])).toEqual([[over.user.handle, day(), '30001 heartbeats']]);
  }, 120_000);

  it('a hide whose end has passed no longer hides', async () => {
    const [a, b, c] = [await coder(), await coder(), await coder()];
    for (const [i, u] of [a, b, c].entries()) await code(u.user.id, i + 11);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect((await req(hideRoute as never, 'POST', `/main/api/v1/admin/users/${a.user.handle}/hide`, { headers: admin, body: { reason: 'checking', until }, params: { handle: a.user.handle } })).status).toBe(200);
    expect(await board()).not.toContain(a.user.handle);
    // The hour passes (the end is moved back, as the clock would have).
    await (await getDb()).execute(sql`UPDATE users SET hidden_until = now() - interval '1 second' WHERE id = ${a.user.id}::uuid`);
    const token = await tokenWithScopes(a.user.id, ['account']);
    expect((await (await req(getMe as never, 'GET', '/main/api/v1/me', { headers: { authorization: `Bearer ${token}` } })).json()).leaderboard_hidden).toBeNull();
    expect(await board()).toContain(a.user.handle);
    // The minute check ends it for good: written to the log, the account listed as shown.
    await trustCheck(await getDb());
    const listed = await (await req(getUsers as never, 'GET', `/main/api/v1/admin/users?q=${a.user.handle}`, { headers: admin })).json();
    expect(listed.data).toEqual([expect.objectContaining({ handle: a.user.handle, hidden: null })]);
    expect(await board()).toContain(a.user.handle);
    const audit = await (await req(getAudit as never, 'GET', `/main/api/v1/admin/audit?handle=${a.user.handle}`, { headers: admin })).json();
    expect(audit.data[0]).toMatchObject({ operator: 'automatic', action: 'hide_ended', handle: a.user.handle });
  });

  it('with LEADERBOARD_AUTO_HIDE=on, a flagged account is hidden pending review, the signal its reason', async () => {
    process.env.LEADERBOARD_AUTO_HIDE = 'on';
    resetConfig();
    try {
      const [h, cheater] = [await coder(), await coder()];
      await code(h.user.id, 21);
      await cheat(cheater.user.handle, cheater.user.id);
      await scanSignals(await getDb());
      expect(await board()).not.toContain(cheater.user.handle);
      expect(await board()).toContain(h.user.handle);
      const me = await req(getMe as never, 'GET', '/main/api/v1/me', { headers: { authorization: `Bearer ${await tokenWithScopes(cheater.user.id, ['account'])}` } });
      const hidden = (await me.json()).leaderboard_hidden;
      expect(['hours_per_day', 'machines_per_hour', 'exact_interval']).toContain(hidden.reason);
      expect(hidden.until).toBeNull();
      const audit = await (await req(getAudit as never, 'GET', `/main/api/v1/admin/audit?handle=${cheater.user.handle}`, { headers: admin })).json();
      expect(audit.data).toEqual([expect.objectContaining({ operator: 'automatic', action: 'hide', reason: hidden.reason })]);
    } finally {
      delete process.env.LEADERBOARD_AUTO_HIDE;
      resetConfig();
    }
  });

  it('operators by address or by grant, with their session; anyone else finds no such route; no flag or audit row holds an address', async () => {
    process.env.ADMIN_EMAILS = 'Boss@Example.test';
    resetConfig();
    const uniq = Math.random().toString(36).slice(2, 8);
    const where = `198.51.100.${Math.floor(Math.random() * 250)}-${uniq}`;
    const password = 'correct horse battery';
    const db = await getDb();
    await signUp(db, { handle: `boss_${uniq}`, email: 'boss@example.test', password }, where);
    await signUp(db, { handle: `ops_${uniq}`, email: `ops_${uniq}@example.test`, password }, where);
    await signUp(db, { handle: `joe_${uniq}`, email: `joe_${uniq}@example.test`, password }, where);
    const cookie = async (email: string) => {
      const res = await runAuthAction(origin, 'callback/credentials', { email, password, callbackUrl: '/dashboard' }, { cookie: '' });
      return res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('authjs.session-token=') && c !== 'authjs.session-token=')!;
    };
    const asSession = async (c: string) => (await req(getFlags as never, 'GET', '/main/api/v1/admin/flags', { headers: { cookie: c } })).status;
    // Without mail, signing up proves nothing of an address: anyone could have signed up as
    // boss@, so ADMIN_EMAILS does not count it until a link mailed to it is used (a reset here).
    expect(await asSession(await cookie('boss@example.test'))).toBe(404);
    const [boss] = await rows<{ id: string }>(db, sql`SELECT id FROM users WHERE handle = ${`boss_${uniq}`}`);
    expect(await resetPassword(db, await issueMailToken(db, boss.id, 'reset', 3600), password, { revokeTokens: false })).toBe(true);
    expect(await asSession(await cookie('boss@example.test'))).toBe(200);
    expect(await asSession(await cookie(`ops_${uniq}@example.test`))).toBe(404);
    expect(await runCommand(db, { command: 'grant-operator', handle: `ops_${uniq}` })).toEqual({ handle: `ops_${uniq}`, operator: true });
    const ops = await cookie(`ops_${uniq}@example.test`);
    expect(await asSession(ops)).toBe(200);
    expect(await asSession(await cookie(`joe_${uniq}@example.test`))).toBe(404);
    expect((await req(getFlags as never, 'GET', '/main/api/v1/admin/flags')).status).toBe(404);
    expect((await req(getFlags as never, 'GET', '/main/api/v1/admin/flags', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);

    // A session's change must come from this site; from it, it is the operator who is audited.
    const hide = (headers: Record<string, string>) => req(hideRoute as never, 'POST', `/main/api/v1/admin/users/joe_${uniq}/hide`, { headers: { cookie: ops, ...headers }, body: { reason: 'looking into it' }, params: { handle: `joe_${uniq}` } });
    expect((await hide({})).status).toBe(403);
    expect((await hide({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    const audit = await (await req(getAudit as never, 'GET', `/main/api/v1/admin/audit?handle=joe_${uniq}`, { headers: admin })).json();
    expect(audit.data[0]).toMatchObject({ operator: `ops_${uniq}`, action: 'hide', reason: 'looking into it', until: null });
    expect((await req(hideRoute as never, 'POST', '/main/api/v1/admin/users/nobody_here/hide', { headers: admin, body: { reason: 'x' }, params: { handle: 'nobody_here' } })).status).toBe(404);
    const bad = await req(hideRoute as never, 'POST', `/main/api/v1/admin/users/joe_${uniq}/hide`, { headers: admin, body: { reason: 'x', until: '2001-01-01T00:00:00Z' }, params: { handle: `joe_${uniq}` } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors[0].path).toBe('until');
    // Text PostgreSQL refuses (NUL, an unpaired surrogate): the parameter named, or no such user; never a 500.
    for (const [handler, path, param] of [[getUsers, '/main/api/v1/admin/users?q=%00', 'q'], [getAudit, '/main/api/v1/admin/audit?handle=a%00b', 'handle']] as const) {
      const res = await req(handler as never, 'GET', path, { headers: admin });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(param);
    }
    for (const handle of ['\u0000', 'joe\ud800']) {
      const params = { handle };
      expect((await req(hideRoute as never, 'POST', '/main/api/v1/admin/users/x/hide', { headers: admin, body: { reason: 'x' }, params })).status).toBe(404);
      expect((await req(showRoute as never, 'DELETE', '/main/api/v1/admin/users/x/hide', { headers: admin, params })).status).toBe(404);
    }

    // Nothing kept for operators holds an address, an email or a User-Agent.
    const kept = await rows<{ row: string }>(db, sql`SELECT row_to_json(f)::text AS row FROM trust_flags f UNION ALL SELECT row_to_json(a)::text FROM operator_audit a`);
    expect(kept.length).toBeGreaterThan(0);
    for (const { row } of kept) {
      expect(row).not.toMatch(/@|\d+\.\d+\.\d+\.\d+|wakatime\/|Mozilla|vim-wakatime/);
    }
    delete process.env.ADMIN_EMAILS;
    resetConfig();
    await dbHandle();
  });
});
