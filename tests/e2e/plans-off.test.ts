import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, chromiumFlags, chromiumPath, describeViolation, pageWidth, stickingOut } from '../helpers/audit';
import { passwordUser } from '../helpers/forms';
import { startTestServer, type TestServer } from '../helpers/server';
import { until } from '../helpers/until';

// Plans are the operator's choice. A default install (a server of its own here, nothing set but
// the admin token) holds nothing back: an account with two years of history sees all of it, and
// /pricing shows no price. The suite's server sells plans (PLANS=on, tests/setup/global-server.ts):
// there, a view that hides days says so and links to where the plan is seen. In Chromium at a
// desktop's and a phone's width, light and dark, with axe on every page.

const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser checks, but there is no Chromium at ${chromiumPath}`);

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const twoYearsAgo = days(-700);
const lastYear = days(-500);
const recent = days(-3);

/** An account made through the sign-up form, with a sync token and its history: an hour on `old`, half an hour three days ago. */
async function accountWithHistory(base: string, old: string) {
  const { cookie } = await passwordUser(base);
  const made = await fetch(`${base}/main/api/v1/me/tokens`, {
    method: 'POST',
    headers: { cookie, origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'laptop', scopes: ['sync'] }),
  });
  expect(made.status).toBe(201);
  const { token } = (await made.json()) as { token: string };
  const activities = [
    { date: old, hour: 10, language: 'Go', project_name: 'ancient', time: 3600 },
    { date: recent, hour: 10, language: 'Rust', project_name: 'fresh', time: 1800 },
  ];
  const sent = await fetch(`${base}/main/api/v1/sync/activities`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ activities }),
  });
  expect(sent.status).toBe(200);
  const session = cookie.split('; ').map((c) => {
    const [name, ...value] = c.split('=');
    return { name, value: value.join('='), url: base };
  });
  return { cookie, session };
}

const looks = [
  { name: 'desktop, light', viewport: { width: 1366, height: 900 }, colorScheme: 'light' as const },
  { name: 'desktop, dark', viewport: { width: 1366, height: 900 }, colorScheme: 'dark' as const },
  { name: 'phone, light', viewport: { width: 390, height: 844 }, colorScheme: 'light' as const, isMobile: true },
  { name: 'phone, dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' as const, isMobile: true },
];

/** The page fits its width and axe finds nothing. */
async function fitsAndPasses(page: Page, what: string) {
  const width = page.viewportSize()!.width;
  expect([what, await pageWidth(page), await stickingOut(page)]).toEqual([what, width, []]);
  const { violations } = await axe(page);
  expect([what, violations.map(describeViolation)]).toEqual([what, []]);
}

const mainText = (page: Page) => page.locator('main').innerText();

describe('a default install (no PLANS set)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: 'plans-off-admin-token-0123456789' });
  });
  afterAll(async () => {
    await server?.stop();
    server?.remove();
  });

  it('says at start that plans are off, and lists what it offers in the plan list\'s shape', async () => {
    await until(async () => server.output(), (out) => /plans are off: every account sees all of its history/.test(out), 'the plans line at start');
    const { plans } = (await (await fetch(`${server.baseUrl}/main/api/v1/get/list/plans`)).json()) as { plans: { id: string; price: { amount: number }; limits: Record<string, number | null> }[] };
    expect(plans.map((p) => [p.id, p.price.amount, p.limits.history_days])).toEqual([['self-hosted', 0, null]]);
    const html = await (await fetch(`${server.baseUrl}/pricing`)).text();
    expect(html).not.toMatch(/\$9|\$19|Choose Pro|Choose Team/);
  });

  describe.skipIf(!hasChromium)('in a browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    });
    afterAll(() => browser?.close());

    it('an account with two years of history sees all of it, is told of no plan, and /pricing shows no price', async () => {
      const { session } = await accountWithHistory(server.baseUrl, twoYearsAgo);
      for (const look of looks) {
        const context = await browser.newContext(look);
        await context.addCookies(session);
        const page = await context.newPage();

        await page.goto(`${server.baseUrl}/dashboard?range=all`, { waitUntil: 'networkidle' });
        // All time starts on the first day with data, two years ago; no word of a plan's window.
        await expect(mainText(page)).resolves.toContain(`${twoYearsAgo} to `);
        expect(await page.getByTestId('history-note').count()).toBe(0);
        await fitsAndPasses(page, `${look.name}: the dashboard, all time`);

        await page.goto(`${server.baseUrl}/dashboard/settings/account`, { waitUntil: 'networkidle' });
        await expect(page.getByTestId('no-plan-limits').innerText()).resolves.toMatch(/no plan limits: you see all of your history/);
        await expect(mainText(page)).resolves.not.toMatch(/Free plan|Compare plans/);
        await fitsAndPasses(page, `${look.name}: Settings, Account`);

        await page.goto(`${server.baseUrl}/pricing`, { waitUntil: 'networkidle' });
        const pricing = await mainText(page);
        expect(pricing).toMatch(/Everything, for everyone/);
        expect(pricing).toMatch(/Unlimited history/);
        expect(pricing).not.toMatch(/\$\d|Choose |\/ month/);
        await fitsAndPasses(page, `${look.name}: /pricing`);
        await context.close();
      }
    });
  });
});

describe.skipIf(!hasChromium)('an install that sells plans (PLANS=on), in a browser', () => {
  // A server of its own: the suite's shared one takes ten sign-ups an hour from this machine's
  // address, and its other files use them.
  let server: TestServer;
  let base: string;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer({ PLANS: 'on' });
    base = server.baseUrl;
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    server?.remove();
  });

  it('a Free account is told its plan hides older days, with a link to where the plan is seen; /pricing lists the plans', async () => {
    const { session } = await accountWithHistory(base, lastYear);
    for (const look of looks) {
      const context = await browser.newContext(look);
      await context.addCookies(session);
      const page = await context.newPage();
      await page.goto(`${base}/dashboard?range=all`, { waitUntil: 'networkidle' });
      const note = page.getByTestId('history-note');
      await expect(note.innerText()).resolves.toMatch(new RegExp(`^Your plan shows your history from ${days(-364)} on\\.`));
      await expect(note.innerText()).resolves.not.toMatch(/below on the dashboard/);
      await fitsAndPasses(page, `${look.name}: the dashboard, all time`);
      await note.getByRole('link', { name: 'Your plan, in Settings' }).click();
      await page.waitForURL(/\/dashboard\/settings\/account#plan$/);
      await expect(mainText(page)).resolves.toMatch(/You are on the Free plan/);

      await page.goto(`${base}/pricing`, { waitUntil: 'networkidle' });
      const pricing = await mainText(page);
      expect(pricing).toMatch(/\$9/);
      expect(pricing).toMatch(/Choose Pro/);
      await fitsAndPasses(page, `${look.name}: /pricing`);
      await context.close();
    }
  });
});
