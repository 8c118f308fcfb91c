import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { signUpAt } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { until } from '../helpers/until';

// An import by key between two real Codetally servers: one holds a user's heartbeats of several
// days (sent through its WakaTime heartbeat API, from two editors and two machines); the other,
// allowed to reach it on this machine (IMPORT_ALLOWED_HOSTS), imports them day by day with the
// user's key there, through its API and through its dashboard's Import page in a browser (the
// progress bar, then the end). Importing again counts nothing twice.

const adminToken = 'remote-import-admin-token-0123456789';
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(chromiumPath);
const password = 'a long enough password 42';
const DAY = 86_400;
/** Where the browser's screenshots go, as the browser suite's do. */
const shots = path.resolve('test-results/screenshots');

let source: TestServer & { port: number };
let target: TestServer & { port: number };

async function adminUser(server: TestServer, handle: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/main/api/v1/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle, token: { scopes: ['account', 'stats', 'sync'], format: 'uuid' } }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;
const dateOf = (day: number) => new Date(day * DAY * 1000).toISOString().slice(0, 10);
const today = () => Math.floor(Date.now() / 1000 / DAY);

/** The user's figures per day from the WakaTime summaries: seconds, editors and machines. */
async function figures(server: TestServer, key: string) {
  const res = await fetch(`${server.baseUrl}/api/wakatime/v1/users/current/summaries?start=${dateOf(today() - 8)}&end=${dateOf(today())}`, { headers: { authorization: basic(key) } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { range: { date: string }; grand_total: { total_seconds: number }; editors: { name: string; total_seconds: number }[]; machines: { name: string; total_seconds: number }[] }[] };
  return Object.fromEntries(
    body.data
      .filter((d) => d.grand_total.total_seconds > 0)
      .map((d) => [d.range.date, { seconds: d.grand_total.total_seconds, editors: d.editors.map((e) => e.name).sort(), machines: d.machines.map((m) => m.name).sort() }]),
  );
}

interface Status {
  id: string;
  status: string;
  days_total: number;
  days_done: number;
  error: string | null;
  done: boolean;
}

async function importBy(server: TestServer, token: string, apiKey: string): Promise<Status> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const res = await fetch(`${server.baseUrl}/main/api/v1/me/imports/remote`, { method: 'POST', headers, body: JSON.stringify({ from: 'compatible', api_url: `${source.baseUrl}/api/wakatime/v1`, api_key: apiKey }) });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as Status;
  return until(async () => (await (await fetch(`${server.baseUrl}/main/api/v1/me/imports/${id}`, { headers })).json()) as Status, (s) => s.done, 'imported');
}

let sourceKey = '';

beforeAll(async () => {
  source = await startTestServer({ ADMIN_TOKEN: adminToken });
  target = await startTestServer({ ADMIN_TOKEN: adminToken, IMPORT_ALLOWED_HOSTS: `127.0.0.1:${source.port}`, READ_RATE_LIMIT_PER_MINUTE: '0' });
  sourceKey = await adminUser(source, 'ada');
  // Three days of heartbeats on the source, each day five a minute apart, from VS Code on a desk
  // and Neovim on a laptop.
  for (const [ago, agent, machine] of [
    [6, 'wakatime/v1.98.0 (darwin-23.4.0-arm64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0', 'ada-desk'],
    [4, 'wakatime/v1.90.0 (linux-6.8.0-x86_64) go1.22.1 neovim/0.9.5 vim-wakatime/11.1.1', 'ada-laptop'],
    [2, 'wakatime/v1.98.0 (darwin-23.4.0-arm64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0', 'ada-desk'],
  ] as const) {
    const start = (today() - ago) * DAY + 10 * 3600;
    const res = await fetch(`${source.baseUrl}/api/wakatime/v1/users/current/heartbeats.bulk`, {
      method: 'POST',
      headers: { authorization: basic(sourceKey), 'content-type': 'application/json', 'user-agent': agent, 'x-machine-name': machine },
      body: JSON.stringify([0, 60, 120, 180, 240].map((s, i) => ({ entity: `/home/ada/api/f${i}.go`, type: 'file', time: start + s, language: 'Go', project: 'api', category: 'coding' }))),
    });
    expect(res.status).toBe(201);
  }
}, 180_000);

afterAll(async () => {
  await source?.stop();
  await target?.stop();
  source?.remove();
  target?.remove();
});

describe('an import by key from another Codetally', () => {
  it('brings every day with its editors and machines; importing again counts nothing twice', async () => {
    const mine = await adminUser(target, 'ada');
    const expected = await figures(source, sourceKey);
    expect(Object.keys(expected)).toHaveLength(3);
    expect(Object.values(expected).flatMap((d) => d.editors).sort()).toEqual(['Neovim', 'VS Code', 'VS Code']);
    expect(Object.values(expected).flatMap((d) => d.machines).sort()).toEqual(['ada-desk', 'ada-desk', 'ada-laptop']);

    const done = await importBy(target, mine, sourceKey);
    expect(done).toMatchObject({ status: 'done', error: null });
    expect(done.days_done).toBe(done.days_total);
    expect(done.days_total).toBeGreaterThanOrEqual(5);
    expect(await figures(target, mine)).toEqual(expected);

    expect((await importBy(target, mine, sourceKey)).status).toBe('done');
    expect(await figures(target, mine)).toEqual(expected);
    // The key is in no log line of either server.
    expect(source.output() + target.output()).not.toContain(sourceKey);
  }, 120_000);

  it('without IMPORT_ALLOWED_HOSTS naming it, the other server on this machine is refused (422 naming api_url)', async () => {
    const token = await adminUser(source, 'bob');
    const res = await fetch(`${source.baseUrl}/main/api/v1/me/imports/remote`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'compatible', api_url: `${target.baseUrl}/api/wakatime/v1`, api_key: sourceKey }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['api_url']);
  });
});

describe.skipIf(!hasChromium)("the Import page's progress bar, in a browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
    fs.mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const signUp = (page: Page, handle: string) => signUpAt(page, target.baseUrl, { handle, password });

  for (const javaScriptEnabled of [true, false]) {
    it(`imports from the other server through the form, showing a progress bar until it is done (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const context = await browser.newContext({ javaScriptEnabled, colorScheme: javaScriptEnabled ? 'light' : 'dark' });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await signUp(page, javaScriptEnabled ? 'carla' : 'dora');
      await page.goto(`${target.baseUrl}/dashboard/settings/import`, { waitUntil: 'networkidle' });
      const form = page.getByRole('form', { name: 'From a compatible server' });
      await form.getByLabel('API address').fill(`${source.baseUrl}/api/wakatime/v1`);
      await form.getByLabel('API key there').fill(sourceKey);
      await form.getByRole('button', { name: 'Import from this server' }).click();
      // The bar, named by its heading, with the same in words beside it.
      const bar = page.getByRole('progressbar', { name: 'Importing from the other server' });
      await bar.waitFor({ timeout: 20_000 });
      await page.screenshot({ path: path.join(shots, `remote-import-running-${javaScriptEnabled ? 'light' : 'dark'}.png`), fullPage: true });
      await expect.poll(async () => (await page.getByRole('status').allTextContents()).join(' ')).toMatch(/days read|Reading|Starting/);
      // With JavaScript the page reads its progress again by itself; without, reloading does.
      await expect
        .poll(
          async () => {
            if (!javaScriptEnabled) await page.reload({ waitUntil: 'load' });
            return (await page.locator('#import-progress').textContent()) ?? '';
          },
          { timeout: 60_000, interval: 500 },
        )
        .toMatch(/Imported: \d+ days/);
      expect(await page.getByRole('progressbar').count()).toBe(0);
      // The key was not put back in the page.
      expect(await page.content()).not.toContain(sourceKey);
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
