import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, chromiumPath, describeViolation, smallText, stickingOut } from '../helpers/audit';
import { passwordUser } from '../helpers/forms';
import { tokenFrom } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';

// The charts as people read them, in Chromium against the production build, at 1366x900 and
// 390x844, light and dark: the dates under the per-day chart each under its column and none over
// another at 7, 30 and 365 days; a one-day range as a bar across the card; the Timeline, the
// public profile's "When in the week" and "Weekly trend", and the README guide no wider than the
// screen, with no text under 9 px; and axe finds nothing on them.

// A server of its own: the suite's shared one takes ten sign-ups an hour from this machine's
// address, and its other files use them.
const adminToken = 'charts-admin-token-0123456789';
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
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

let browser: Browser;
let context: BrowserContext;
let page: Page;
let publicHandle: string;

async function sync(token: string, activities: unknown[]) {
  const res = await fetch(`${api}/sync/activities`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ activities }) });
  expect(res.status).toBe(200);
}

/**
 * Three projects on most days of the last year, some hours each: every range has columns to label.
 * Today's two are in the hour before this one (or this one, just after midnight), never ahead of now.
 */
const history = () => {
  const now = Math.max(0, new Date().getUTCHours() - 1);
  return Array.from({ length: 365 }, (_, n) => n)
    .filter((n) => n % 5 !== 3)
    .flatMap((n) => [
      { language: 'TypeScript', time: 1800 + (n % 7) * 300, date: daysAgo(n), hour: n === 0 ? now : 9, project_name: 'android-wallpaper-studio' },
      { language: 'Go', time: 900, date: daysAgo(n), hour: n === 0 ? now : 11, project_name: 'api' },
      ...(n % 2 ? [{ language: 'Rust', time: 600, date: daysAgo(n), hour: 15, project_name: 'engine' }] : []),
    ]);
};

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer({ ADMIN_TOKEN: adminToken });
  base = server.baseUrl;
  api = `${base}/main/api/v1`;
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  // The signed-in coder: a session from the sign-up form, a key from the settings page.
  const { cookie } = await passwordUser(base);
  const eq = cookie.indexOf('=');
  context = await browser.newContext();
  await context.addCookies([{ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: base }]);
  page = await context.newPage();
  await sync(await tokenFrom(page, base, 'charts'), history());
  // A public profile with a year of time.
  publicHandle = `ch${Math.random().toString(36).slice(2, 10)}`;
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
async function everyView(path: string, check: (view: { width: number; scheme: string }) => Promise<void>, on: Page = page) {
  for (const size of sizes)
    for (const scheme of schemes) {
      await on.setViewportSize(size);
      await on.emulateMedia({ colorScheme: scheme });
      await on.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      const view = `${path} at ${size.width} px, ${scheme}`;
      expect([view, await stickingOut(on)]).toEqual([view, []]);
      expect([view, await on.evaluate(() => document.documentElement.scrollWidth)]).toEqual([view, size.width]);
      expect([view, await smallText(on)]).toEqual([view, []]);
      await check({ width: size.width, scheme });
      expect([view, (await axe(on)).violations.map(describeViolation)]).toEqual([view, []]);
    }
}

/** The labels under a chart that show: their boxes, left to right, and the box of the row they sit in. */
async function shownLabels(on: Page, card: string) {
  return on.locator(`section[aria-labelledby="${card}"] .bars-labels`).evaluate((row) => ({
    row: row.getBoundingClientRect().toJSON() as DOMRect,
    labels: [...row.querySelectorAll('span')]
      .filter((s) => getComputedStyle(s).display !== 'none')
      .map((s) => ({ text: s.textContent!, ...(s.getBoundingClientRect().toJSON() as DOMRect) }))
      .sort((a, b) => a.left - b.left),
  }));
}

describe.skipIf(!hasChromium)('charts that read', () => {
  for (const range of ['7d', '30d', '365d'] as const)
    it(`Breakdowns' "Every day" labels its days under their columns, none over another, over ${range}`, async () => {
      await everyView(`/dashboard/breakdowns?range=${range}`, async ({ width }) => {
        const { row, labels } = await shownLabels(page, 'bd-daily');
        const columns = await page.locator('section[aria-labelledby="bd-daily"] svg.bars-columns').evaluate((svg) => {
          const box = svg.getBoundingClientRect();
          return { left: box.left, width: box.width, count: Number(svg.getAttribute('viewBox')!.split(' ')[2]) / 10 };
        });
        expect(columns.count).toBe({ '7d': 7, '30d': 30, '365d': 365 }[range]);
        expect(labels.length).toBeGreaterThan(1);
        for (const [i, l] of labels.entries()) {
          expect([width, l.text, l.left >= row.left - 0.5, l.right <= row.right + 0.5]).toEqual([width, l.text, true, true]);
          if (i > 0) expect([width, labels[i - 1].text, l.text, l.left >= labels[i - 1].right]).toEqual([width, labels[i - 1].text, l.text, true]);
        }
        // Each label is over its column: a 7-day chart names its last column's date, today, under today's column.
        if (range === '7d') {
          const today = labels.at(-1)!;
          const slot = columns.width / columns.count;
          expect(today.text).toBe(`${new Date().toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${new Date().getUTCDate()}`);
          expect(today.left).toBeLessThanOrEqual(columns.left + columns.width - slot / 2);
          expect(today.right).toBeGreaterThanOrEqual(columns.left + columns.width - slot / 2);
        }
      });
    });

  it('a one-day range is a bar across the card, split by project, not one fat column', async () => {
    await everyView('/dashboard/breakdowns?range=today', async ({ width }) => {
      const card = page.locator('section[aria-labelledby="bd-daily"]');
      expect(await card.locator('svg.bars-columns').count()).toBe(0);
      const bar = (await card.locator('svg.one-day-bar').boundingBox())!;
      const box = (await card.boundingBox())!;
      expect([width, bar.width > box.width * 0.8, await card.locator('svg.one-day-bar rect').count()]).toEqual([width, true, 2]);
    });
  });

  it('the Timeline fits a phone, its names and hours in the page\'s own text', async () => {
    await everyView('/dashboard/timeline', async ({ width }) => {
      const names = await page.locator('.tl-name').allTextContents();
      expect(names).toContain('android-wallpaper-studio'); // whole, not cut
      const hours = await page.locator('.tl-hours span').evaluateAll((spans) =>
        spans.filter((s) => getComputedStyle(s).display !== 'none').map((s) => s.getBoundingClientRect().toJSON() as DOMRect),
      );
      expect(hours.length).toBe(width === 390 ? 4 : 8);
      for (let i = 1; i < hours.length; i++) expect(hours[i].left).toBeGreaterThanOrEqual(hours[i - 1].right);
    });
  });

  it('the public profile\'s "When in the week" and "Weekly trend" fit a phone\'s card, their text 9 px or more', async () => {
    const visitor = await browser.newPage();
    await everyView(
      `/u/${publicHandle}`,
      async ({ width }) => {
        for (const card of ['week-hours', 'weekly']) {
          const drawn = await visitor.locator(`section[aria-labelledby="${card}"]`).evaluate(async (section) => {
            const img = section.querySelector('img')!;
            const svg = await (await fetch(img.currentSrc || img.src)).text();
            const box = img.getBoundingClientRect();
            const inner = section.getBoundingClientRect();
            return { drawn: box.width, right: box.right, card: inner.right, natural: Number(/width="(\d+)"/.exec(svg)![1]), text: Number(/font-size:(\d+)px/.exec(svg)![1]) };
          });
          expect([width, card, drawn.right <= drawn.card, (drawn.text * drawn.drawn) / drawn.natural >= 9]).toEqual([width, card, true, true]);
        }
      },
      visitor,
    );
    await visitor.close();
  });

  it('the README guide is no wider than a phone', async () => {
    const visitor = await browser.newPage();
    await everyView('/docs/readme-cards', async () => {}, visitor);
    await visitor.close();
  });
});
