import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cli, clientHome, everyCommand, everyCommandWorks, removeHome } from '../helpers/client';

// A visitor and a new user in a real browser (Debian's Chromium) against `next start`: every
// page is screenshotted under test-results/screenshots and no page may log a console error.

const base = inject('baseUrl');
const shots = path.resolve('test-results/screenshots');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Without Chromium the suite says so and skips, except in CI, which must run it.
const hasChromium = fs.existsSync(chromiumPath);
const skipReason = `no Chromium at ${chromiumPath} (install Debian's chromium package, or set CHROMIUM_PATH)`;
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser suite, but there is ${skipReason}`);
if (!hasChromium) console.warn(`[codetally] browser suite skipped: ${skipReason}`);
const handle = `br${Math.random().toString(36).slice(2, 8)}`;
const email = `${handle}@example.test`;
const password = 'a long enough password';
const newPassword = 'an even longer password';

let browser: Browser;
const consoleErrors: string[] = [];
let shotNumber = 0;

function watch(page: Page, allow: RegExp[] = []) {
  page.on('console', (m) => {
    if (m.type() === 'error' && !allow.some((a) => a.test(m.text()))) consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
  return page;
}

async function shot(page: Page, name: string) {
  shotNumber += 1;
  await page.screenshot({ path: path.join(shots, `${String(shotNumber).padStart(2, '0')}-${name}.png`), fullPage: true });
}

/** Opens a page, checks its status, title and description, saves a screenshot. */
async function visit(page: Page, url: string, name: string, status = 200) {
  const res = await page.goto(`${base}${url}`, { waitUntil: 'networkidle' });
  expect([url, res?.status()]).toEqual([url, status]);
  expect(await page.title()).not.toBe('');
  if (status === 200) expect(await page.locator('meta[name="description"]').getAttribute('content')).toBeTruthy();
  await shot(page, name);
}

async function anonymous(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  // An expected 404 document is logged by the browser as a failed resource: not an app error.
  return { context, page: watch(await context.newPage(), [/Failed to load resource: the server responded with a status of 404/]) };
}

async function sync(token: string, route: string, activities: unknown[]) {
  const res = await fetch(`${base}/main/api/v1${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ activities }),
  });
  return res;
}

/** After a form's server action redirects (a client-side navigation), the page shows the new URL. */
async function arrivesAt(page: Page, url: RegExp) {
  await expect.poll(() => page.url(), { timeout: 20_000 }).toMatch(url);
  await page.waitForLoadState('networkidle');
}

const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  if (!hasChromium) return;
  fs.mkdirSync(shots, { recursive: true });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!hasChromium)('in a browser', () => {
  it('a visitor browses the public pages, on a desktop and on a phone, with the keyboard', async () => {
    const { context, page } = await anonymous();
    await visit(page, '/', 'home');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/Coding time/);
    await visit(page, '/pricing', 'pricing');
    const plans = await (await fetch(`${base}/main/api/v1/get/list/plans`)).json();
    for (const p of plans.plans) await expect(page.getByRole('heading', { name: new RegExp(`^${p.name}`) }).count()).resolves.toBe(1);
    await visit(page, '/leaderboard', 'leaderboard-empty');
    await visit(page, '/docs', 'docs');
    await expect(page.locator('pre').first().textContent()).resolves.toContain(`api_url = ${base}/api/wakatime/v1`);
    await visit(page, '/docs/api', 'docs-api');
    await expect(page.locator('#post-sync-activities').count()).resolves.toBe(1);
    await visit(page, '/docs/wakatime', 'docs-wakatime');
    await expect(page.locator('pre').first().textContent()).resolves.toContain(`api_url = ${base}/api/wakatime/v1`);
    await visit(page, '/docs/errors', 'docs-errors');
    await expect(page.locator('#invalid_payload').count()).resolves.toBe(1);

    // Dark mode follows the system, and the switch in the footer overrides it for later visits.
    const dark = await browser.newContext({ colorScheme: 'dark' });
    const night = watch(await dark.newPage());
    await night.goto(`${base}/`, { waitUntil: 'networkidle' });
    const background = () => night.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(await background()).toBe('rgb(15, 18, 24)');
    await shot(night, 'home-dark');
    await night.getByRole('button', { name: 'Light mode' }).click();
    expect(await background()).toBe('rgb(255, 255, 255)');
    await night.goto(`${base}/leaderboard`, { waitUntil: 'networkidle' });
    expect(await background()).toBe('rgb(255, 255, 255)');
    await expect(night.getByRole('button', { name: 'Dark mode' }).count()).resolves.toBe(1);
    await dark.close();

    // Keyboard: the first Tab reaches the skip link, and focus is visible.
    await page.goto(`${base}/`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');

    const phone = watch(await (await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true })).newPage());
    for (const url of ['/', '/leaderboard', '/pricing', '/docs', '/docs/wakatime', '/signup']) {
      await phone.goto(`${base}${url}`, { waitUntil: 'networkidle' });
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect([url, overflow]).toEqual([url, 0]);
    }
    await shot(phone, 'home-phone');
    await phone.context().close();
    await context.close();
  });

  it('without JavaScript, the forms still work: sign up, sign in, create a token, connect a WakaTime plugin', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = watch(await context.newPage());
    const noScript = `ns${handle}`;
    await visit(page, '/signup', 'signup-no-js');
    await page.getByLabel('Handle').fill(noScript);
    await page.getByLabel('Email').fill(`${noScript}@example.test`);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    // A new email is signed in at once.
    await arrivesAt(page, /\/dashboard\?welcome=1$/);
    // Keys are in Settings, one plain link away.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Settings' }).click();
    await arrivesAt(page, /\/dashboard\/settings$/);
    await page.getByLabel('Token name').fill('no-js');
    await page.getByLabel("Codetally's client, its desktop agent, or a script").check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('token-value').textContent())!;
    expect(token).toMatch(/^ct_/);
    // A token for the client says that client's command, and nothing of WakaTime's settings.
    await expect(page.getByTestId('token-cli-text').textContent()).resolves.toBe(`npx codetally config --api-url ${base} --token-stdin`);
    expect(await page.getByTestId('token-cfg-text').count()).toBe(0);

    // Connect a WakaTime plugin: the two lines of ~/.wakatime.cfg, then wakatime-cli sends with them.
    await page.getByRole('button', { name: 'Make a key for my editor' }).click();
    const cfg = (await page.getByTestId('wakatime-cfg-text').textContent())!;
    expect(cfg).toContain(`api_url = ${base}/api/wakatime/v1`);
    const key = /api_key = ([0-9a-f-]{36})/.exec(cfg)![1];
    // Each of the dashboard's tokens, the form's token for the client and this key, runs every command of Codetally's
    // client, set up as the dashboard says. (After the key is shown: the first activity changes the dashboard's layout.)
    for (const made of [token, key]) expect(await everyCommand(base, made, 'stdin')).toMatchObject(everyCommandWorks);
    const now = Math.floor(Date.now() / 1000);
    const start = Math.max(now - 600, Math.floor(now / 86_400) * 86_400);
    const sent = await fetch(`${base}/api/wakatime/v1/users/current/heartbeats.bulk`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(key).toString('base64')}`,
        'content-type': 'application/json',
        'user-agent': 'wakatime/v1.98.0 (linux-6.5.0) go1.22.1 neovim/0.10.0 neovim-wakatime/1.0.0',
      },
      body: JSON.stringify([0, 60, 120].map((s) => ({ entity: `/home/me/wakaproj/main.lua`, time: start + s, language: 'Lua', project: 'wakaproj' }))),
    });
    expect(sent.status).toBe(201);

    // The same key sets up Codetally's own client: the command shown, run as it is with the key pasted, then heartbeats as an editor sends them.
    const command = (await page.getByTestId('codetally-cli-text').textContent())!;
    expect(command).toBe(`npx codetally config --api-url ${base} --token-stdin`);
    const home = clientHome();
    try {
      expect((await cli(home, command.split(' ').slice(2), {}, `${key}\n`)).code).toBe(0);
      for (const s of [200, 260, 320]) {
        expect((await cli(home, ['heartbeat', '--entity', '/home/me/cliproj/app.ts', '--project', 'cliproj', '--editor', 'neovim', '--time', String(start + s)])).code).toBe(0);
      }
      expect((await cli(home, ['flush'])).code).toBe(0);
    } finally {
      await removeHome(home);
    }
    await page.goto(`${base}/dashboard`);
    const projects = await page.getByRole('table', { name: 'Your projects' }).textContent();
    expect(projects).toContain('wakaproj');
    expect(projects).toContain('cliproj');
    await context.close();
  });

  it('a new user signs up, connects an editor, shares, embeds a badge, and deletes every trace', async () => {
    const context = await browser.newContext();
    const page = watch(await context.newPage());
    const visitor = await anonymous();

    // Sign up with email and password; a bad field is explained next to it.
    await visit(page, '/signup', 'signup');
    await page.getByLabel('Handle').fill(handle);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.locator('#f-password-error').textContent()).resolves.toMatch(/at least 10 characters/);
    await shot(page, 'signup-error');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    // A new email is signed in at once, on the dashboard's welcome.
    await arrivesAt(page, /\/dashboard\?welcome=1$/);
    await shot(page, 'dashboard-new');
    // A new account's dashboard leads with setting up: the first step on the first screen, no empty charts before it.
    expect((await page.getByRole('heading', { name: 'Get started' }).boundingBox())!.y).toBeLessThan(400);
    await expect(page.getByRole('button', { name: 'Make a key for my editor' }).count()).resolves.toBe(1);
    await expect(page.getByTestId('first-activity').textContent()).resolves.toMatch(/Waiting for your first minute/);
    expect(await page.locator('.bars').count()).toBe(0);
    // Public pages are the same for everyone (cached); the browser asks who is signed in, and
    // the docs show the address this browser uses.
    await page.goto(`${base}/docs/wakatime`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).waitFor();
    await expect(page.locator('pre').first().textContent()).resolves.toContain(`api_url = ${base}/api/wakatime/v1`);
    // A range the dashboard does not know (even one named like an Object property) is said, and the default range shown.
    expect((await page.goto(`${base}/dashboard?range=constructor`))?.status()).toBe(200);

    // Create a token in Settings, Keys (for a WakaTime plugin, the form's default): shown once, with
    // the lines of ~/.wakatime.cfg that work, and wakatime-cli's key format.
    await visit(page, '/dashboard/settings', 'settings-keys');
    await page.getByLabel('Token name').fill('laptop');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('token-value').textContent())!;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    await expect(page.getByTestId('token-cfg-text').textContent()).resolves.toBe(`[settings]\napi_url = ${base}/api/wakatime/v1\napi_key = ${token}`);
    const statusBar = await fetch(`${base}/api/wakatime/v1/users/current/statusbar/today`, { headers: { authorization: `Basic ${Buffer.from(token).toString('base64')}` } });
    expect(statusBar.status).toBe(200);
    await shot(page, 'token-created');
    await page.goto(`${base}/dashboard`, { waitUntil: 'networkidle' });
    await expect(page.getByTestId('first-activity').textContent()).resolves.toMatch(/Waiting for your first minute/);

    // The editor plugin and the desktop agent post activity with it.
    const ide = [
      { language: 'TypeScript', time: 3000, date: today, hour: 9, project_name: 'secret-project', ide_name: 'vscode' },
      { language: 'Go', time: 1200, date: today, hour: 10, project_name: 'secret-project', ide_name: 'neovim' },
      { language: 'TypeScript', time: 1800, date: yesterday, hour: 14, project_name: 'website', ide_name: 'vscode' },
    ];
    expect((await sync(token, '/sync/activities', ide)).status).toBe(200);
    const desktop = [{ platform: 'linux', program_name: 'Figma', path: '', filename: '', time: 900, date: today, hour: 11 }];
    expect((await sync(token, '/sync/activities/desktop', desktop)).status).toBe(200);
    // The set-up steps, still open, see it arrive without a reload.
    await expect
      .poll(() => page.getByTestId('first-activity').textContent(), { timeout: 20_000 })
      .toMatch(/Your first activity arrived: (TypeScript from vscode|Go from neovim|Figma on linux)/);
    await shot(page, 'dashboard-first-activity');

    // The dashboard shows it all, projects and desktop applications included.
    await visit(page, '/dashboard', 'dashboard-activity');
    const activity = page.locator('main');
    for (const text of ['TypeScript', 'Go', 'secret-project', 'website', 'VS Code', 'Neovim', 'Figma', '1 hr 40 mins']) {
      await expect(activity.textContent()).resolves.toContain(text);
    }
    // Charts drawn on the server; the donut's rows are shares of the whole and name its colours.
    expect(await page.locator('.bars').count()).toBeGreaterThan(1);
    const languages = (await page.getByRole('table', { name: 'Your languages' }).textContent())!;
    expect(languages).toContain('TypeScript1 hr 20 mins80%');
    expect(languages).toContain('Go20 mins20%');
    expect(await page.locator('svg.donut circle').count()).toBe(3); // the track and two slices
    // No page is wider than a phone, the dashboard included.
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    await shot(page, 'dashboard-phone');
    await page.setViewportSize({ width: 1280, height: 720 });

    // Private by default: the profile is a 404 for a visitor.
    await visit(visitor.page, `/u/${handle}`, 'profile-private', 404);

    // Turn the profile public, with languages and the leaderboard (Settings, Sharing).
    await visit(page, '/dashboard/settings/sharing', 'settings-sharing');
    for (const name of [/Public profile/, /Share languages/, /Appear on the leaderboard/]) await page.getByRole('checkbox', { name }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Saved.').textContent()).resolves.toBe('Saved.');
    await visit(visitor.page, `/u/${handle}`, 'profile-public');
    await visitor.page.setViewportSize({ width: 375, height: 740 });
    expect(await visitor.page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    // Chart images keep their text readable on a phone: drawn no narrower than keeps their 12 px text
    // at 9 px, a wider one than the screen scrolling sideways in its own box, not the page.
    const charts = await visitor.page.locator('.chart-image img').evaluateAll((imgs) => imgs.map((i) => [Number(i.getAttribute('width')), i.getBoundingClientRect().width]));
    expect(charts.length).toBeGreaterThan(0);
    for (const [natural, drawn] of charts) expect(drawn).toBeGreaterThanOrEqual(Math.min(natural, Math.ceil((natural * 9) / 12)) - 0.5);
    await shot(visitor.page, 'profile-phone');
    await visitor.page.setViewportSize({ width: 1280, height: 720 });
    const profile = (await visitor.page.locator('main').textContent())!;
    expect(profile).toContain(`@${handle}`);
    expect(profile).toContain('TypeScript');
    expect(profile).not.toContain('secret-project'); // projects are never public
    expect(profile).not.toContain('Figma');
    expect(profile).not.toContain('VS Code'); // editors not shared (stored under the name every surface shows)
    expect(profile).not.toContain('Neovim');
    const og = await visitor.context.request.get(`${base}/u/${handle}/opengraph-image`);
    expect(og.status()).toBe(200);
    expect(og.headers()['content-type']).toBe('image/png');

    // Private again: 404 again.
    await page.getByRole('checkbox', { name: /Public profile/ }).uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    // "Saved." is still shown from the first save: wait for the change itself.
    await expect.poll(async () => (await visitor.context.request.get(`${base}/u/${handle}`)).status(), { timeout: 20_000 }).toBe(404);
    await visit(visitor.page, `/u/${handle}`, 'profile-private-again', 404);

    // Make a badge, preview it, and load its image as an embed would (Settings, Badges and cards).
    await visit(page, '/dashboard/settings/badges', 'settings-badges');
    await page.getByLabel('Style').selectOption('for-the-badge');
    await page.getByLabel('Label (optional)').fill('coded <b>this week</b>');
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="badge-preview"]');
      return !!img && img.complete && img.naturalWidth > 0 && img.src.includes('for-the-badge');
    });
    await page.getByRole('button', { name: 'Create badge' }).click();
    await page.getByTestId('badge-image').first().waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('[data-testid="badge-image"]')].every((i) => i.complete && i.naturalWidth > 0));
    await shot(page, 'badge-created');
    const badgeUrl = (await page.getByTestId('badge-image').first().getAttribute('src'))!;
    const embed = await visitor.page.goto(badgeUrl);
    expect(embed?.status()).toBe(200);
    expect(embed?.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    const svg = await embed!.text();
    expect(svg).toContain('1 HR 40 MINS'); // for-the-badge writes in capitals; today's 70 min + yesterday's 30 min
    expect(svg).not.toContain('<b>');
    // As a README embeds it: a plain <img> with the URL, in a page without our session (once the
    // page has hydrated, so React does not put its own content back).
    await visitor.page.goto(`${base}/docs/errors`, { waitUntil: 'networkidle' });
    await visitor.page.evaluate((src) => {
      document.querySelector('main')!.innerHTML = `<h1>README</h1><img src="${src}" alt="coding time">`;
    }, badgeUrl);
    await visitor.page.waitForFunction(() => document.querySelector('img')!.complete && document.querySelector('img')!.naturalWidth > 0);
    await shot(visitor.page, 'badge-embed');

    // Refresh the badge: its image still loads. A spare token, revoked, stops working.
    await page.getByRole('button', { name: /^Refresh badge/ }).click();
    await expect.poll(async () => (await visitor.context.request.get(badgeUrl)).status()).toBe(200);
    await page.goto(`${base}/dashboard/settings`, { waitUntil: 'networkidle' });
    await page.getByLabel('Token name').fill('spare');
    await page.getByRole('button', { name: 'Create token' }).click();
    const spare = (await page.getByTestId('token-value').textContent())!;
    expect(spare).not.toBe(token);
    expect((await sync(spare, '/sync/activities', ide.slice(0, 1))).status).toBe(200);
    await page.locator('summary[aria-label="Revoke token spare…"]').click();
    await page.getByRole('button', { name: 'Yes, revoke token spare' }).click();
    await expect.poll(async () => (await sync(spare, '/sync/activities', ide.slice(0, 1))).status, { timeout: 20_000 }).toBe(401);

    // After the dashboard and the profile have rendered, the API description still builds.
    for (const url of ['/docs', '/main/api/v1/openapi.json']) expect((await visitor.context.request.get(`${base}${url}`)).status()).toBe(200);

    // Change the password: this browser stays signed in, a copy of the old session cookie does not.
    const oldSession = (await context.cookies()).find((c) => c.name === 'authjs.session-token')!;
    const copied = await browser.newContext();
    await copied.addCookies([oldSession]);
    expect((await copied.request.get(`${base}/main/api/v1/me`)).status()).toBe(200);
    await visit(page, '/dashboard/settings/account', 'settings-account');
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('New password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Password changed.').textContent()).resolves.toMatch(/Every other session is signed out/);
    expect((await copied.request.get(`${base}/main/api/v1/me`)).status()).toBe(401);
    expect((await page.goto(`${base}/dashboard`))?.url()).toMatch(/\/dashboard$/);
    await copied.close();

    // Opted in: listed on the leaderboard, linking to the profile.
    await visit(visitor.page, '/leaderboard', 'leaderboard');
    expect(await visitor.page.getByRole('link', { name: handle }).count() + (await visitor.page.locator(`a[href="/u/${handle}"]`).count())).toBeGreaterThan(0);

    // Bring the WakaTime history: a data dump uploaded on the dashboard, read with a progress bar.
    const dumpFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-dump-')), 'wakatime-heartbeats.json');
    const start = Math.floor(Date.now() / 1000 / 86_400) * 86_400 - 40 * 86_400 + 9 * 3600;
    // 31 heartbeats two minutes apart, 40 days ago: an hour.
    const heartbeats = Array.from({ length: 31 }, (_, i) => ({ entity: `/home/me/history/file${i % 4}.rs`, type: 'file', time: start + i * 120, language: 'Rust', project: 'history-project', branch: 'main' }));
    fs.writeFileSync(dumpFile, JSON.stringify({ user: { username: handle }, days: [{ date: new Date(start * 1000).toISOString().slice(0, 10), heartbeats }] }));
    await visit(page, '/dashboard/settings/import', 'settings-import');
    await page.getByLabel('WakaTime data dump (.json)').setInputFiles(dumpFile);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(async () => page.getByTestId('import-progress').textContent(), { timeout: 30_000 }).toMatch(/Imported: 31 heartbeats read/);
    fs.rmSync(path.dirname(dumpFile), { recursive: true, force: true });
    await shot(page, 'dashboard-imported');
    await visit(page, '/dashboard?range=365d', 'dashboard-with-history');
    await expect(page.locator('main').textContent()).resolves.toContain('history-project');

    // Delete the account (Settings, Account): every trace gone.
    await page.goto(`${base}/dashboard/settings/account`, { waitUntil: 'networkidle' });
    await page.getByLabel(/Type your handle/).fill(handle);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await arrivesAt(page, /\/\?deleted=1$/);
    await shot(page, 'account-deleted');
    expect((await sync(token, '/sync/activities', ide)).status).toBe(401);
    const gone = await visitor.context.request.get(badgeUrl);
    expect(gone.status()).toBe(404);
    expect(await gone.text()).toContain('badge not found');
    await visit(visitor.page, '/leaderboard', 'leaderboard-after-delete');
    expect(await visitor.page.locator(`a[href="/u/${handle}"]`).count()).toBe(0);
    await visit(visitor.page, `/u/${handle}`, 'profile-deleted', 404);
    const dashboard = await page.goto(`${base}/dashboard`);
    expect(dashboard?.url()).toMatch(/\/signin/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('do not match').textContent()).resolves.toMatch(/do not match an account/);
    await shot(page, 'signin-after-delete');
    await context.close();
    await visitor.context.close();
  });

  afterAll(() => {
    expect(consoleErrors).toEqual([]);
  });
});
