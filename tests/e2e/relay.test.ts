import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFlags, chromiumPath } from '../helpers/audit';
import { startTestServer, type TestServer } from '../helpers/server';
import { signUpAt } from '../helpers/pages';
import { until } from '../helpers/until';

// Relays between two real installs (production builds, embedded databases, no AUTH_SECRET: each
// seals keys with the key its install generated): A relays a user's heartbeats to the same
// person's account on B, which counts them once; B stops for a while and starts again on the same
// port, A stops and starts meanwhile, and what A queued arrives once both are back (its queue and
// the key that seals the relay's key live in its database); then B relays to A too, a loop that
// each install's X-Origin-Instance guard breaks: each stores each heartbeat once, and neither
// sends anything on once both are delivered. Settings, Relays adds and deletes a relay in a
// browser without JavaScript.

const adminToken = 'relay-test-admin-token-0123456789';
const metricsToken = 'relay-test-metrics-token-0123456789';
const env = { ADMIN_TOKEN: adminToken, METRICS_TOKEN: metricsToken, IMPORT_ALLOWED_HOSTS: '127.0.0.1', READ_RATE_LIMIT_PER_MINUTE: '0' };
const agent = 'wakatime/v1.98.0 (linux-6.8.0-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';

let a: TestServer & { port: number };
let b: TestServer & { port: number };

interface Person {
  account: string;
  key: string;
}
const people = new Map<TestServer, Person>();

/** A user on `server` with an `account` token and an editor key. */
async function person(server: TestServer): Promise<Person> {
  const created = await fetch(`${server.baseUrl}/main/api/v1/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle: 'ada', token: { scopes: ['account'] } }),
  });
  expect(created.status).toBe(201);
  const { token: account } = (await created.json()) as { token: string };
  const issued = await fetch(`${server.baseUrl}/main/api/v1/me/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'editor', format: 'uuid' }),
  });
  expect(issued.status).toBe(201);
  const { token: key } = (await issued.json()) as { token: string };
  return { account, key };
}

const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;
const current = (server: TestServer) => people.get(server)!;

/** Heartbeats sent to `server` as a plugin sends them. */
async function send(server: TestServer, beats: object[]) {
  const res = await fetch(`${server.baseUrl}/api/v1/users/current/heartbeats.bulk`, {
    method: 'POST',
    headers: { authorization: basic(current(server).key), 'content-type': 'application/json', 'user-agent': agent, 'x-machine-name': 'ada-desk' },
    body: JSON.stringify(beats),
  });
  expect(res.status).toBe(201);
}

/** The times of the user's heartbeats `server` stores for a day, as its API answers them. */
async function storedTimes(server: TestServer, date: string): Promise<number[]> {
  const res = await fetch(`${server.baseUrl}/api/v1/users/current/heartbeats?date=${date}`, { headers: { authorization: basic(current(server).key) } });
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: { time: number }[] };
  return data.map((h) => h.time).sort((x, y) => x - y);
}

interface Relay {
  id: string;
  last_success_at: string | null;
  last_error: string | null;
  failures_today: number;
  pending: number;
  paused: boolean;
}
async function relaysOf(server: TestServer): Promise<Relay[]> {
  const res = await fetch(`${server.baseUrl}/main/api/v1/me/relays`, { headers: { authorization: `Bearer ${current(server).account}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Relay[] }).data;
}

async function addRelay(from: TestServer, to: TestServer & { port: number }) {
  const res = await fetch(`${from.baseUrl}/main/api/v1/me/relays`, {
    method: 'POST',
    headers: { authorization: `Bearer ${current(from).account}`, 'content-type': 'application/json' },
    body: JSON.stringify({ api_url: `http://127.0.0.1:${to.port}/api/v1`, api_key: current(to).key, name: 'the other install' }),
  });
  expect(res.status).toBe(201);
  const text = await res.text();
  expect(text).not.toContain(current(to).key);
}

/** The heartbeat requests a server counted (its metrics). */
async function heartbeatRequests(server: TestServer): Promise<number> {
  const text = await (await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
  return [...text.matchAll(/^codetally_heartbeat_requests_total\{[^}]*\} (\d+)/gm)].reduce((s, m) => s + Number(m[1]), 0);
}

// Heartbeats a minute apart, all on one UTC day (the day of the first).
const start = Math.floor(Date.now() / 1000 / 3600) * 3600 - 2 * 3600;
const day = new Date(start * 1000).toISOString().slice(0, 10);
const beat = (i: number) => ({ entity: `/home/ada/api/src/${i}.go`, type: 'file', time: start + i * 60, project: 'api', language: 'Go', is_write: true });

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
  people.set(a, await person(a));
  people.set(b, await person(b));
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  a?.remove();
  b?.remove();
});

describe('a relay to another Codetally', () => {
  it('forwards what A stores to B, where it counts once', async () => {
    await addRelay(a, b);
    await send(a, [beat(0), beat(1), beat(2)]);
    expect(await storedTimes(a, day)).toEqual([0, 1, 2].map((i) => start + i * 60));
    await until(() => storedTimes(b, day), (t) => t.length >= 3, 'relayed to B');
    await until(() => relaysOf(a), (r) => r[0].pending === 0 && r[0].last_success_at !== null, 'delivered');
    expect(await storedTimes(b, day)).toEqual([0, 1, 2].map((i) => start + i * 60));
    // B's figures: the same 2 minutes as A's (each gap credited once).
    const today = async (server: TestServer) => {
      const res = await fetch(`${server.baseUrl}/api/v1/users/current/summaries?start=${day}&end=${day}`, { headers: { authorization: basic(current(server).key) } });
      return ((await res.json()) as { cumulative_total: { seconds: number } }).cumulative_total.seconds;
    };
    expect(await today(b)).toBe(await today(a));
    expect(await today(b)).toBe(120);
  }, 60_000);

  it('keeps what B missed while it was down, across a restart of A, and delivers it once B is back', async () => {
    const { dataDir, port } = b;
    await b.stop();
    await send(a, [beat(3), beat(4)]);
    // A tried and failed: the heartbeats wait.
    const failing = await until(() => relaysOf(a), (r) => r[0].failures_today >= 1, 'failing');
    expect(failing[0]).toMatchObject({ pending: 2, paused: false });
    expect(failing[0].last_error).toEqual(expect.any(String));
    // A stops with them still queued; B comes back; A, started again, sends them from its database.
    const sender = { at: { dataDir: a.dataDir, port: a.port }, person: people.get(a)! };
    await a.stop();
    people.delete(a);
    const person = people.get(b)!;
    people.delete(b);
    b = await startTestServer(env, { dataDir, port });
    people.set(b, person);
    a = await startTestServer(env, sender.at);
    people.set(a, sender.person);
    await until(() => storedTimes(b, day), (t) => t.length >= 5, 'delivered after B came back');
    expect(await storedTimes(b, day)).toEqual([0, 1, 2, 3, 4].map((i) => start + i * 60));
    const [relay] = await until(() => relaysOf(a), (r) => r[0].pending === 0, 'sent');
    expect(relay.last_error).toBeNull();
  }, 180_000);

  it('relays both ways between two installs without a loop: each stores each heartbeat once', async () => {
    await addRelay(b, a);
    await send(a, [beat(5)]);
    await send(b, [beat(6)]);
    const all = [0, 1, 2, 3, 4, 5, 6].map((i) => start + i * 60);
    await until(() => storedTimes(b, day), (t) => t.length >= 7, 'A to B');
    await until(() => storedTimes(a, day), (t) => t.length >= 7, 'B to A');
    await until(async () => [...(await relaysOf(a)), ...(await relaysOf(b))], (r) => r.every((x) => x.pending === 0), 'both delivered');
    expect(await storedTimes(a, day)).toEqual(all);
    expect(await storedTimes(b, day)).toEqual(all);
    // No ping-pong: once both are delivered, neither install receives another heartbeat request
    // over several of the senders' looks (a heartbeat relayed back would be).
    const before = [await heartbeatRequests(a), await heartbeatRequests(b)];
    await new Promise((r) => setTimeout(r, 10_000));
    expect([await heartbeatRequests(a), await heartbeatRequests(b)]).toEqual(before);
    expect([...(await relaysOf(a)), ...(await relaysOf(b))].every((r) => r.pending === 0 && r.last_error === null)).toBe(true);
  }, 100_000);

  it('are added, shown and deleted on Settings, Relays without JavaScript', async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    try {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const handle = `bob${Math.random().toString(36).slice(2, 8)}`;
      await signUpAt(page, a.baseUrl, { handle, password: 'correct horse battery' });
      await page.goto(`${a.baseUrl}/dashboard/settings/relays`);
      await expect(page.getByTestId('no-relays').count()).resolves.toBe(1);
      // A refused key: the form says so, naming the field, and keeps the address.
      await page.getByLabel('API address of the other service').fill(`http://127.0.0.1:${b.port}/api/v1`);
      await page.getByLabel('Your key there').fill('waka_00000000-0000-4000-8000-000000000000');
      await page.getByRole('button', { name: 'Add relay' }).click();
      await expect(page.getByRole('alert').first().textContent()).resolves.toContain('api_key was refused');
      await page.getByLabel('Your key there').fill(current(b).key);
      await page.getByLabel('Name (optional)').fill('Old install');
      await page.getByRole('button', { name: 'Add relay' }).click();
      await page.goto(`${a.baseUrl}/dashboard/settings/relays`);
      const row = page.getByTestId('relays').getByRole('row', { name: /Old install/ });
      await expect(row.textContent()).resolves.toContain('Up to date');
      expect(await page.content()).not.toContain(current(b).key);
      await row.getByRole('button', { name: 'Delete relay Old install' }).click();
      await page.goto(`${a.baseUrl}/dashboard/settings/relays`);
      await expect(page.getByTestId('no-relays').count()).resolves.toBe(1);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
