import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, chromiumPath, describeViolation, smallText, stickingOut } from '../helpers/audit';
import { passwordUser } from '../helpers/forms';
import { tokenFrom } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';

// The Goals page as people use it, in Chromium against the production build: each goal's history
// (14 days or 12 weeks, met and missed marked by ✓ and ✗ as well as colour, the numbers as a
// table), setting a goal in a language by any case and being refused one never used, editing a
// goal (ignoring weekends leaves them out of its history), with JavaScript and without; at 1366x900
// and 390x844, light and dark: nothing wider than the screen, no text under 9 px, axe finds nothing.

// A server of its own: the suite's shared one takes ten sign-ups an hour from this machine's address.
let server: TestServer;
let base: string;
const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser checks, but there is no Chromium at ${chromiumPath}`);

const sizes = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
] as const;
const schemes = ['light', 'dark'] as const;
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

let browser: Browser;
let context: BrowserContext;
let page: Page;
let cookie: { name: string; value: string; url: string };

/**
 * Half an hour of Go on every weekday of the last 12 weeks but each fourth one, and an hour on
 * Saturdays. Today's time is in the hour before this one (or this one, just after midnight).
 */
const activities = () => {
  const hour = Math.max(0, new Date().getUTCHours() - 1);
  return Array.from({ length: 84 }, (_, n) => n)
    .filter((n) => weekday(daysAgo(n)) !== 0 && n % 4 !== 1)
    .map((n) => ({ language: 'Go', project_name: 'api', time: weekday(daysAgo(n)) === 6 ? 3600 : 1800, date: daysAgo(n), hour: n === 0 ? hour : 9 }));
};

/** POSTs as the signed-in page does (the session's cookie, same origin). */
const inPage = (path: string, body: unknown) =>
  page.evaluate(
    async ([p, b]) => {
      const res = await fetch(`/main/api/v1${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      return { status: res.status, body: await res.json() };
    },
    [path, body] as const,
  );

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer({ ADMIN_TOKEN: 'goals-admin-token-0123456789' });
  base = server.baseUrl;
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  const signedIn = await passwordUser(base);
  const eq = signedIn.cookie.indexOf('=');
  cookie = { name: signedIn.cookie.slice(0, eq), value: signedIn.cookie.slice(eq + 1), url: base };
  context = await browser.newContext();
  await context.addCookies([cookie]);
  page = await context.newPage();
  const token = await tokenFrom(page, base, 'goals');
  const res = await fetch(`${base}/main/api/v1/sync/activities`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ activities: activities() }),
  });
  expect(res.status).toBe(200);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  server?.remove();
});

/** A goal's card: its history's columns, the marks under them, and its table's rows (Day or Week, Time, Goal). */
async function historyOf(id: string) {
  const card = page.locator(`section[aria-labelledby="goal-${id}"]`);
  return {
    columns: await card.locator('svg.bars-columns rect').count(),
    marks: (await card.locator('.goal-marks span').allTextContents()).join(''),
    rows: await card.locator('details table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim()))),
  };
}

describe.skipIf(!hasChromium)('the Goals page', () => {
  let daily: string;
  let weekly: string;

  it('sets a goal in a language by any case, and refuses one the coder has no time in, under its field', async () => {
    await page.goto(`${base}/dashboard/goals`, { waitUntil: 'networkidle' });
    const set = page.getByRole('form', { name: 'Set a goal' });
    await set.getByLabel('Hours', { exact: true }).fill('0');
    await set.getByLabel('Minutes', { exact: true }).fill('30');
    await set.getByLabel('Only in this language (optional)').fill('Cobol');
    await set.getByRole('button', { name: 'Set goal' }).click();
    await expect(page.locator('#f-language-error').textContent()).resolves.toBe('language: you have no time in this language yet');
    await set.getByLabel('Only in this language (optional)').fill('go');
    await set.getByRole('button', { name: 'Set goal' }).click();
    await page.getByRole('cell', { name: 'Code 30 mins per day in Go', exact: true }).waitFor();
    const made = await inPage('/me/goals', { period: 'week', seconds: 4 * 3600, title: 'Four hours a week' });
    expect(made.status).toBe(201);
    weekly = made.body.id;
    await page.goto(`${base}/dashboard/goals`, { waitUntil: 'networkidle' });
    daily = (await page.locator('section[aria-labelledby^="goal-"]').first().getAttribute('aria-labelledby'))!.slice('goal-'.length);
    expect(daily).not.toBe(weekly);
  });

  it('shows each goal\'s history: 14 days or 12 weeks, met and missed marked and told in its table', async () => {
    const day = await historyOf(daily);
    expect([day.columns, day.rows.length, [...day.marks].length]).toEqual([14, 14, 14]);
    // Sundays and each fourth day have no time: missed, as the marks and the table say.
    for (const [i, [, time, result]] of day.rows.entries()) {
      const date = daysAgo(13 - i);
      const met = weekday(date) !== 0 && (13 - i) % 4 !== 1;
      expect([date, time, result]).toEqual([date, met ? (weekday(date) === 6 ? '1 hr' : '30 mins') : '0 mins', met ? 'met' : i === 13 ? 'not met yet' : 'missed']);
      expect([date, [...day.marks][i]]).toEqual([date, met ? '✓' : i === 13 ? '…' : '✗']);
    }
    const week = await historyOf(weekly);
    expect([week.columns, week.rows.length]).toEqual([12, 12]);
    expect(week.rows[0][0]).toMatch(/^Week of \d{4}-\d{2}-\d{2}$/);
  });

  it('edits a goal with the form: ignoring weekends leaves them out of its history', async () => {
    await page.goto(`${base}/dashboard/goals`, { waitUntil: 'networkidle' });
    const card = page.locator(`section[aria-labelledby="goal-${daily}"]`);
    await card.getByText('Edit this goal').click();
    const form = card.getByRole('form');
    await form.getByLabel('Minutes', { exact: true }).fill('45');
    await form.getByLabel(/Ignore weekends/).check();
    await form.getByLabel('Title (optional)').fill('Weekday Go');
    await form.getByRole('button', { name: 'Save goal' }).click();
    await page.getByRole('cell', { name: 'Weekday Go', exact: true }).waitFor();
    await page.reload({ waitUntil: 'networkidle' });
    const edited = await historyOf(daily);
    // Two weeks hold four weekend days.
    expect([edited.columns, edited.rows.length]).toEqual([10, 10]);
    for (const [name] of edited.rows) expect(name).toMatch(/^(Mon|Tue|Wed|Thu|Fri) /);
    // 45 minutes a day: no weekday's half hour meets it.
    expect(edited.rows.map(([, , result]) => result).filter((r) => r === 'met')).toEqual([]);
    // A too-short time is refused under its field, naming the rule.
    await card.getByText('Edit this goal').click();
    await card.getByLabel('Hours', { exact: true }).fill('0');
    await card.getByLabel('Minutes', { exact: true }).fill('0');
    await card.getByRole('button', { name: 'Save goal' }).click();
    await expect(card.locator(`#edit-${daily}-minutes-error`).textContent()).resolves.toMatch(/at least 1 minute/);
  });

  it('edits a goal without JavaScript too', async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false });
    await plain.addCookies([cookie]);
    const tab = await plain.newPage();
    await tab.goto(`${base}/dashboard/goals`);
    const card = tab.locator(`section[aria-labelledby="goal-${weekly}"]`);
    await card.getByText('Edit this goal').click();
    await card.getByLabel('Hours', { exact: true }).fill('5');
    await card.getByLabel('Title (optional)').fill('Five hours a week');
    await Promise.all([tab.waitForNavigation(), card.getByRole('button', { name: 'Save goal' }).click()]);
    await tab.goto(`${base}/dashboard/goals`);
    await expect(tab.getByRole('cell', { name: 'Five hours a week', exact: true }).count()).resolves.toBe(1);
    await expect(tab.locator(`section[aria-labelledby="goal-${weekly}"] figcaption`).textContent()).resolves.toMatch(/the goal \(5 hrs\)/);
    await plain.close();
  });

  it('fits a phone and a wide screen, light and dark: nothing wider than the screen, no text under 9 px, axe finds nothing', async () => {
    for (const size of sizes)
      for (const scheme of schemes) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${base}/dashboard/goals`, { waitUntil: 'networkidle' });
        // The tables and an edit form open: what a reader opens is checked too.
        for (const summary of await page.locator('section[aria-labelledby^="goal-"] details > summary').all()) await summary.click();
        const view = `/dashboard/goals at ${size.width} px, ${scheme}`;
        expect([view, await stickingOut(page)]).toEqual([view, []]);
        expect([view, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([view, size.width]);
        expect([view, await smallText(page)]).toEqual([view, []]);
        expect([view, (await axe(page)).violations.map(describeViolation)]).toEqual([view, []]);
      }
  });
});
