import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axe, describeViolation, pageWidth } from '../helpers/audit';
import { arrivesAt, expectAccessibleEverywhere, signUpAt, tokenFrom, watchErrors } from '../helpers/pages';

// The dashboard a returning user sees, and the way in, in Chromium against `next start`: signing
// up signs in; the home page shows the lines of ~/.wakatime.cfg; "Make a key" still shows its key
// once the first activity has arrived; revoking asks first; the charts fit their cards on a wide
// screen and on a phone; a range the dashboard cannot show is said; the leaderboard's language is
// a choice matched in any case.

const base = inject('baseUrl');
const api = `${base}/main/api/v1`;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser checks, but there is no Chromium at ${chromiumPath}`);
const password = 'a long enough password';
const today = new Date().toISOString().slice(0, 10);
const longName = 'A language whose name is far too long to fit in a card here';

let browser: Browser;
const errors: string[] = [];
// One account for the file, signed up by the first test: sign-ups are limited per client address
// (10 an hour), and the suite's other files sign up too.
let context: BrowserContext;
let page: Page;

const watch = watchErrors(errors);

/** Signs up in the browser; the sign-up itself signs in and lands on the dashboard's welcome. */
async function signUp(context: BrowserContext): Promise<{ page: Page; handle: string }> {
  const page = watch(await context.newPage());
  const handle = `db${Math.random().toString(36).slice(2, 9)}`;
  await signUpAt(page, base, { handle, password });
  return { page, handle };
}

async function sync(token: string, activities: unknown[]) {
  const res = await fetch(`${api}/sync/activities`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ activities }),
  });
  return res.status;
}

async function heartbeats(key: string, language: string) {
  const now = Math.floor(Date.now() / 1000);
  const res = await fetch(`${base}/api/wakatime/v1/users/current/heartbeats.bulk`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json', 'user-agent': 'wakatime/v1.98.0 (linux-6.5.0) go1.22.1 vim/9.1 vim-wakatime/11.0.0' },
    body: JSON.stringify([120, 60, 0].map((s) => ({ entity: '/home/me/proj/main.go', time: now - s, language, project: 'proj' }))),
  });
  return res.status;
}

type Box = { x: number; y: number; width: number; height: number };
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe.skipIf(!hasChromium)('the dashboard and the way in', () => {
  it('the home page names WakaTime and shows the lines of ~/.wakatime.cfg with this site\'s address', async () => {
    const visitor = await browser.newContext();
    const page = watch(await visitor.newPage());
    await page.goto(`${base}/`, { waitUntil: 'networkidle' });
    await expect(page.locator('.lead').textContent()).resolves.toMatch(/WakaTime plugin/);
    const cfg = (await page.getByTestId('home-wakatime-cfg').textContent())!;
    expect(cfg.split('\n')).toEqual(['[settings]', `api_url = ${base}/api/wakatime/v1`, 'api_key = <your key>']);
    // The same page for everyone: the header offers signing in to a visitor.
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    await visitor.close();
  });

  it('signing up signs in: the dashboard\'s welcome, and a header with Dashboard and Sign out, with and without JavaScript', async () => {
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    ({ page } = await signUp(context));
    await expect(page.locator('.notice').first().textContent()).resolves.toMatch(/Your account is ready/);
    const header = async (p: Page) => {
      const nav = p.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Sign out' }).waitFor();
      return [await nav.getByRole('link', { name: 'Dashboard' }).isVisible(), await nav.getByRole('link', { name: 'Sign in' }).isVisible()];
    };
    expect(await header(page)).toEqual([true, false]);
    // Without JavaScript, the same session: the dashboard (rendered for its user) says so by itself.
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    await noScript.addCookies(await context.cookies());
    const plain = watch(await noScript.newPage());
    await plain.goto(`${base}/dashboard`);
    expect(await header(plain)).toEqual([true, false]);
    await noScript.close();
  });

  it('"Make a key" shows a new key after the first activity arrived, and names it apart from the first', async () => {
    await page.goto(`${base}/dashboard`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    const keyOf = async () => /api_key = ([0-9a-f-]{36})/.exec((await page.getByTestId('wakatime-cfg-text').textContent())!)![1];
    await page.getByRole('button', { name: 'Make a key for my editor' }).click();
    await page.getByTestId('wakatime-cfg-text').waitFor();
    const first = await keyOf();
    expect(await heartbeats(first, 'Go')).toBe(201);
    await expect.poll(() => page.getByTestId('first-activity').textContent(), { timeout: 20_000 }).toMatch(/Your first activity arrived: Go/);
    // The dashboard now has activity: making a key turns it into the figures, and the key is shown.
    await page.getByRole('button', { name: 'Make a key for my editor' }).click();
    await expect.poll(async () => (await page.getByTestId('wakatime-cfg-text').count()) > 0 && (await keyOf()) !== first, { timeout: 20_000 }).toBe(true);
    const second = await keyOf();
    await expect(page.getByText(/Key "WakaTime plugins \(2\)" created/).count()).resolves.toBe(1);
    await page.getByRole('heading', { name: 'Your activity' }).waitFor();
    expect(await heartbeats(second, 'Go')).toBe(201);
    // Once more, on the figures: still shown.
    await page.getByRole('button', { name: 'Make a key for my editor' }).click();
    await expect.poll(async () => keyOf(), { timeout: 20_000 }).not.toBe(second);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Settings' }).click();
    await arrivesAt(page, /\/dashboard\/settings$/);
    const tokens = (await page.getByRole('table', { name: 'Your tokens' }).textContent())!;
    for (const name of ['WakaTime plugins', 'WakaTime plugins (2)', 'WakaTime plugins (3)']) expect(tokens).toContain(name);
  });

  it('a first lone heartbeat, which counts no time until the next, is signed at once', async () => {
    const { page: tab } = await signUp(await browser.newContext());
    await tab.getByRole('button', { name: 'Make a key for my editor' }).click();
    const key = /api_key = ([0-9a-f-]{36})/.exec((await tab.getByTestId('wakatime-cfg-text').textContent())!)![1];
    const res = await fetch(`${base}/api/wakatime/v1/users/current/heartbeats`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json', 'user-agent': 'wakatime/v1.98.0 (linux-6.5.0) go1.22.1 vim/9.1 vim-wakatime/11.0.0' },
      body: JSON.stringify({ entity: '/home/me/proj/lib.rs', time: Date.now() / 1000, language: 'Rust', project: 'proj' }),
    });
    expect(res.status).toBe(201);
    await expect.poll(() => tab.getByTestId('first-activity').textContent(), { timeout: 20_000 }).toMatch(/Your first activity arrived: Rust/);
    await tab.context().close();
  });

  it('revoking a token asks first, and only the second step revokes it', async () => {
    const token = await tokenFrom(page, base, 'spare');
    expect(await sync(token, [{ language: 'Go', time: 60, date: today, hour: 1 }])).toBe(200);
    await page.goto(`${base}/dashboard/settings`, { waitUntil: 'networkidle' });
    const confirm = page.getByRole('button', { name: 'Yes, revoke token spare' });
    expect(await confirm.isVisible()).toBe(false);
    await page.locator('summary[aria-label="Revoke token spare…"]').click();
    await expect(page.getByText(/“spare” stop sending at once/).isVisible()).resolves.toBe(true);
    expect(await sync(token, [{ language: 'Go', time: 60, date: today, hour: 2 }])).toBe(200); // asking revoked nothing
    await confirm.click();
    await expect.poll(() => sync(token, [{ language: 'Go', time: 60, date: today, hour: 3 }]), { timeout: 20_000 }).toBe(401);
    await expect.poll(async () => page.getByRole('table', { name: 'Your tokens' }).textContent(), { timeout: 20_000 }).toMatch(/revoked/);
  });

  it('the year\'s chart and the languages fit their cards at 1366 and 390 px; names, times and shares all show', async () => {
    await page.goto(`${base}/dashboard`, { waitUntil: 'networkidle' });
    const token = await tokenFrom(page, base, 'charts');
    const days = [0, 1, 2, 40, 100, 200, 300, 360].map((n) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10));
    const activities = days.flatMap((date, i) => [
      { language: 'TypeScript', time: 1800 + i * 60, date, hour: 9, project_name: 'site' },
      { language: longName, time: 600, date, hour: 10, project_name: 'site' },
      { language: 'Go', time: 300, date, hour: 11, project_name: 'api' },
    ]);
    expect(await sync(token, activities)).toBe(200);
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${base}/dashboard?range=365d`, { waitUntil: 'networkidle' });
      expect([width, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([width, width]);
      const card = (await page.locator('section[aria-labelledby="d-daily"]').boundingBox())!;
      const plot = (await page.locator('section[aria-labelledby="d-daily"] svg.bars-columns').boundingBox())!;
      const labels = (await page.locator('section[aria-labelledby="d-daily"] .bars-labels').boundingBox())!;
      expect([width, inside(plot, card), inside(labels, card), plot.width > 100]).toEqual([width, true, true, true]);
      // A year is drawn a column a day, each split by project (as Breakdowns draws it): the 8 days' 2 projects at least, none outside the plot.
      expect(await page.locator('section[aria-labelledby="d-daily"] svg.bars-columns').getAttribute('viewBox')).toBe('0 0 3650 100');
      const bars = await page.locator('section[aria-labelledby="d-daily"] svg.bars-columns rect').evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().toJSON()));
      expect(bars.length).toBeGreaterThanOrEqual(16);
      expect(bars.every((b) => inside(b, plot))).toBe(true);

      const languages = page.locator('section[aria-labelledby="d-langs"]');
      const langCard = (await languages.boundingBox())!;
      for (const row of await languages.locator('tbody tr').all()) {
        const cells = row.locator('td');
        for (const i of [0, 1, 2]) {
          const box = (await cells.nth(i).boundingBox())!;
          expect([width, i, inside(box, langCard), box.width > 0]).toEqual([width, i, true, true]);
        }
        // The time and the share are shown whole, not cut.
        for (const i of [1, 2]) expect(await cells.nth(i).evaluate((c) => c.scrollWidth <= c.clientWidth)).toBe(true);
        await expect(cells.nth(2).textContent()).resolves.toMatch(/^\d+(\.\d)?%$/);
      }
      // The long name is shown whole, wrapped within its cell.
      const name = languages.locator('td.name', { hasText: longName });
      expect(await name.evaluate((e) => [e.textContent, e.scrollWidth <= e.clientWidth])).toEqual([longName, true]);
    }
    // All time is accepted too (a column a day, as long as it is).
    await page.goto(`${base}/dashboard?range=all`, { waitUntil: 'networkidle' });
    await expect(page.getByRole('navigation', { name: 'Range' }).locator('[aria-current="page"]').textContent()).resolves.toBe('All time');
  });

  it('the Breakdowns page shows AI-assisted time by agent, categories and machines, filters by machine, and fits a phone', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${base}/dashboard`, { waitUntil: 'networkidle' });
    const token = await tokenFrom(page, base, 'agents');
    const date = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(
      await sync(token, [
        { language: 'Go', time: 1800, date, hour: 14, project_name: 'agentic', category: 'ai coding', ai_agent: 'Claude', machine: 'desk-e2e', ai_lines: 40 },
        { language: 'Go', time: 600, date, hour: 15, project_name: 'agentic', category: 'debugging', machine: 'laptop-e2e', human_lines: 5 },
      ]),
    ).toBe(200);
    await page.getByRole('link', { name: /^Breakdowns/ }).click();
    await arrivesAt(page, /\/dashboard\/breakdowns/);
    const table = (caption: string) => page.getByRole('table', { name: caption }).textContent();
    await expect(table('Coding time by category')).resolves.toMatch(/AI Coding[\s\S]*Debugging/);
    await expect(table('AI-assisted time by agent')).resolves.toContain('Claude');
    await expect(table('AI-assisted time by project')).resolves.toContain('agentic');
    const machines = await table('Coding time by machine');
    expect([machines?.includes('desk-e2e'), machines?.includes('laptop-e2e')]).toEqual([true, true]);
    await expect(page.getByText('40 added').count()).resolves.toBeGreaterThan(0); // no deletions sent: none shown
    // Only one machine's time: the other is gone from every table.
    await page.getByLabel('Machine', { exact: true }).selectOption('desk-e2e');
    await page.getByRole('form', { name: 'Only the time of one machine or system' }).getByRole('button').click();
    await arrivesAt(page, /machine=desk-e2e/);
    const filtered = await table('Coding time by machine');
    expect([filtered?.includes('desk-e2e'), filtered?.includes('laptop-e2e')]).toEqual([true, false]);
    await expect(table('Coding time by category')).resolves.not.toContain('Debugging');
    // Split each day by category: the stacked chart names it.
    await page.getByRole('link', { name: 'By category' }).click();
    await arrivesAt(page, /by=category/);
    await expect(page.getByRole('navigation', { name: 'Split each day by' }).locator('[aria-current="page"]').textContent()).resolves.toBe('By category');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('shows dates asked with the form, and says why a range cannot be shown, naming the field and the rule', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${base}/dashboard`, { waitUntil: 'networkidle' });
    const from = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(from);
    await page.getByLabel('To', { exact: true }).fill(today);
    await page.getByRole('button', { name: 'Show these dates' }).click();
    await arrivesAt(page, new RegExp(`/dashboard\\?from=${from}&to=${today}$`));
    await expect(page.getByText(`${from} to ${today}`).count()).resolves.toBe(1);
    for (const [query, message] of [
      ['range=14d', /range: must be one of today, 7d, 30d, 90d, 365d, all/],
      [`from=${today}&to=${from}`, /to: must not be before from/],
      ['from=2024-01-01&to=2025-06-01', /to: the span may be at most 366 days/],
      ['from=2025-02-30&to=2025-03-02', /from: must be a real date/],
    ] as const) {
      expect((await page.goto(`${base}/dashboard?${query}`))?.status()).toBe(200);
      await expect(page.getByTestId('range-error').textContent()).resolves.toMatch(message);
    }
  });

  it('offers Today, Yesterday, This week and This month, shows the dates in the pickers, and keeps the range from page to page', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    const day = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    const from30 = day(-29);
    const pickers = async () => [await page.getByLabel('From', { exact: true }).inputValue(), await page.getByLabel('To', { exact: true }).inputValue()];
    await page.goto(`${base}/dashboard?range=30d`);
    expect(await pickers()).toEqual([from30, today]);
    // The range goes along by the tabs to Insights, Breakdowns and Projects, and back; the current tab is marked.
    const tabs = page.getByRole('navigation', { name: 'Dashboard' });
    for (const view of ['Insights', 'Breakdowns', 'Projects']) {
      await page.goto(`${base}/dashboard?range=30d`);
      await tabs.getByRole('link', { name: view }).click();
      await arrivesAt(page, /\/dashboard\/(insights|breakdowns|projects)\?range=30d$/);
      await expect(tabs.locator('[aria-current="page"]').textContent()).resolves.toBe(view);
      if (view !== 'Projects') expect(await pickers()).toEqual([from30, today]);
      await tabs.getByRole('link', { name: 'Overview' }).click();
      await arrivesAt(page, /\/dashboard\?range=30d$/);
    }
    const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
    const presets = [
      ['Today', today, today],
      ['Yesterday', day(-1), day(-1)],
      ['This week', day(-weekday), today],
      ['This month', `${today.slice(0, 8)}01`, today],
    ];
    for (const [label, from, to] of presets) {
      await page.goto(`${base}/dashboard?range=30d`);
      const calendar = page.getByRole('navigation', { name: 'Calendar range' });
      await calendar.getByRole('link', { name: label }).click();
      await arrivesAt(page, new RegExp(`/dashboard\\?from=${from}&to=${to}$`));
      expect([label, ...(await pickers())]).toEqual([label, from, to]);
      await expect(page.getByText(`${from} to ${to}`).count()).resolves.toBe(1);
      // The first preset of these dates is marked (on a Monday This week is Today's dates).
      await expect(calendar.locator('[aria-current="page"]').textContent()).resolves.toBe(presets.find((p) => p[1] === from && p[2] === to)![0]);
    }
  });

  it('one range everywhere: every tab opens on the one chosen, through the views without one too; the same default; one daily average', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    const tabs = page.getByRole('navigation', { name: 'Dashboard' });
    const shown = async () => page.getByRole('navigation', { name: 'Range' }).locator('[aria-current="page"]').textContent();
    // Without a range in the address, every view opens on the same one.
    for (const path of ['/dashboard', '/dashboard/insights', '/dashboard/breakdowns', '/dashboard/projects']) {
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      expect([path, await shown()]).toEqual([path, 'Last 30 days']);
    }
    // A range picked on the overview (7 and 365 days, besides the default) goes along by every
    // tab, through Timeline, Goals, Teams, Leaderboards and Settings, and back to the overview.
    // On a desktop in the light theme, and on a phone in the dark one.
    const ranged = new Set(['Overview', 'Insights', 'Breakdowns', 'Projects']);
    for (const [label, width, colorScheme] of [['Last 30 days', 1366, 'light'], ['Last 7 days', 1366, 'light'], ['Last 365 days', 390, 'dark']] as const) {
      await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
      await page.emulateMedia({ colorScheme });
      await page.goto(`${base}/dashboard?range=all`, { waitUntil: 'networkidle' });
      await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: label }).click();
      await page.waitForLoadState('networkidle');
      expect([label, await shown()]).toEqual([label, label]);
      for (const view of ['Timeline', 'Insights', 'Goals', 'Breakdowns', 'Teams', 'Projects', 'Leaderboards', 'Settings', 'Overview']) {
        await tabs.getByRole('link', { name: view, exact: true }).click();
        await expect.poll(() => tabs.locator('[aria-current="page"]').textContent(), { timeout: 20_000 }).toBe(view);
        await page.waitForLoadState('networkidle');
        if (ranged.has(view)) expect([label, view, await shown(), await pageWidth(page)]).toEqual([label, view, label, width]);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    // One daily average: the overview's and Insights' are the same figure, said the same way, over the days coded.
    const average = async () => page.locator('.figure', { has: page.getByText('a day, on days you coded', { exact: true }) }).locator('strong').textContent();
    for (const range of ['7d', '365d']) {
      await page.goto(`${base}/dashboard?range=${range}`, { waitUntil: 'networkidle' });
      const overview = await average();
      await page.goto(`${base}/dashboard/insights?range=${range}`, { waitUntil: 'networkidle' });
      expect([range, overview]).toEqual([range, await average()]);
    }
    // The views of a fixed period say which, whatever the range.
    await page.goto(`${base}/dashboard?range=7d`, { waitUntil: 'networkidle' });
    await expect(page.getByTestId('fixed-period').allTextContents()).resolves.toEqual([
      'The last 12 weeks, this one so far, whatever the range chosen above.',
      'The last 365 days, whatever the range chosen above.',
      'Over the last 365 days, whatever the range chosen above.',
    ]);
  });

  it('the leaderboard\'s language is a choice of the languages ranked, matched in any case', async () => {
    const made = await fetch(`${api}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ handle: `lb${Math.random().toString(36).slice(2, 9)}`, settings: { leaderboard: true, share_languages: true }, token: { scopes: ['sync'] } }),
    });
    const { user, token } = (await made.json()) as { user: { handle: string }; token: string };
    expect(await sync(token, [{ language: 'OCaml', time: 1200, date: today, hour: 4 }])).toBe(200);
    const visitor = await browser.newContext({ javaScriptEnabled: false });
    const page = watch(await visitor.newPage());
    await page.goto(`${base}/leaderboard?range=7d`);
    const options = await page.locator('select#language option').allTextContents();
    expect(options[0]).toBe('All languages');
    expect(options).toContain('OCaml');
    await page.getByLabel('Language').selectOption('OCaml');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/language=OCaml/);
    await expect(page.locator('main').textContent()).resolves.toContain(`@${user.handle}`);
    await page.goto(`${base}/leaderboard?range=7d&language=ocaml`);
    await expect(page.locator('main').textContent()).resolves.toContain(`@${user.handle}`);
    expect(await page.locator('select#language').inputValue()).toBe('OCaml');
    await visitor.close();
  });

  it('a private leaderboard\'s invite link asks for one click, then shows the board\'s ranking; leaving takes one off it', async () => {
    // Its owner: an account made by the operator, with time today, that makes the board by the API.
    const owner = `lb${Math.random().toString(36).slice(2, 9)}`;
    const made = await fetch(`${api}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ handle: owner, token: { scopes: ['sync', 'account'] } }),
    });
    expect(made.status).toBe(201);
    const { token } = (await made.json()) as { token: string };
    expect(await sync(token, [{ language: 'Go', time: 1800, date: today, hour: 4 }])).toBe(200);
    const asOwner = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${api}/leaderboards`, { method: 'POST', headers: asOwner, body: JSON.stringify({ name: 'Friday club' }) });
    expect(created.status).toBe(201);
    const board = (await created.json()) as { id: string; invite_code: string };

    // Opening the link joins nothing: the signed-in visitor is asked first.
    await page.goto(`${base}/dashboard/leaderboards/join?code=${board.invite_code}`, { waitUntil: 'networkidle' });
    const count = async () => ((await (await fetch(`${api}/leaderboards/${board.id}`, { headers: asOwner })).json()) as { members_count: number }).members_count;
    expect(await count()).toBe(1);
    await page.getByRole('button', { name: 'Join this leaderboard' }).click();
    await arrivesAt(page, new RegExp(`/dashboard/leaderboards/${board.id}$`));
    expect(await count()).toBe(2);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Friday club');
    const ranked = await page.getByRole('table').first().textContent();
    expect(ranked).toContain(owner);
    expect(ranked).toContain('30 mins');
    // The range ends today in the viewer's time zone, as every dashboard page's does.
    const said = (await page.locator('main').textContent()) ?? '';
    const [, to, zone] = /to (\d{4}-\d\d-\d\d), ending today in your time zone \(([^)]+)\)/.exec(said) ?? [];
    expect(to).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date()));

    await page.getByRole('button', { name: 'Leave this leaderboard' }).click();
    await arrivesAt(page, /\/dashboard\/leaderboards$/);
    expect(await count()).toBe(1);
    expect(await page.locator('main').textContent()).not.toContain('Friday club');
  });

  it('the dashboard after signing up and a team made with the form name the address the visitor used, and the weekly report cannot be asked of a server without mail', async () => {
    const { page: tab } = await signUp(await browser.newContext());
    // The dashboard a sign-up's redirect rendered: its snippets name the address in the address bar.
    await tab.waitForLoadState('networkidle');
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:/);
    await tab.getByRole('button', { name: 'Make a key for my editor' }).click();
    await tab.getByTestId('wakatime-cfg-text').waitFor();
    const snippets = await tab.locator('pre').allTextContents();
    expect(snippets.filter((t) => t.includes(base)).length).toBeGreaterThan(0);
    expect(snippets.filter((t) => t.includes('localhost'))).toEqual([]);
    await tab.goto(`${base}/dashboard/teams`, { waitUntil: 'networkidle' });
    await tab.getByLabel('Name').fill('Early birds');
    await tab.getByRole('button', { name: 'Make the team' }).click();
    await arrivesAt(tab, /\/dashboard\/teams\/[0-9a-f-]+$/);
    expect((await tab.getByLabel('Invite link').inputValue()).startsWith(`${base}/dashboard/teams?code=`)).toBe(true);
    await tab.goto(`${base}/dashboard/settings/sharing`, { waitUntil: 'networkidle' });
    const weekly = tab.getByRole('checkbox', { name: /Weekly report by mail/ });
    expect([await weekly.isDisabled(), await weekly.isChecked()]).toEqual([true, false]);
    await expect(tab.getByText('This server sends no mail').count()).resolves.toBe(1);
    await tab.context().close();
  });

  it('a goal is set in hours and minutes, too little time is refused under Minutes, and the form\'s number fields are styled as the others', async () => {
    const { page: tab } = await signUp(await browser.newContext());
    await tab.goto(`${base}/dashboard/goals`, { waitUntil: 'networkidle' });
    const look = (label: string) => tab.getByLabel(label, { exact: true }).evaluate((e) => [getComputedStyle(e).borderRadius, getComputedStyle(e).minHeight]);
    expect(await look('Hours')).toEqual(await look('Title (optional)'));
    await tab.getByLabel('Hours', { exact: true }).fill('');
    await tab.getByLabel('Minutes', { exact: true }).fill('0');
    await tab.getByRole('button', { name: 'Set goal' }).click();
    await expect(tab.locator('#f-minutes-error').textContent()).resolves.toMatch(/at least 1 minute/);
    await tab.getByLabel('Hours', { exact: true }).fill('1');
    await tab.getByLabel('Minutes', { exact: true }).fill('30');
    await tab.getByRole('button', { name: 'Set goal' }).click();
    await expect(tab.getByRole('cell', { name: /1 hr 30 mins/ }).first().textContent()).resolves.toMatch(/1 hr 30 mins/);
    await tab.context().close();
  });

  it('a team\'s invite link fills in the code; the team page shows what each member shares, my consent changes at once, and leaving ends my view', async () => {
    const owner = `tm${Math.random().toString(36).slice(2, 9)}`;
    const made = await fetch(`${api}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ handle: owner, token: { scopes: ['sync', 'account'] } }),
    });
    const { token } = (await made.json()) as { token: string };
    expect(await sync(token, [{ language: 'Rust', time: 2700, date: today, hour: 5 }])).toBe(200);
    const asOwner = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${api}/teams`, { method: 'POST', headers: asOwner, body: JSON.stringify({ name: 'Night shift' }) });
    expect(created.status).toBe(201);
    const team = (await created.json()) as { id: string; invite_code: string };
    const membersSeenByOwner = async () =>
      ((await (await fetch(`${api}/teams/${team.id}?range=7d`, { headers: asOwner })).json()) as { members: { handle: string; seconds: number | null }[] }).members;

    await page.goto(`${base}/dashboard/teams?code=${team.invite_code}`, { waitUntil: 'networkidle' });
    expect(await page.getByLabel('Invite code').inputValue()).toBe(team.invite_code);
    expect(await membersSeenByOwner()).toHaveLength(1);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await arrivesAt(page, new RegExp(`/dashboard/teams/${team.id}`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Night shift');
    const table = await page.getByRole('table', { name: 'Members and what each shares with the team' }).textContent();
    expect(table).toContain(owner);
    expect(table).toContain('45 mins');
    // The team's time per day, by member (each as they share it), and the languages of those who share them: none here.
    const daily = page.locator('section[aria-labelledby="t-daily"]');
    await expect(daily.locator('.legend').allTextContents()).resolves.toContain(` @${owner}`);
    await expect(daily.locator('svg.bars-columns rect').count()).resolves.toBeGreaterThan(0);
    await expect(page.locator('section[aria-labelledby="t-languages"]').textContent()).resolves.toContain('No member shares languages in this range.');
    await expect(page.getByText(/ending today in your time zone/).count()).resolves.toBe(1);
    // The owner sees my total (shared by default), until I share nothing.
    const me = async () => (await membersSeenByOwner()).find((m) => m.handle !== owner);
    expect(typeof (await me())?.seconds).toBe('number');
    await page.getByLabel('What you share').selectOption('none');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await me())?.seconds, { timeout: 10_000 }).toBeNull();

    await page.getByRole('button', { name: 'Leave the team' }).click();
    await arrivesAt(page, /\/dashboard\/teams$/);
    expect(await membersSeenByOwner()).toHaveLength(1);
    const gone = await page.goto(`${base}/dashboard/teams/${team.id}`);
    expect(gone?.status()).toBe(404);
  });

  it('a project page draws every day of its range; renaming onto a project with time asks first, naming both and their time, and a merge splits back out', async () => {
    const { page: tab } = await signUp(await browser.newContext({ viewport: { width: 1366, height: 900 } }));
    const token = await tokenFrom(tab, base, 'projects');
    const day = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
    expect(
      await sync(token, [
        { language: 'Go', time: 3600, date: day(2), hour: 9, project_name: 'alpha' },
        { language: 'Go', time: 1800, date: day(9), hour: 9, project_name: 'alpha' },
        { language: 'Go', time: 1200, date: day(1), hour: 9, project_name: 'beta' },
        { language: 'Go', time: 600, date: day(1), hour: 10, project_name: 'delta', ide_name: 'claude-code', category: 'ai coding' },
        { language: 'Go', time: 300, date: day(1), hour: 11, project_name: 'delta', ide_name: 'chrome', category: 'browsing' },
      ]),
    ).toBe(200);
    // An AI agent's and a browser's plugin say what they are where editors are listed.
    await tab.goto(`${base}/dashboard/projects/delta`, { waitUntil: 'networkidle' });
    const editors = (await tab.locator('section[aria-labelledby="p-editors"]').textContent()) ?? '';
    expect(editors).toContain('Claude Code (AI agent)');
    expect(editors).toContain('Chrome (browser)');
    await tab.goto(`${base}/dashboard/projects/alpha?range=30d`, { waitUntil: 'networkidle' });
    // Thirty days, two with time: a day without time is a day of the axis too.
    await expect(tab.locator('section[aria-labelledby="p-days"] svg.bars-columns rect').count()).resolves.toBe(30);
    await expect(tab.locator('section[aria-labelledby="p-days"] table tbody tr').count()).resolves.toBe(30);
    // A question the address asks with a name no rename takes is no question, and no error.
    expect((await tab.goto(`${base}/dashboard/projects/alpha?merge=be%00ta`))?.status()).toBe(200);
    expect(await tab.getByTestId('merge-question').count()).toBe(0);
    // Renaming onto beta asks first; cancelling changes nothing.
    await tab.getByLabel('New name').fill('beta');
    await tab.getByRole('button', { name: 'Rename' }).click();
    await arrivesAt(tab, /\/dashboard\/projects\/alpha\?merge=beta/);
    await expect(tab.getByTestId('merge-question').textContent()).resolves.toMatch(/“beta” already has 20 mins \(since \d{4}-\d\d-\d\d\)\. Renaming “alpha” \(1 hr 30 mins, since \d{4}-\d\d-\d\d\) to it makes one project, “beta”, of 1 hr 50 mins/);
    await tab.getByRole('link', { name: 'Cancel' }).click();
    await arrivesAt(tab, /\/dashboard\/projects\/alpha$/);
    expect(await tab.getByTestId('merge-question').count()).toBe(0);
    await tab.getByLabel('New name').fill('beta');
    await tab.getByRole('button', { name: 'Rename' }).click();
    await tab.getByRole('button', { name: 'Merge into “beta”' }).click();
    await arrivesAt(tab, /\/dashboard\/projects\/beta\?notice=merged/);
    await expect(tab.getByRole('status').textContent()).resolves.toMatch(/^Merged: the two are one project now/);
    await expect(tab.locator('section[aria-labelledby="p-days"]').textContent()).resolves.toContain('1 hr 50 mins');
    // The merge can be undone from the project it went to: alpha has its own time again.
    const merged = tab.locator('section[aria-labelledby="p-merges"]');
    await expect(merged.textContent()).resolves.toMatch(/“alpha”, 1 hr 30 mins, merged \d{4}-\d\d-\d\d \d\d:\d\d/);
    await expectAccessibleEverywhere(tab);
    await merged.getByRole('button', { name: 'Split “alpha” back out' }).click();
    await arrivesAt(tab, /\/dashboard\/projects\/alpha\?notice=split/);
    await expect(tab.locator('section[aria-labelledby="p-days"]').textContent()).resolves.toContain('1 hr 30 mins');
    await tab.goto(`${base}/dashboard/projects/beta`, { waitUntil: 'networkidle' });
    await expect(tab.locator('section[aria-labelledby="p-days"]').textContent()).resolves.toContain('20 mins');
    expect(await tab.locator('section[aria-labelledby="p-merges"]').count()).toBe(0);
    // A notice is a code the page has words for: text in the address is never shown.
    await tab.goto(`${base}/dashboard/projects/beta?notice=Your%20account%20is%20suspended`, { waitUntil: 'networkidle' });
    expect(await tab.getByText('suspended').count()).toBe(0);
    // A new name merges nothing: renamed at once.
    await tab.getByLabel('New name').fill('gamma');
    await tab.getByRole('button', { name: 'Rename' }).click();
    await arrivesAt(tab, /\/dashboard\/projects\/gamma\?notice=renamed/);
    await tab.context().close();
  });

  it('every dashboard and settings page has the tabs, marks where one is, fits a 390 px phone and passes axe in both themes', async () => {
    const views = {
      '/dashboard': 'Overview',
      '/dashboard/timeline': 'Timeline',
      '/dashboard/insights': 'Insights',
      '/dashboard/breakdowns': 'Breakdowns',
      '/dashboard/projects': 'Projects',
      '/dashboard/projects/site': 'Projects',
      '/dashboard/goals': 'Goals',
      '/dashboard/teams': 'Teams',
      '/dashboard/leaderboards': 'Leaderboards',
      '/dashboard/settings': 'Keys',
      '/dashboard/settings/sending': 'Sending',
      '/dashboard/settings/sharing': 'Sharing',
      '/dashboard/settings/badges': 'Badges and cards',
      '/dashboard/settings/import': 'Import',
      '/dashboard/settings/relays': 'Relays',
      '/dashboard/settings/account': 'Account',
    };
    for (const [width, height] of [[1366, 900], [390, 844]]) {
      await page.setViewportSize({ width, height });
      for (const [url, tab] of Object.entries(views)) {
        await page.goto(`${base}${url}`, { waitUntil: 'networkidle' });
        const settings = url.startsWith('/dashboard/settings');
        const marked = async (name: string) => page.getByRole('navigation', { name }).locator('[aria-current="page"]').allTextContents();
        expect([url, await marked('Dashboard'), settings ? await marked('Settings') : []]).toEqual([url, [settings ? 'Settings' : tab], settings ? [tab] : []]);
        expect([url, width, await pageWidth(page)]).toEqual([url, width, width]);
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          const { violations } = await axe(page);
          expect([url, width, colorScheme, violations.map(describeViolation)]).toEqual([url, width, colorScheme, []]);
        }
        await page.emulateMedia({ colorScheme: 'light' });
      }
    }
    // On a phone the tabs keep one row and scroll sideways inside their own box.
    const tabs = page.getByRole('navigation', { name: 'Dashboard' });
    const [scroll, client] = await tabs.evaluate((e) => [e.scrollWidth, e.clientWidth]);
    expect(scroll).toBeGreaterThan(client);
    await page.setViewportSize({ width: 1366, height: 900 });
  }, 300_000);

  it('the header\'s "Sign out" asks on a page of its own, which signs out, without JavaScript too (last: it ends the file\'s session)', async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    await noScript.addCookies(await context.cookies());
    const plain = watch(await noScript.newPage());
    await plain.goto(`${base}/leaderboard`);
    await plain.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).click();
    // A cached page cannot know who is signed in: its "Sign in" goes on to the dashboard.
    await arrivesAt(plain, /\/dashboard$/);
    await plain.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign out' }).click();
    await arrivesAt(plain, /\/signout$/);
    await plain.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
    await arrivesAt(plain, new RegExp(`^${base}/$`));
    expect((await plain.goto(`${base}/dashboard`))?.url()).toMatch(/\/signin/);
    expect((await plain.goto(`${base}/signout`))?.url()).toBe(`${base}/`);
    await noScript.close();
  });

  afterAll(() => {
    expect(errors).toEqual([]);
  });
});
