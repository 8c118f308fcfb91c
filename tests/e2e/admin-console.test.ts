import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programPath } from '../../scripts/build';
import { chromiumFlags, chromiumPath } from '../helpers/audit';
import { arrivesAt, expectAccessibleEverywhere, signUpAt, tokenFrom, watchErrors } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';

// The operator's console in Chromium against the production server: a signed-out visitor and a
// signed-in non-operator find no page at /admin, nor does one whose address is in ADMIN_EMAILS on
// this install without mail (nothing proved the address); an operator (granted with the admin
// CLI) sees a scripted
// cheater's flags, hides them with one click (and shows them again without JavaScript), the audit
// log records it, the cheater's own dashboard says why; the console passes axe in both themes on a
// desktop and a phone.

const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser checks, but there is no Chromium at ${chromiumPath}`);
const password = 'a long enough password';
const uniq = Math.random().toString(36).slice(2, 7);
const bossEmail = `boss${uniq}@example.test`;
const HOUR = 3_600_000;

let server: TestServer;
let base: string;
let browser: Browser;
const errors: string[] = [];

const watch = watchErrors(errors);

/** A new person signed up in a page of `context`. */
async function signUp(context: BrowserContext, handle: string, email: string): Promise<Page> {
  const page = watch(await context.newPage());
  await signUpAt(page, base, { handle, email, password });
  return page;
}

/** A script's heartbeats: every 120 s for 22 hours of yesterday, from four machines. */
async function cheat(key: string) {
  const start = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000 + HOUR;
  for (let m = 0; m < 4; m++) {
    const beats = [];
    for (let t = start + m * 7_000; t < start + 22 * HOUR; t += 120_000) beats.push({ entity: `/srv/bot${m}.ts`, type: 'file', time: t / 1000, language: 'Go', project: 'bot' });
    for (let i = 0; i < beats.length; i += 100) {
      const res = await fetch(`${base}/api/wakatime/v1/users/current/heartbeats.bulk`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json', 'x-machine-name': `box-${m}`, 'user-agent': 'wakatime/v1.98.0 (linux-6.5.0) go1.22.1 vim/9.1 vim-wakatime/11.0.0' },
        body: JSON.stringify(beats.slice(i, i + 100)),
      });
      expect(res.status).toBe(201);
    }
  }
}

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer({ ADMIN_TOKEN: `console-admin-token-${uniq}-0123456789`, ADMIN_EMAILS: `someone@example.test, ${bossEmail.toUpperCase()}`, SYNC_RATE_LIMIT_PER_MINUTE: '0' });
  base = server.baseUrl;
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  server?.remove();
});

describe.skipIf(!hasChromium)("the operator's console", () => {
  it('is no page to a visitor or a non-operator; an operator reviews flags, hides with one click, shows again without JavaScript', async () => {
    // Signed out: no such page, the site's own 404.
    const visitor = await browser.newContext();
    const vpage = watch(await visitor.newPage());
    expect((await vpage.goto(`${base}/admin`))!.status()).toBe(404);
    await visitor.close();

    const cheaterContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const cheater = await signUp(cheaterContext, `bot${uniq}`, `bot${uniq}@example.test`);
    const key = await tokenFrom(cheater, base, 'script');
    await cheat(key);
    // And three heartbeats now, the only ones of today (UTC) on this install.
    const now = Math.floor(Date.now() / 1000);
    const todays = [2, 1, 0].map((s) => ({ entity: '/srv/bot0.ts', type: 'file', time: now - s, language: 'Go', project: 'bot' }));
    const sent = await fetch(`${base}/api/wakatime/v1/users/current/heartbeats.bulk`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json', 'x-machine-name': 'box-0' },
      body: JSON.stringify(todays),
    });
    expect(sent.status).toBe(201);
    // Signed in, not an operator: no such page either, and the operator routes do not exist for them.
    expect((await cheater.goto(`${base}/admin`))!.status()).toBe(404);
    expect((await cheater.request.get(`${base}/main/api/v1/admin/flags`)).status()).toBe(404);

    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await signUp(context, `boss${uniq}`, bossEmail);
    // Without mail anyone may sign up with any address: ADMIN_EMAILS alone makes no operator here.
    expect((await page.goto(`${base}/admin`))!.status()).toBe(404);
    await promisify(execFile)(process.execPath, [programPath('admin'), 'grant-operator', '--handle', `boss${uniq}`], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: '' },
    });
    expect((await page.goto(`${base}/admin`, { waitUntil: 'networkidle' }))!.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Console');
    const flags = page.locator('section[aria-labelledby="flags"]');
    for (const signal of ['hours_per_day', 'machines_per_hour', 'exact_interval']) await expect(flags.getByRole('row').filter({ hasText: signal }).count()).resolves.toBe(1);
    const figures = page.locator('section[aria-labelledby="figures"]');
    await expect(figures.textContent()).resolves.toMatch(/Accounts\s*2/);
    await expect(figures.textContent()).resolves.toMatch(/Mail queue\s*0/);
    await expect(figures.textContent()).resolves.toMatch(/Heartbeats today \(UTC\)\s*3Database size\s*\d+\.\d (MiB|GiB)Mail queue\s*0Relay queue\s*0/);
    await expectAccessibleEverywhere(page);

    // One click hides; the notice says so, the queue offers to show again, the log names the operator.
    await flags.getByRole('button', { name: `Hide: bot${uniq}` }).first().click();
    await arrivesAt(page, /\/admin\?notice=hidden$/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('hidden from public boards');
    const audit = page.locator('section[aria-labelledby="audit"]');
    await expect(audit.getByRole('row').nth(1).textContent()).resolves.toMatch(new RegExp(`boss${uniq}hide@bot${uniq}`));
    // The search finds the account, hidden.
    await page.getByLabel('Handle or address contains').fill(`bot${uniq}`);
    await page.getByRole('button', { name: 'Find' }).click();
    await arrivesAt(page, /\/admin\?q=/);
    const accounts = page.locator('section[aria-labelledby="accounts"]');
    await expect(accounts.getByRole('row').nth(1).textContent()).resolves.toMatch(/Hidden \((hours_per_day|machines_per_hour|exact_interval)\)/);
    // Its address, plan, creation, last heartbeat (the last of the three sent now) and flags.
    const today = new Date(now * 1000).toISOString().slice(0, 10);
    const minute = new Date(now * 1000).toISOString().slice(11, 16);
    await expect(accounts.getByRole('row').nth(1).textContent()).resolves.toMatch(new RegExp(`^@bot${uniq}bot${uniq}@example\\.test[\\w-]+${today} \\d\\d:\\d\\d UTC${today} ${minute} UTC[1-9]\\d*Hidden`));

    // The cheater's own dashboard says why, and until when.
    await cheater.goto(`${base}/dashboard`, { waitUntil: 'networkidle' });
    await expect(cheater.getByRole('status').filter({ hasText: 'public leaderboard' }).textContent()).resolves.toMatch(/until they review it\. The reason given: “(hours_per_day|machines_per_hour|exact_interval)”/);

    // Without JavaScript the forms still work: shown again.
    const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
    const ppage = await plain.newPage();
    await ppage.goto(`${base}/admin`, { waitUntil: 'load' });
    await ppage.locator('section[aria-labelledby="flags"]').getByRole('button', { name: `Show again: bot${uniq}` }).first().click();
    await ppage.waitForURL(/\/admin\?notice=shown$/);
    await expect(ppage.locator('section[aria-labelledby="audit"]').getByRole('row').nth(1).textContent()).resolves.toMatch(new RegExp(`boss${uniq}show@bot${uniq}`));
    await plain.close();
    await cheater.goto(`${base}/dashboard`, { waitUntil: 'networkidle' });
    expect(await cheater.getByRole('status').filter({ hasText: 'public leaderboard' }).count()).toBe(0);

    await context.close();
    await cheaterContext.close();
    expect(errors).toEqual([]);
  }, 180_000);
});
