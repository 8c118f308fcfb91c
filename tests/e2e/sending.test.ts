import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, chromiumFlags, chromiumPath, describeViolation, pageWidth, stickingOut } from '../helpers/audit';
import { passwordUser } from '../helpers/forms';
import { startTestServer, type TestServer } from '../helpers/server';

// "Is my editor sending?" (Settings, Sending), an editor key shown again (Settings, Keys), and the
// Timeline's word on a day before the plan's history, in Chromium at a desktop's and a phone's
// width, light and dark, axe finding nothing. A server of its own, selling plans (PLANS=on): the
// suite's shared one takes ten sign-ups an hour from one address.

const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser checks, but there is no Chromium at ${chromiumPath}`);

const looks = [
  { name: 'desktop, light', viewport: { width: 1366, height: 900 }, colorScheme: 'light' as const },
  { name: 'desktop, dark', viewport: { width: 1366, height: 900 }, colorScheme: 'dark' as const },
  { name: 'phone, light', viewport: { width: 390, height: 844 }, colorScheme: 'light' as const, isMobile: true },
  { name: 'phone, dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' as const, isMobile: true },
];

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function fitsAndPasses(page: Page, what: string) {
  const width = page.viewportSize()!.width;
  expect([what, await pageWidth(page), await stickingOut(page)]).toEqual([what, width, []]);
  const { violations } = await axe(page);
  expect([what, violations.map(describeViolation)]).toEqual([what, []]);
}

describe.skipIf(!hasChromium)('Settings, Sending and an editor key shown again, in a browser', () => {
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

  it('lists what sent, marks the quiet, shows the key again to its owner with no-store, and the Timeline names the plan\'s window', async () => {
    const { cookie } = await passwordUser(base);
    // An editor key, as "Make a key for my editor" makes it (WakaTime's format, sync and stats).
    const made = await fetch(`${base}/main/api/v1/me/tokens`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'WakaTime plugins', format: 'uuid' }),
    });
    expect(made.status).toBe(201);
    const { token: key } = (await made.json()) as { token: string };
    const now = Math.floor(Date.now() / 1000);
    const send = async (userAgent: string, machine: string, at: number) => {
      const beats = [0, 60].map((d) => ({ entity: `/src/${machine}.go`, type: 'file', time: at + d, language: 'Go', project: 'api' }));
      const res = await fetch(`${base}/api/wakatime/v1/users/current/heartbeats.bulk`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json', 'user-agent': userAgent, 'x-machine-name': machine },
        body: JSON.stringify(beats),
      });
      expect(res.status).toBe(201);
    };
    await send('wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0', 'studio-desk-7', now - 600);
    await send('Claude/2.1.5', 'travel-laptop-3', now - 3 * 86_400);

    // The key is in no page's HTML: only the "Show key" action's answer carries it.
    const keysHtml = await (await fetch(`${base}/dashboard/settings`, { headers: { cookie } })).text();
    expect(keysHtml).toContain('Show key');
    expect(keysHtml).not.toContain(key);

    const session = cookie.split('; ').map((c) => {
      const [name, ...value] = c.split('=');
      return { name, value: value.join('='), url: base };
    });
    for (const look of looks) {
      const context = await browser.newContext(look);
      await context.addCookies(session);
      const page = await context.newPage();

      await page.goto(`${base}/dashboard/settings/sending`, { waitUntil: 'networkidle' });
      const rows = await page.getByTestId('senders').locator('tbody tr').allInnerTexts();
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatch(/^VS Code\s+24\.5\.0\s+Linux\s+studio-desk-7\s+\d+ minutes ago/);
      expect(rows[0]).toMatch(/Sending$/);
      expect(rows[1]).toMatch(/^Claude Code \(AI agent\)/);
      expect(rows[1]).toMatch(/travel-laptop-3/);
      expect(rows[1]).toMatch(/Quiet, \d days$/);
      // Machines by their last heartbeat too.
      const machines = await page.getByTestId('machines').locator('tbody tr').allInnerTexts();
      expect(machines).toEqual([expect.stringMatching(/^studio-desk-7\s.*Sending$/), expect.stringMatching(/^travel-laptop-3\s.*Quiet, \d days$/)]);
      await expect(page.getByTestId('sending-cfg').innerText()).resolves.toContain(`api_url = ${base}/api/wakatime/v1`);
      await expect(page.locator('main').innerText()).resolves.toContain('~/.wakatime/wakatime.log');
      await fitsAndPasses(page, `${look.name}: Settings, Sending`);

      // Settings, Keys: "Show key" shows the key and its settings, answered no-store.
      await page.goto(`${base}/dashboard/settings`, { waitUntil: 'networkidle' });
      await fitsAndPasses(page, `${look.name}: Settings, Keys`);
      const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/dashboard/settings');
      await page.getByRole('button', { name: 'Show key WakaTime plugins' }).click();
      expect((await answer).headers()['cache-control']).toMatch(/no-store/);
      await expect(page.getByTestId('shown-key-value').innerText()).resolves.toBe(key);
      await expect(page.getByTestId('shown-key-cfg').innerText()).resolves.toBe(`[settings]\napi_url = ${base}/api/wakatime/v1\napi_key = ${key}`);
      await fitsAndPasses(page, `${look.name}: Settings, Keys, a key shown again`);
      await page.getByRole('button', { name: 'Hide' }).click();
      expect(await page.getByTestId('shown-key').count()).toBe(0);

      // The Timeline, on a day before the Free plan's year of history: says so, and where it is lifted.
      await page.goto(`${base}/dashboard/timeline?date=${days(-400)}`, { waitUntil: 'networkidle' });
      const note = page.getByTestId('history-note');
      await expect(note.innerText()).resolves.toMatch(/^Your plan shows your history from \d{4}-\d{2}-\d{2} on\./);
      await expect(note.getByRole('link', { name: 'Your plan, in Settings' }).getAttribute('href')).resolves.toBe('/dashboard/settings/account#plan');
      await fitsAndPasses(page, `${look.name}: the Timeline before the plan's history`);
      await page.goto(`${base}/dashboard/timeline`, { waitUntil: 'networkidle' });
      expect(await page.getByTestId('history-note').count()).toBe(0);
      await context.close();
    }

    // The public profile's daily average is the dashboard's: over the days coded (a minute a day
    // here), said so; over all 30 dates it would read 0 mins.
    const shared = await fetch(`${base}/main/api/v1/me`, {
      method: 'PATCH',
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { profile_public: true } }),
    });
    expect(shared.status).toBe(200);
    const { handle } = (await shared.json()) as { handle: string };
    const context = await browser.newContext(looks[0]);
    const page = await context.newPage();
    await page.goto(`${base}/u/${handle}`, { waitUntil: 'networkidle' });
    const average = page.locator('main .figure').filter({ hasText: 'a day, on days coded (last 30 days)' });
    await expect(average.locator('strong').innerText()).resolves.toBe('1 min');
    await context.close();

    // Another account sees none of it, and cannot have the key shown.
    const other = await passwordUser(base);
    const theirs = await (await fetch(`${base}/dashboard/settings/sending`, { headers: { cookie: other.cookie } })).text();
    expect(theirs).not.toContain('studio-desk-7');
    expect(theirs).toContain('Nothing has sent heartbeats yet');
    expect(server.output()).not.toContain(key);
  });
});
