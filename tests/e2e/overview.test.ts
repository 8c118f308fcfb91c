import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, chromiumPath, describeViolation, smallText, stickingOut } from '../helpers/audit';
import { passwordUser } from '../helpers/forms';
import { tokenFrom } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';

// The dashboard's Overview as a WakaTime user reads it each morning, in Chromium against the
// production build, at 1366x900 and 390x844, light and dark: each day split by project with a
// legend; categories, the AI-assisted share by agent, operating systems, machines and goals, each
// from heartbeats sent through the WakaTime API (two machines, two systems, an AI agent's plugin);
// project names whole and linked to their page; no desktop card for someone without the desktop
// agent; a one-day range drawn by hour. No text under 9 px, nothing wider than the screen, and
// axe finds nothing.

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
// The account's days are UTC's (the sign-up form's default time zone). Yesterday holds every heartbeat but one stream, so no check waits on the hour.
const dayStart = (n: number) => Math.floor(Date.now() / 86_400_000) * 86_400 - n * 86_400;
const yesterday = new Date(dayStart(1) * 1000).toISOString().slice(0, 10);
const longProject = 'android-wallpaper-studio-with-a-longer-name';
// A name a path must carry encoded: its link and its page name it as sent.
const api = 'api café 100%';

let browser: Browser;
let page: Page;

/** Heartbeats a `step` seconds apart from `from` (seconds) for `minutes`, as wakatime-cli sends them in bulk. */
function stream(from: number, minutes: number, beat: { project: string; language: string; category?: string }, step = 120) {
  return Array.from({ length: Math.floor((minutes * 60) / step) + 1 }, (_, i) => ({
    entity: `/home/dev/${beat.project}/src/file${i % 3}.txt`,
    type: 'file',
    time: from + i * step,
    category: beat.category ?? 'coding',
    project: beat.project,
    language: beat.language,
    is_write: i % 4 === 0,
  }));
}

async function send(key: string, headers: { userAgent: string; machine: string }, beats: unknown[]) {
  const res = await fetch(`${base}/api/wakatime/v1/users/current/heartbeats.bulk`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json', 'user-agent': headers.userAgent, 'x-machine-name': headers.machine },
    body: JSON.stringify(beats),
  });
  expect(res.status).toBe(201);
}

const desk = { userAgent: 'wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0', machine: 'desk-e2e' };
const laptop = { userAgent: 'wakatime/v1.90.0 (darwin-23.4.0-arm64) go1.21.5 neovim/0.9.5 vim-wakatime/11.1.1', machine: 'laptop-e2e' };
const agent = { userAgent: 'wakatime/v1.115.0 (darwin-24.5.0-arm64) go1.24.4 claude-code-wakatime/1.2.0', machine: 'laptop-e2e' };

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer({ ADMIN_TOKEN: 'overview-admin-token-0123456789' });
  base = server.baseUrl;
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  // A WakaTime user: a session from the sign-up form, a key from the settings page, plugins only (no desktop agent).
  const { cookie } = await passwordUser(base);
  const eq = cookie.indexOf('=');
  const context = await browser.newContext();
  await context.addCookies([{ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: base }]);
  page = await context.newPage();
  const key = await tokenFrom(page, base, 'plugins');
  const y = dayStart(1);
  await send(key, desk, stream(y + 10 * 3600, 40, { project: longProject, language: 'TypeScript' }));
  await send(key, laptop, stream(y + 13 * 3600, 20, { project: api, language: 'Go', category: 'debugging' }));
  await send(key, agent, stream(y + 15 * 3600, 30, { project: 'agentic', language: 'Go', category: 'ai coding' }));
  await send(key, desk, stream(dayStart(2) + 9 * 3600, 20, { project: api, language: 'Go' }));
  // A daily goal, set with the session as the Goals page sets one.
  const goal = await page.evaluate(async () => {
    const res = await fetch('/main/api/v1/me/goals', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ period: 'week', seconds: 3600, title: 'An hour a week' }) });
    return res.status;
  });
  expect(goal).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  server?.remove();
});

/** Each view of `path` at both sizes in both colour schemes, checked by `check` and by axe. */
async function everyView(path: string, check: (view: { width: number; scheme: string }) => Promise<void>) {
  for (const size of sizes)
    for (const scheme of schemes) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      const view = `${path} at ${size.width} px, ${scheme}`;
      expect([view, await stickingOut(page)]).toEqual([view, []]);
      expect([view, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([view, size.width]);
      expect([view, await smallText(page)]).toEqual([view, []]);
      await check({ width: size.width, scheme });
      expect([view, (await axe(page)).violations.map(describeViolation)]).toEqual([view, []]);
    }
}

const card = (id: string) => page.locator(`section[aria-labelledby="${id}"]`);

describe.skipIf(!hasChromium)('the Overview', () => {
  it('splits each day by project with a legend, and shows categories, AI-assisted time by agent, systems, machines and goals; no desktop card', async () => {
    // The heartbeats' time is counted as they arrive; the page shows it once they are in.
    await expect.poll(async () => (await page.goto(`${base}/dashboard?range=7d`), await card('d-projects').textContent()), { timeout: 20_000 }).toContain('agentic');
    await everyView('/dashboard?range=7d', async ({ width }) => {
      const legend = await card('d-daily').locator('.legend-list li').allTextContents();
      expect([width, legend.map((l) => l.trim()).sort()]).toEqual([width, ['agentic', api, longProject].sort()]);
      // A column a day of the 7, each split: yesterday's three projects are three parts.
      const columns = card('d-daily').locator('svg.bars-columns');
      expect(await columns.getAttribute('viewBox')).toBe('0 0 70 100');
      expect(await columns.locator('rect title').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${yesterday}, ${longProject}: `))]));
      await expect(card('d-categories').textContent()).resolves.toMatch(/Coding[\s\S]*AI Coding|AI Coding[\s\S]*Coding/);
      await expect(card('d-categories').textContent()).resolves.toContain('Debugging');
      await expect(card('d-ai').getByRole('table', { name: 'Your AI-assisted time by agent' }).textContent()).resolves.toContain('Claude Code');
      await expect(card('d-ai').textContent()).resolves.toMatch(/\d+ %\) was AI-assisted/);
      const systems = await card('d-systems').textContent();
      expect([systems?.includes('Linux'), systems?.includes('Mac')]).toEqual([true, true]);
      const machines = await card('d-machines').textContent();
      expect([machines?.includes('desk-e2e'), machines?.includes('laptop-e2e')]).toEqual([true, true]);
      await expect(card('d-goals').textContent()).resolves.toContain('An hour a week');
      await expect(card('d-goals').getByRole('link', { name: /on Goals/ }).getAttribute('href')).resolves.toBe('/dashboard/goals');
      await expect(card('d-machines').getByRole('link', { name: /on Breakdowns/ }).getAttribute('href')).resolves.toBe('/dashboard/breakdowns?range=7d');
      // Plugins only: no desktop card, no desktop time.
      expect([width, await card('d-apps').count(), await page.getByText('desktop time').count()]).toEqual([width, 0, 0]);
      // Every name whole: the long project's, in its row and in the legend, not cut.
      const name = card('d-projects').getByRole('link', { name: longProject });
      expect([width, await name.evaluate((e) => e.closest('td')!.scrollWidth <= e.closest('td')!.clientWidth)]).toEqual([width, true]);
      const box = (await name.boundingBox())!;
      const cardBox = (await card('d-projects').boundingBox())!;
      expect([width, box.x >= cardBox.x, box.x + box.width <= cardBox.x + cardBox.width]).toEqual([width, true, true]);
    });
  });

  it('links each project row to its page, the range kept', async () => {
    await page.setViewportSize(sizes[0]);
    await page.goto(`${base}/dashboard?range=7d`, { waitUntil: 'networkidle' });
    await card('d-projects').getByRole('link', { name: api, exact: true }).click();
    await page.waitForURL(`${base}/dashboard/projects/${encodeURIComponent(api)}?range=7d`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(api);
    // A range the project page names otherwise (today, 90 days) goes along as its dates.
    await page.goto(`${base}/dashboard?from=${yesterday}&to=${yesterday}`, { waitUntil: 'networkidle' });
    await expect(card('d-projects').getByRole('link', { name: 'agentic' }).getAttribute('href')).resolves.toBe(`/dashboard/projects/agentic?from=${yesterday}&to=${yesterday}`);
  });

  it('draws a one-day range by hour, in the account\'s time zone', async () => {
    await everyView(`/dashboard?from=${yesterday}&to=${yesterday}`, async ({ width }) => {
      await expect(card('d-daily').getByRole('heading').textContent()).resolves.toBe(`${yesterday} by hour`);
      const hours = card('d-daily').locator('figure.by-hour svg.bars-columns');
      expect(await hours.getAttribute('viewBox')).toBe('0 0 240 100');
      const titles = await hours.locator('rect title').allTextContents();
      expect([width, titles.map((t) => t.slice(11, 22))]).toEqual([width, ['10:00-11:00', '13:00-14:00', '15:00-16:00']]);
      // The hours under the columns, none over another.
      const labels = await card('d-daily').locator('figure.by-hour .bars-labels span').evaluateAll((spans) =>
        spans.filter((s) => getComputedStyle(s).display !== 'none').map((s) => s.getBoundingClientRect().toJSON() as DOMRect),
      );
      expect([width, labels.length]).toEqual([width, width === 390 ? 4 : 12]);
      for (let i = 1; i < labels.length; i++) expect(labels[i].left).toBeGreaterThanOrEqual(labels[i - 1].right);
      // The day's split by project stays, with its legend.
      await expect(card('d-daily').locator('.legend-list').textContent()).resolves.toContain('agentic');
    });
    // Today too is a day by hour.
    await page.goto(`${base}/dashboard?range=today`, { waitUntil: 'networkidle' });
    expect(await card('d-daily').locator('figure.by-hour svg.bars-columns').count()).toBe(1);
  });
});
