import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, chromiumPath, describeViolation, smallText, stickingOut } from '../helpers/audit';
import { passwordUser } from '../helpers/forms';
import { tokenFrom } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';

// The year in code as people read it, in Chromium against the production build, at 1366x900 and
// 390x844, light and dark: the owner's /dashboard/year/{year} (offered on Insights) and a public
// profile's /u/{handle}/year/{year}, nothing wider than the screen, no text under 9 px, axe
// finding nothing; the public page showing no project and unfurling to its 1200x630 card.png; a
// private profile's year a 404.

// A server of its own: the suite's shared one takes ten sign-ups an hour from this machine's address.
const adminToken = 'year-admin-token-0123456789';
let server: TestServer;
let base: string;
let api: string;
const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser checks, but there is no Chromium at ${chromiumPath}`);

const sizes = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
] as const;
const schemes = ['light', 'dark'] as const;
const year = new Date().getUTCFullYear() - 1;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let ownHandle: string;
let publicHandle: string;

async function sync(token: string, activities: unknown[]) {
  const res = await fetch(`${api}/sync/activities`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ activities }) });
  expect(res.status).toBe(200);
}

/** Most days of last year, two projects with long names, some AI-assisted time. */
const history = () =>
  Array.from({ length: 365 }, (_, n) => new Date(Date.UTC(year, 0, 1 + n)).toISOString().slice(0, 10))
    .filter((date, n) => date.startsWith(String(year)) && n % 4 !== 2)
    .flatMap((date, n) => [
      { language: 'TypeScript', time: 1800 + (n % 7) * 300, date, hour: 9 + (n % 3), project_name: 'android-wallpaper-studio-with-a-long-name', ide_name: 'vscode' },
      { language: 'Go', time: 900, date, hour: 14, project_name: 'secret-client-project', ide_name: 'vim', ...(n % 5 === 0 ? { ai_agent: 'Claude', ai_lines: 12 } : {}) },
    ]);

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer({ ADMIN_TOKEN: adminToken });
  base = server.baseUrl;
  api = `${base}/main/api/v1`;
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  // The signed-in coder (a private profile): a session from the sign-up form, a key from the settings page.
  const { cookie, email } = await passwordUser(base);
  ownHandle = email.split('@')[0];
  const eq = cookie.indexOf('=');
  context = await browser.newContext();
  await context.addCookies([{ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: base }]);
  page = await context.newPage();
  await sync(await tokenFrom(page, base, 'year'), history());
  // A public profile sharing languages (not editors, not AI) with the same year.
  publicHandle = `yr${Math.random().toString(36).slice(2, 10)}`;
  const made = await fetch(`${api}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle: publicHandle, token: { format: 'uuid' }, settings: { profile_public: true, share_languages: true } }),
  });
  expect(made.status).toBe(201);
  await sync(((await made.json()) as { token: string }).token, history());
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  server?.remove();
});

/** Each view of `path` at both sizes in both colour schemes, checked by `check` and by axe. */
async function everyView(on: Page, path: string, check: () => Promise<void>) {
  for (const size of sizes)
    for (const scheme of schemes) {
      await on.setViewportSize(size);
      await on.emulateMedia({ colorScheme: scheme });
      const res = await on.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      const view = `${path} at ${size.width} px, ${scheme}`;
      expect([view, res?.status()]).toEqual([view, 200]);
      expect([view, await stickingOut(on)]).toEqual([view, []]);
      expect([view, await on.evaluate(() => document.documentElement.scrollWidth)]).toEqual([view, size.width]);
      expect([view, await smallText(on)]).toEqual([view, []]);
      await check();
      expect([view, (await axe(on)).violations.map(describeViolation)]).toEqual([view, []]);
    }
}

describe.skipIf(!hasChromium)('the year in code', () => {
  it('is offered on Insights and drawn on the dashboard, every part the owner has', async () => {
    await page.goto(`${base}/dashboard/insights`, { waitUntil: 'networkidle' });
    await expect(page.getByRole('navigation', { name: 'Your year in code' }).getByRole('link', { name: String(year) }).getAttribute('href')).resolves.toBe(`/dashboard/year/${year}`);
    await everyView(page, `/dashboard/year/${year}`, async () => {
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`Your year in code ${year}`);
      for (const card of ['Month by month', 'By weekday', 'Top languages', 'Top editors', 'Top projects', 'Top categories', 'AI-assisted coding']) {
        expect([card, await page.getByRole('heading', { name: card, exact: true }).count()]).toEqual([card, 1]);
      }
      // The months' numbers as text, beside the columns.
      expect(await page.getByRole('table', { name: `Time per month, ${year}`, includeHidden: true }).count()).toBe(1);
      expect(await page.getByText('secret-client-project').count()).toBeGreaterThan(0);
      expect(await page.getByText('Your profile is private').count()).toBe(1);
    });
  });

  it('shows a public profile only what it shares, never projects, and unfurls to its 1200 x 630 card', async () => {
    const visitor = await browser.newPage();
    try {
      await everyView(visitor, `/u/${publicHandle}/year/${year}`, async () => {
        const text = await visitor.locator('main').textContent();
        expect(text).toContain('TypeScript');
        for (const hidden of ['secret-client-project', 'android-wallpaper-studio', 'Top projects', 'AI-assisted coding', 'VS Code']) expect([hidden, text!.includes(hidden)]).toEqual([hidden, false]);
        expect(text).toContain('keeps their editors private');
      });
      const image = await visitor.locator('meta[property="og:image"]').getAttribute('content');
      expect(new URL(image!).pathname).toBe(`/u/${publicHandle}/year/${year}/card.png`);
    } finally {
      await visitor.close();
    }
    const card = await fetch(`${base}/u/${publicHandle}/year/${year}/card.png`);
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await card.arrayBuffer());
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  it("answers a private profile's year, and its card, 404 like an unknown user's", async () => {
    for (const handle of [ownHandle, 'nobody-by-this-name']) {
      expect([handle, (await fetch(`${base}/u/${handle}/year/${year}`)).status]).toEqual([handle, 404]);
      expect([handle, (await fetch(`${base}/u/${handle}/year/${year}/card.png`)).status]).toEqual([handle, 404]);
    }
  });
});
