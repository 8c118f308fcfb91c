import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { POST as postOne } from '@/app/api/wakatime/v1/users/[user]/heartbeats/route';
import { DELETE as deleteRelayRoute, PATCH as patchRelay } from '@/app/main/api/v1/me/relays/[id]/route';
import { GET as listRelaysRoute, POST as postRelay } from '@/app/main/api/v1/me/relays/route';
import { POST as postImport } from '@/app/main/api/v1/me/imports/route';
import { issueToken } from '@/lib/accounts/tokens';
import { resetConfig } from '@/lib/config';
import { getDb, rows } from '@/lib/db/client';
import { installId } from '@/lib/wakatime/relaying/install';
import { openRelayKey } from '@/lib/wakatime/relaying/sealed';
import { importsSettled } from '@/lib/wakatime/importing/import-queue';
import { BACKOFF_FIRST_MS, PAUSE_AFTER, sendRelays } from '@/lib/wakatime/relaying/sender';
import { signUp } from '@/lib/accounts/sign-in';
import { newUser, tokenWithScopes } from '../helpers/api';
import { startMailbox } from '../helpers/smtp';
import { expectDocumented } from '../helpers/contract';

// Relays (the old service kept in step): the routes and their rules (3 a user, the outbound address
// rules, the key checked, never answered, stored sealed), what the heartbeat routes queue (only for
// users with relays, nothing from another install or older than 180 days), and the sender driven
// directly against a real HTTP server on loopback (IMPORT_ALLOWED_HOSTS lists it): the bulk request
// and its headers, each heartbeat once, backoff after failures, refusals dropped, a pause after 100
// failed attempts in a day and resuming, a pause as soon as the key is refused three attempts in a
// row (mailed to the owner), and heartbeats dropped after 24 hours.

const vimAgent = 'wakatime/13.1.0 (linux-5.15.0) python3.11 vim/9.0 vim-wakatime/9.0.1';
const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A WakaTime-compatible service on loopback: records what it receives; `mode` decides its answers. */
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}
let target: http.Server;
let received: Received[] = [];
let mode: 'ok' | 'down' | 'refuse-key' | 'refuse-first' | 'refuse-nul' | 'hold' = 'ok';
/** In `hold` mode: called when a bulk arrives; the answer waits for `held` to settle. */
let arrived: () => void = () => {};
let held: Promise<void> = Promise.resolve();
const targetKey = 'waka_11111111-2222-4333-8444-555555555555';
let base = '';

beforeAll(async () => {
  target = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: data ? JSON.parse(data) : null });
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (mode === 'refuse-key' || req.headers.authorization !== basic(targetKey)) return send(401, { error: 'Unauthorized' });
      if (mode === 'down') return send(503, { error: 'down' });
      if (req.url?.endsWith('/users/current')) return send(200, { data: { id: 'u', username: 'ada' } });
      const items = data ? (JSON.parse(data) as unknown[]) : [];
      const refusal = mode === 'refuse-nul' ? 'bad\u0000entity\ud800 here' : 'entity is too long';
      const responses = items.map((_, i) => ((mode === 'refuse-first' || mode === 'refuse-nul') && i === 0 ? [{ error: refusal }, 400] : [{ data: { id: String(i) } }, 201]));
      if (mode !== 'hold') return send(201, { responses });
      arrived();
      void held.then(() => send(201, { responses }));
    });
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const { port } = target.address() as AddressInfo;
  base = `http://127.0.0.1:${port}/api/v1`;
  process.env.IMPORT_ALLOWED_HOSTS = `127.0.0.1:${port}`;
  resetConfig();
});

afterAll(async () => {
  delete process.env.IMPORT_ALLOWED_HOSTS;
  resetConfig();
  await new Promise((r) => target.close(r));
});

afterEach(async () => {
  mode = 'ok';
  received = [];
  // Each test's relays go, so that the next test's sender run sees only its own.
  await (await getDb()).execute(sql`DELETE FROM relays`);
});

/** A user with an editor key (sync, stats) and an `account` token. */
async function relayUser() {
  const u = await newUser({ timezone: 'UTC' });
  const { token: key } = await issueToken(await getDb(), u.user.id, { name: 'vim', format: 'uuid' });
  return { ...u, key, account: await tokenWithScopes(u.user.id, ['account']) };
}

const meUrl = 'http://localhost/main/api/v1/me/relays';
async function create(token: string, body: unknown) {
  const request = new Request(meUrl, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return expectDocumented('POST', meUrl, await postRelay(request));
}
async function list(token: string) {
  const res = await expectDocumented('GET', meUrl, await listRelaysRoute(new Request(meUrl, { headers: { authorization: `Bearer ${token}` } })));
  expect(res.status).toBe(200);
  return res;
}
async function relaysOf(token: string) {
  return (await (await list(token)).json()).data as { id: string; name: string; api_url: string; last_success_at: string | null; last_error: string | null; failures_today: number; pending: number; paused: boolean }[];
}
async function patch(token: string, id: string, body: unknown) {
  const url = `${meUrl}/${id}`;
  const request = new Request(url, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return expectDocumented('PATCH', url, await patchRelay(request, { params: Promise.resolve({ id }) }));
}
async function remove(token: string, id: string) {
  const url = `${meUrl}/${id}`;
  return expectDocumented('DELETE', url, await deleteRelayRoute(new Request(url, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({ id }) }));
}

/** Sends heartbeats as a plugin does (bulk, or one), with optional extra headers. */
async function beat(key: string, body: unknown, headers: Record<string, string> = {}) {
  const bulk = Array.isArray(body);
  const url = `http://localhost/api/wakatime/v1/users/current/heartbeats${bulk ? '.bulk' : ''}`;
  const request = new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': vimAgent, 'x-machine-name': 'ada-desk', authorization: basic(key), ...headers },
    body: JSON.stringify(body),
  });
  const res = await expectDocumented('POST', url, await (bulk ? postBulk : postOne)(request, { params: Promise.resolve({ user: 'current' }) }));
  expect(res.status).toBe(bulk ? 201 : 201);
  return res;
}

const heartbeat = (time: number, i = 0) => ({ entity: `/home/ada/api/src/${i}.go`, type: 'file', time, project: 'api', language: 'Go', branch: 'main', is_write: i % 2 === 0, lineno: 10 + i });

async function queued(userId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(await getDb(), sql`SELECT count(*)::int AS n FROM relay_queue q JOIN relays r ON r.id = q.relay_id WHERE r.user_id = ${userId}::uuid`);
  return row.n;
}

const bulks = () => received.filter((r) => r.path.endsWith('/users/current/heartbeats.bulk'));

describe('the relay routes', () => {
  it('add a relay after checking its key, list it without the key, and store the key sealed to its row', async () => {
    const u = await relayUser();
    const res = await create(u.account, { api_url: `${base}/`, api_key: targetKey, name: 'My WakaTime' });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toEqual({ id: expect.any(String), name: 'My WakaTime', api_url: base });
    expect(res.headers.get('location')).toBe(`/main/api/v1/me/relays/${created.id}`);
    // The key was checked once against users/current.
    expect(received.map((r) => r.path)).toEqual(['/api/v1/users/current']);
    expect(received[0].headers.authorization).toBe(basic(targetKey));

    const listed = await list(u.account);
    expect(listed.headers.get('cache-control')).toBe('private, no-store');
    const text = await listed.text();
    expect(text).not.toContain(targetKey);
    expect(JSON.parse(text).data).toEqual([
      { id: created.id, name: 'My WakaTime', api_url: base, created_at: expect.any(String), last_success_at: null, last_error: null, failures_today: 0, pending: 0, paused: false },
    ]);

    const [row] = await rows<{ key_sealed: string }>(await getDb(), sql`SELECT key_sealed FROM relays WHERE id = ${created.id}::uuid`);
    expect(row.key_sealed).not.toContain(targetKey);
    expect(row.key_sealed).not.toContain(Buffer.from(targetKey).toString('base64'));
    expect(openRelayKey(row.key_sealed, created.id)).toBe(targetKey);
    // Bound to its row: on another relay's row it opens to nothing.
    expect(openRelayKey(row.key_sealed, '00000000-0000-4000-8000-000000000000')).toBeNull();

    // Without a name: the address's host.
    const unnamed = await (await create(u.account, { api_url: base, api_key: targetKey })).json();
    expect(unnamed.name).toBe(new URL(base).host);
  });

  it('allow at most 3 relays a user (422 naming the rule), and delete one', async () => {
    const u = await relayUser();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await (await create(u.account, { api_url: base, api_key: targetKey, name: `r${i}` })).json()).id);
    const fourth = await create(u.account, { api_url: base, api_key: targetKey });
    expect(fourth.status).toBe(422);
    const problem = await fourth.json();
    expect(problem.errors[0]).toMatchObject({ code: 'too_many_relays' });
    expect(problem.detail).toContain('at most 3');

    expect((await remove(u.account, ids[0])).status).toBe(204);
    expect((await remove(u.account, ids[0])).status).toBe(404);
    // Another user's relay is not found either.
    const other = await relayUser();
    expect((await remove(other.account, ids[1])).status).toBe(404);
    expect((await create(u.account, { api_url: base, api_key: targetKey })).status).toBe(201);
    expect(await relaysOf(u.account)).toHaveLength(3);
  });

  it('refuse an address the outbound rules forbid, a bad address and a refused key, naming the field', async () => {
    const u = await relayUser();
    const loopback = await create(u.account, { api_url: 'http://127.0.0.1:1/api/v1', api_key: targetKey });
    expect(loopback.status).toBe(422);
    expect((await loopback.json()).errors[0]).toMatchObject({ path: 'api_url', code: 'address_not_allowed' });
    const privateNet = await create(u.account, { api_url: 'http://10.1.2.3/api/v1', api_key: targetKey });
    expect((await privateNet.json()).errors[0]).toMatchObject({ path: 'api_url', code: 'address_not_allowed' });
    const bad = await create(u.account, { api_url: 'ftp://example.com/api', api_key: targetKey });
    expect((await bad.json()).errors[0]).toMatchObject({ path: 'api_url', code: 'invalid_format' });
    const withUser = await create(u.account, { api_url: `http://me:pw@${new URL(base).host}/api/v1`, api_key: targetKey });
    expect((await withUser.json()).errors[0]).toMatchObject({ path: 'api_url' });
    const missing = await create(u.account, { api_url: base });
    expect((await missing.json()).errors[0]).toMatchObject({ path: 'api_key' });

    const refused = await create(u.account, { api_url: base, api_key: 'waka_wrong' });
    expect(refused.status).toBe(422);
    const problem = await refused.json();
    expect(problem.errors[0]).toMatchObject({ path: 'api_key', code: 'key_refused' });
    expect(JSON.stringify(problem)).not.toContain('waka_wrong');
    expect(await relaysOf(u.account)).toEqual([]);
  });

  it('check at most 10 keys a user an hour (each a request to the address given), then 429 with Retry-After and nothing asked', async () => {
    const u = await relayUser();
    for (let i = 0; i < 10; i++) expect((await create(u.account, { api_url: base, api_key: 'waka_00000000-0000-4000-8000-000000000000' })).status).toBe(422);
    received = [];
    const limited = await create(u.account, { api_url: base, api_key: targetKey });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(received).toEqual([]);
    expect(await relaysOf(u.account)).toEqual([]);
  });

  it('take the session or `account`; a `stats` key is refused', async () => {
    const u = await relayUser();
    const stats = await tokenWithScopes(u.user.id, ['stats']);
    expect((await create(stats, { api_url: base, api_key: targetKey })).status).toBe(403);
  });
});

describe('queuing heartbeats for relays', () => {
  it('leaves out of the forwarded heartbeat a field holding NUL or an unpaired surrogate, and queues the rest of the request', async () => {
    const u = await relayUser();
    await create(u.account, { api_url: base, api_key: targetKey });
    const t = nowSeconds() - 120;
    const odd = { ...heartbeat(t, 1), dependencies: ['fmt', 'bad\u0000dep'], ai_session: 'sess\ud800' };
    await beat(u.key, [odd, heartbeat(t + 30, 2)]);
    expect(await queued(u.user.id)).toBe(2);
    const forwarded = await rows<{ heartbeat: Record<string, unknown> }>(
      await getDb(),
      sql`SELECT q.heartbeat FROM relay_queue q JOIN relays r ON r.id = q.relay_id WHERE r.user_id = ${u.user.id}::uuid ORDER BY q.id`,
    );
    expect(forwarded[0].heartbeat).toEqual(heartbeat(t, 1));
    expect(forwarded[1].heartbeat).toEqual(heartbeat(t + 30, 2));
  });

  it("sends on the machine a heartbeat's hostname names when the request has no X-Machine-Name", async () => {
    const u = await relayUser();
    await create(u.account, { api_url: base, api_key: targetKey });
    const t = nowSeconds() - 120;
    await beat(u.key, [{ ...heartbeat(t, 1), hostname: 'ada-laptop' }, { ...heartbeat(t + 30, 2), hostname: 'ada-tower' }], { 'x-machine-name': '' });
    const machines = await rows<{ machine: string | null }>(
      await getDb(),
      sql`SELECT q.machine FROM relay_queue q JOIN relays r ON r.id = q.relay_id WHERE r.user_id = ${u.user.id}::uuid ORDER BY q.id`,
    );
    expect(machines.map((m) => m.machine)).toEqual(['ada-laptop', 'ada-tower']);
    received = [];
    expect((await sendRelays(await getDb())).sent).toBe(2);
    expect(bulks().map((b) => b.headers['x-machine-name']).sort()).toEqual(['ada-laptop', 'ada-tower']);
  });

  it('queues nothing of what an import brings, its recent days included (they are counted through the heartbeat path)', async () => {
    const u = await relayUser();
    await create(u.account, { api_url: base, api_key: targetKey });
    const t = Math.floor(nowSeconds() / 86_400) * 86_400 - 86_400 + 3_600; // yesterday, 01:00 UTC
    const beats = [0, 60, 120].map((s, i) => ({ id: `h${i}`, entity: '/src/a.go', type: 'file', time: t + s, project: 'api', language: 'Go', category: 'coding' }));
    const dump = JSON.stringify({ user: { id: 'u-1', username: 'ada', timezone: 'UTC' }, range: { start: 0, end: 0 }, days: [{ date: new Date(t * 1000).toISOString().slice(0, 10), heartbeats: beats }] });
    const url = 'http://localhost/main/api/v1/me/imports';
    const res = await postImport(new Request(url, { method: 'POST', headers: { authorization: `Bearer ${u.account}`, 'content-type': 'application/json' }, body: dump }));
    expect(res.status).toBe(202);
    await importsSettled();
    const [kept] = await rows<{ n: number }>(await getDb(), sql`SELECT count(*)::int AS n FROM heartbeats WHERE user_id = ${u.user.id}::uuid`);
    expect(kept.n).toBe(3);
    expect(await queued(u.user.id)).toBe(0);
  });

  it('queues nothing for a user without relays', async () => {
    const u = await relayUser();
    await beat(u.key, [heartbeat(nowSeconds() - 60, 1), heartbeat(nowSeconds() - 30, 2)]);
    expect(await queued(u.user.id)).toBe(0);
  });

  it('queues each accepted heartbeat once per relay; nothing from another install, nothing older than 180 days', async () => {
    const u = await relayUser();
    await create(u.account, { api_url: base, api_key: targetKey, name: 'one' });
    await create(u.account, { api_url: base, api_key: targetKey, name: 'two' });
    const t = nowSeconds() - 120;
    // Three heartbeats, one of them twice, one refused (no entity).
    await beat(u.key, [heartbeat(t, 1), heartbeat(t + 30, 2), heartbeat(t + 30, 2), { type: 'file', time: t + 60 }, heartbeat(t + 90, 3)]);
    expect(await queued(u.user.id)).toBe(6);
    await beat(u.key, heartbeat(t + 100, 4));
    expect(await queued(u.user.id)).toBe(8);

    // The loop guard: a request a relay forwarded is stored, never relayed again.
    await beat(u.key, [heartbeat(t + 110, 5)], { 'x-origin-instance': 'another-install' });
    expect(await queued(u.user.id)).toBe(8);
    const [stored] = await rows<{ n: number }>(await getDb(), sql`SELECT count(*)::int AS n FROM heartbeats WHERE user_id = ${u.user.id}::uuid`);
    expect(stored.n).toBe(5);

    // Late history: older than 180 days is stored, not relayed.
    await beat(u.key, [heartbeat(nowSeconds() - 200 * 86_400, 6)]);
    expect(await queued(u.user.id)).toBe(8);

    const [row] = await rows<{ heartbeat: Record<string, unknown>; user_agent: string; machine: string }>(
      await getDb(),
      sql`SELECT q.heartbeat, q.user_agent, q.machine FROM relay_queue q JOIN relays r ON r.id = q.relay_id WHERE r.user_id = ${u.user.id}::uuid ORDER BY q.id LIMIT 1`,
    );
    expect(row).toEqual({ heartbeat: heartbeat(t, 1), user_agent: vimAgent, machine: 'ada-desk' });
    expect((await relaysOf(u.account)).map((r) => r.pending)).toEqual([4, 4]);
  });
});

describe('the sender', () => {
  afterEach(() => {
    arrived = () => {};
    held = Promise.resolve();
  });

  it('forwards each heartbeat once as a bulk with the client headers and this install id, then clears the queue', async () => {
    const u = await relayUser();
    const { id } = await (await create(u.account, { api_url: base, api_key: targetKey })).json();
    const t = nowSeconds() - 300;
    const sent = Array.from({ length: 30 }, (_, i) => heartbeat(t + i * 5, i));
    await beat(u.key, sent);
    received = [];
    const run = await sendRelays(await getDb());
    expect(run).toMatchObject({ sent: 30, failed: 0 });
    // 25 a request, WakaTime's bulk limit.
    expect(bulks().map((b) => (b.body as unknown[]).length)).toEqual([25, 5]);
    const origin = await installId(await getDb());
    for (const b of bulks()) {
      expect(b.headers.authorization).toBe(basic(targetKey));
      expect(b.headers['user-agent']).toBe(vimAgent);
      expect(b.headers['x-machine-name']).toBe('ada-desk');
      expect(b.headers['x-origin-instance']).toBe(origin);
    }
    expect(bulks().flatMap((b) => b.body as unknown[])).toEqual(sent);
    expect(await queued(u.user.id)).toBe(0);
    const [relay] = await relaysOf(u.account);
    expect(relay).toMatchObject({ id, pending: 0, last_error: null, failures_today: 0 });
    expect(relay.last_success_at).not.toBeNull();

    // Once: a second run sends nothing.
    received = [];
    await sendRelays(await getDb());
    expect(bulks()).toEqual([]);
  });

  it('backs off after failures (the first retry within a minute), keeps the heartbeats, and delivers them once the service is back', async () => {
    const u = await relayUser();
    await create(u.account, { api_url: base, api_key: targetKey });
    await beat(u.key, [heartbeat(nowSeconds() - 60, 1), heartbeat(nowSeconds() - 30, 2)]);
    mode = 'down';
    const t0 = new Date();
    expect((await sendRelays(await getDb(), t0)).failed).toBe(1);
    let [relay] = await relaysOf(u.account);
    expect(relay).toMatchObject({ failures_today: 1, pending: 2, paused: false });
    expect(relay.last_error).toContain('503');
    const [state] = await rows<{ retry_at: Date | string }>(await getDb(), sql`SELECT retry_at FROM relays WHERE user_id = ${u.user.id}::uuid`);
    expect(new Date(state.retry_at).getTime() - t0.getTime()).toBe(BACKOFF_FIRST_MS);

    // Before the backoff has passed: nothing is tried.
    received = [];
    await sendRelays(await getDb(), new Date(t0.getTime() + BACKOFF_FIRST_MS - 1000));
    expect(bulks()).toEqual([]);
    // After it: tried again, and the next wait is longer.
    const t1 = new Date(t0.getTime() + BACKOFF_FIRST_MS);
    expect((await sendRelays(await getDb(), t1)).failed).toBe(1);
    const [later] = await rows<{ retry_at: Date | string }>(await getDb(), sql`SELECT retry_at FROM relays WHERE user_id = ${u.user.id}::uuid`);
    expect(new Date(later.retry_at).getTime() - t1.getTime()).toBe(2 * BACKOFF_FIRST_MS);
    expect((await relaysOf(u.account))[0].failures_today).toBe(2);

    mode = 'ok';
    received = [];
    const t2 = new Date(t1.getTime() + 2 * BACKOFF_FIRST_MS);
    expect((await sendRelays(await getDb(), t2)).sent).toBe(2);
    expect(bulks()).toHaveLength(1);
    [relay] = await relaysOf(u.account);
    expect(relay).toMatchObject({ pending: 0, last_error: null });
  });

  it('drops a heartbeat the service refuses, saying so, and sends the rest', async () => {
    const u = await relayUser();
    await create(u.account, { api_url: base, api_key: targetKey });
    await beat(u.key, [heartbeat(nowSeconds() - 60, 1), heartbeat(nowSeconds() - 30, 2)]);
    mode = 'refuse-first';
    expect(await sendRelays(await getDb())).toMatchObject({ sent: 1, refused: 1, failed: 0 });
    const [relay] = await relaysOf(u.account);
    expect(relay.pending).toBe(0);
    expect(relay.last_error).toContain('entity is too long');
  });

  it("stores a refusal's text fit for the database (no NUL, no unpaired surrogate), and one relay's trouble never stops the others", async () => {
    const [u, other] = [await relayUser(), await relayUser()];
    await create(u.account, { api_url: base, api_key: targetKey });
    await create(other.account, { api_url: base, api_key: targetKey });
    await beat(u.key, [heartbeat(nowSeconds() - 60, 1), heartbeat(nowSeconds() - 30, 2)]);
    await beat(other.key, [heartbeat(nowSeconds() - 20, 3)]);
    mode = 'refuse-nul';
    expect(await sendRelays(await getDb())).toMatchObject({ sent: 1, refused: 2, failed: 0 });
    for (const who of [u, other]) {
      const [relay] = await relaysOf(who.account);
      expect(relay.pending).toBe(0);
      expect(relay.last_error).toContain('bad entity here');
      expect(relay.last_error!.isWellFormed() && !relay.last_error!.includes('\u0000')).toBe(true);
    }
  });

  it('holds claimed rows for a lease in the database time: a run that began minutes ago leaves no row to a second sender', async () => {
    const u = await relayUser();
    await create(u.account, { api_url: base, api_key: targetKey });
    await beat(u.key, [heartbeat(nowSeconds() - 60, 1)]);
    // A run that began 3 minutes ago (longer than the lease) and only now reaches this relay.
    await (await getDb()).execute(sql`UPDATE relay_queue SET due_at = now() - interval '5 minutes'`);
    mode = 'hold';
    let answer!: () => void;
    held = new Promise((r) => (answer = r));
    const reached = new Promise<void>((r) => (arrived = r));
    received = [];
    const slow = sendRelays(await getDb(), new Date(Date.now() - 3 * 60_000));
    await reached;
    // While the first sender waits for its answer, a second one finds nothing due.
    mode = 'ok';
    expect(await sendRelays(await getDb())).toMatchObject({ sent: 0, failed: 0 });
    answer();
    expect((await slow).sent).toBe(1);
    expect(bulks()).toHaveLength(1);
    expect(await queued(u.user.id)).toBe(0);
  });

  it('pauses a relay at 100 failed attempts in a day, says why, and resumes when its owner asks', async () => {
    const u = await relayUser();
    const { id } = await (await create(u.account, { api_url: base, api_key: targetKey })).json();
    await beat(u.key, [heartbeat(nowSeconds() - 60, 1)]);
    mode = 'down';
    const today = new Date().toISOString().slice(0, 10);
    // 98 failures already today: two more attempts reach 100.
    await (await getDb()).execute(sql`UPDATE relays SET failures_today = ${PAUSE_AFTER - 2}, failures_day = ${today} WHERE id = ${id}::uuid`);
    const t0 = new Date();
    expect((await sendRelays(await getDb(), t0)).paused).toBe(0);
    expect((await relaysOf(u.account))[0]).toMatchObject({ failures_today: PAUSE_AFTER - 1, paused: false });
    expect((await sendRelays(await getDb(), new Date(t0.getTime() + 60_000))).paused).toBe(1);
    let [relay] = await relaysOf(u.account);
    expect(relay).toMatchObject({ failures_today: PAUSE_AFTER, paused: true, pending: 1 });
    expect(relay.last_error).toContain(`${PAUSE_AFTER} failed attempts`);
    expect(relay.last_error).toContain('answered 503');

    // Paused: nothing is tried, whatever the time.
    received = [];
    await sendRelays(await getDb(), new Date(t0.getTime() + 3_600_000));
    expect(received).toEqual([]);

    mode = 'ok';
    const resumed = await patch(u.account, id, { paused: false });
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toMatchObject({ id, paused: false, failures_today: 0, pending: 1 });
    expect((await sendRelays(await getDb())).sent).toBe(1);
    [relay] = await relaysOf(u.account);
    expect(relay).toMatchObject({ pending: 0, paused: false, last_error: null });
    expect((await patch(u.account, id, { paused: 'no' })).status).toBe(422);
  });

  it('pauses at once when the service refuses the key at the third failed attempt in a row, and mails its owner', async () => {
    const mailbox = await startMailbox();
    Object.assign(process.env, { SMTP_URL: mailbox.url, MAIL_FROM: 'codetally@example.test', SITE_URL: 'https://codetally.example' });
    resetConfig();
    try {
      const db = await getDb();
      const handle = `relay_${Math.random().toString(36).slice(2, 10)}`;
      const email = `${handle}@example.test`;
      const userId = (await signUp(db, { handle, email, password: 'correct horse battery', timezone: 'UTC' }, '198.51.100.77'))!;
      const { token: key } = await issueToken(db, userId, { name: 'vim', format: 'uuid' });
      const account = await tokenWithScopes(userId, ['account']);
      const { id } = await (await create(account, { api_url: base, api_key: targetKey })).json();
      await beat(key, [heartbeat(nowSeconds() - 60, 1)]);
      mode = 'refuse-key'; // the key was revoked there
      let at = Date.now();
      for (const failures of [1, 2]) {
        expect((await sendRelays(db, new Date(at))).paused).toBe(0);
        expect((await relaysOf(account))[0]).toMatchObject({ failures_today: failures, paused: false, pending: 1 });
        at += 3_600_000; // past any backoff
      }
      expect(mailbox.to(email)).toEqual([]);
      expect((await sendRelays(db, new Date(at))).paused).toBe(1);
      const [relay] = await relaysOf(account);
      expect(relay).toMatchObject({ id, failures_today: 3, paused: true, pending: 1 });
      expect(relay.last_error).toContain('refused the key (401)');
      const mail = await mailbox.next(email);
      expect(mail.subject).toContain('relay');
      expect(mail.text).toContain('refused the key (401)');
      expect(mail.text).toContain('https://codetally.example/dashboard/settings/relays');
      expect(mail.text).not.toContain(targetKey);
      // One mail per pause: a paused relay is not tried, so it fails no more.
      await sendRelays(db, new Date(at + 3_600_000));
      expect(mailbox.to(email)).toHaveLength(1);
    } finally {
      for (const name of ['SMTP_URL', 'MAIL_FROM', 'SITE_URL']) delete process.env[name];
      resetConfig();
      await mailbox.close();
    }
  });

  it('drops heartbeats not delivered within 24 hours, saying so', async () => {
    const u = await relayUser();
    await create(u.account, { api_url: base, api_key: targetKey });
    await beat(u.key, [heartbeat(nowSeconds() - 60, 1), heartbeat(nowSeconds() - 30, 2)]);
    mode = 'down';
    await sendRelays(await getDb());
    const [relay] = await relaysOf(u.account);
    expect(relay.pending).toBe(2);
    // A day and a bit later, still not delivered.
    received = [];
    const run = await sendRelays(await getDb(), new Date(Date.now() + 25 * 3_600_000));
    expect(run.dropped).toBe(2);
    expect(bulks()).toEqual([]);
    const [after] = await relaysOf(u.account);
    expect(after.pending).toBe(0);
    expect(after.last_error).toContain('2 heartbeats were dropped');
  });
});
