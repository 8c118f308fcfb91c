import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// The public pages as the real server answers them: what crawlers are told (robots.txt, the
// sitemap), the prices on the pricing page, the plan a visitor chose on the sign-up page, the 404
// page, the favicon and a profile's social image; that the public pages hold no client component
// of the site's own; in Chromium, the sign-up from a plan's button without JavaScript, the pages at
// a phone's width, and the shell's script on public pages and on forms.
const base = inject('baseUrl');
const api = `${base}/main/api/v1`;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// As the browser suite: without Chromium these say so and skip, except in CI.
const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser checks, but there is no Chromium at ${chromiumPath}`);

async function newUser(settings: Record<string, boolean>) {
  const res = await fetch(`${api}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle: `pp${Math.random().toString(36).slice(2, 10)}`, settings, token: { scopes: ['account', 'sync'] } }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { user: { id: string; handle: string }; token: string };
}

const settings = (token: string, body: Record<string, boolean>) =>
  fetch(`${api}/me`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ settings: body }) });

const page = async (path: string) => {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), html: await res.text() };
};

/** The text of the page's <main>, tags dropped. */
const mainText = (html: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(html)![1].replace(/<!--.*?-->/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('robots.txt and the sitemap', () => {
  it('robots.txt lets the public pages be crawled, keeps the dashboard and the APIs out, and names the sitemap', async () => {
    const { status, type, html: text } = await page('/robots.txt');
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    const lines = text.trim().split('\n');
    expect(lines).toContain('User-Agent: *');
    expect(lines).toContain('Allow: /');
    for (const path of ['/dashboard', '/auth/', '/api/', '/main/api/']) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain('Allow: /main/api/v1/public/');
    expect(lines.at(-1)).toMatch(/^Sitemap: http:\/\/.+\/sitemap\.xml$/);
  });

  it('the sitemap lists the public pages and public profiles only, and drops a profile made private at once', async () => {
    const shown = await newUser({ profile_public: true });
    const hidden = await newUser({ profile_public: false, leaderboard: true, share_languages: true });
    const locations = async () => {
      const res = await page('/sitemap.xml');
      expect(res.status).toBe(200);
      expect(res.type).toMatch(/^application\/xml/);
      return [...res.html.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
    };
    const listed = await locations();
    expect(listed.slice(0, 8)).toEqual(['/', '/leaderboard', '/pricing', '/docs', '/docs/wakatime', '/docs/readme-cards', '/docs/api', '/docs/errors']);
    expect(listed).toContain(`/u/${shown.user.handle}`);
    expect(listed).not.toContain(`/u/${hidden.user.handle}`);
    // Served from the cache until which profiles are public changes.
    expect(await locations()).toEqual(listed);
    expect((await settings(shown.token, { profile_public: false })).status).toBe(200);
    expect(await locations()).not.toContain(`/u/${shown.user.handle}`);
    expect((await settings(hidden.token, { profile_public: true })).status).toBe(200);
    expect(await locations()).toContain(`/u/${hidden.user.handle}`);
  });
});

describe('the pricing page', () => {
  it('reads prices as a visitor compares them: $0 forever, whole dollars a month, the export on every plan', async () => {
    const { status, html } = await page('/pricing');
    expect(status).toBe(200);
    const text = mainText(html);
    expect(text).toContain('$0 forever');
    expect(text).toContain('$9 / month');
    expect(text).toContain('$19 / month');
    expect(text).not.toMatch(/\.00|Free Free|Full data export/);
    expect(text).toContain('Export of all your data, any time');
    expect(html).toContain('href="/signup?plan=pro"');
  });
});

describe('the sign-up page', () => {
  it('names the paid plan chosen on the pricing page, says there is no checkout yet, and sends the choice with the form', async () => {
    const { status, html } = await page('/signup?plan=pro');
    expect(status).toBe(200);
    expect(mainText(html)).toMatch(/You chose Pro \(\$9 \/ month\)\. Paid plans have no checkout yet, so your account starts on Free and nothing is charged\./);
    expect(html).toMatch(/<input type="hidden" name="plan" value="pro"\/>/);
  });

  it('names the free plan without talking of checkout', async () => {
    const text = mainText((await page('/signup?plan=free')).html);
    expect(text).toContain('You chose Free ($0 forever).');
    expect(text).not.toContain('checkout');
  });

  it('ignores a plan it does not list, and a repeated parameter', async () => {
    for (const query of ['?plan=enterprise', '?plan=founder', '?plan=%3Cb%3E', '?plan=pro&plan=team', '']) {
      const { status, html } = await page(`/signup${query}`);
      expect([query, status]).toEqual([query, 200]);
      expect([query, mainText(html).includes('You chose')]).toEqual([query, false]);
      expect([query, html.includes('name="plan"')]).toEqual([query, false]);
    }
  });
});

describe('the public pages, light on any host', () => {
  // What a page hydrates is what a phone pays for (decision 0020): the public pages come with
  // Next's runtime and nothing of the site's own to run. Next's build lists, per page, the client
  // components its tree holds; the site's own are files under app/ or lib/.
  it('hold no client component of the site\'s own; the pages with forms do', () => {
    const manifest = (page: string) => fs.readFileSync(path.resolve('.next/server/app', page, 'page_client-reference-manifest.js'), 'utf8');
    const ours = (page: string) => [...new Set([...manifest(page).matchAll(/\[project\]\/((?:app|lib)\/[^"\s]+\.tsx?)/g)].map((m) => m[1]))];
    for (const page of ['.', 'leaderboard', 'leaderboard/view', 'pricing', 'docs', 'docs/wakatime', 'docs/readme-cards', 'docs/errors', 'docs/api', 'docs/api/[route]', 'u/[handle]']) {
      expect([page, ours(page)]).toEqual([page, []]);
    }
    for (const page of ['signin', 'dashboard']) expect([page, ours(page).length > 0]).toEqual([page, true]);
  });

  it('are whole HTML before any script runs: the figures and the navigation are in the document', async () => {
    const shown = await newUser({ profile_public: true, share_languages: true });
    for (const path of ['/', '/leaderboard', '/leaderboard?range=30d', '/pricing', '/docs', '/docs/wakatime', '/docs/api/post-sync-activities', `/u/${shown.user.handle}`]) {
      const { status, html } = await page(path);
      expect([path, status]).toEqual([path, 200]);
      expect([path, mainText(html).length > 40, html.includes('href="/leaderboard"')]).toEqual([path, true, true]);
    }
  });
});

describe("a profile's AI-assisted coding", () => {
  it('shows only while the owner shares it (share_ai): the time, its share, the lines by agents and by hand, the agent as an editor', async () => {
    const owner = await newUser({ profile_public: true, share_editors: true });
    const date = new Date().toISOString().slice(0, 10);
    const hour = Math.max(0, new Date().getUTCHours() - 1);
    const sync = await fetch(`${api}/sync/activities`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        activities: [
          // Sent by the agent's own plugin (claude-code-wakatime), which names itself as the editor.
          { date, hour, language: 'Go', time: 1800, project_name: 'p', category: 'ai coding', ai_agent: 'Claude', ai_lines: 120, human_lines: -2, ide_name: 'claude-code' },
          { date, hour, language: 'Go', time: 1800, project_name: 'p', machine: 'desk-9f' },
        ],
      }),
    });
    expect(sync.status).toBe(200);
    const profile = async () => mainText((await page(`/u/${owner.user.handle}`)).html);
    const hidden = await profile();
    expect(hidden).toContain('1 hr');
    expect(hidden).not.toMatch(/AI|Claude|\+120|desk-9f/);
    expect(hidden).toContain('Editors');
    expect((await settings(owner.token, { share_ai: true })).status).toBe(200);
    const shown = await profile();
    expect(shown).toContain('AI-assisted coding, last 30 days');
    expect(shown).toMatch(/30 mins \(50 %\) with an AI agent/);
    // Only what was sent: no deletion by the agent, no addition by hand.
    expect(shown).toMatch(/120 added lines by AI agents 2 deleted lines by hand/);
    expect(shown).toContain('Claude Code');
    // Machines stay private: sharing AI figures shares nothing else.
    expect(shown).not.toContain('desk-9f');
  });
});

describe('the chart images of the public pages', () => {
  // The home page's and a profile's charts are the embeddable images (lib/charts), which proxy.ts
  // sends to the cached route; a conditional GET stays on the route that answers per request.
  const imagesOf = (html: string) => [...new Set([...html.matchAll(/<(?:img|source)[^>]+(?:src|srcSet)="(\/main\/api\/v1\/public\/charts\/[^"]+)"/gi)].map((m) => m[1].replaceAll('&amp;', '&')))];

  it('load on the home page and a profile, the same image again from the cache, 304 to a conditional GET; a profile turned private loses them', async () => {
    const shown = await newUser({ profile_public: true, share_languages: true });
    const activities = [{ language: 'TypeScript', time: 1800, hour: 9, ide_name: 'vscode' }];
    const sent = await fetch(`${api}/sync/activities`, { method: 'POST', headers: { authorization: `Bearer ${shown.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ activities }) });
    expect(sent.status).toBe(200);
    // The home page shows them once enough people share community statistics (until then it says
    // so); they answer either way.
    const community = '/main/api/v1/public/charts/community';
    const home = new Set([...imagesOf((await page('/')).html), `${community}/languages.svg?range=30d&theme=light`, `${community}/weekly.svg?theme=dark`]);
    const profile = imagesOf((await page(`/u/${shown.user.handle}`)).html);
    expect(profile).toHaveLength(6); // the year, when in the week and the weeks, light and dark
    for (const src of [...home, ...profile]) {
      const first = await fetch(`${base}${src}`);
      expect([src, first.status, first.headers.get('content-type')]).toEqual([src, 200, 'image/svg+xml; charset=utf-8']);
      const svg = await first.text();
      expect(svg).toMatch(/^<svg[^>]*>[\s\S]*<title id="chart-title">/);
      const again = await fetch(`${base}${src}`);
      expect(await again.text()).toBe(svg);
      const etag = again.headers.get('etag');
      expect(etag).toBeTruthy();
      const conditional = await fetch(`${base}${src}`, { headers: { 'if-none-match': etag! } });
      if (conditional.status === 200 && src.startsWith(community)) {
        // The site-wide figures move with every other test's writes: the cached copy may be a
        // release behind, and then the answer is the newer image under a new tag, which holds.
        const newer = await conditional.text();
        expect(newer).not.toBe(svg);
        const tag = conditional.headers.get('etag');
        expect(tag).not.toBe(etag);
        expect((await fetch(`${base}${src}`, { headers: { 'if-none-match': tag! } })).status).toBe(304);
      } else {
        expect([src, conditional.status]).toEqual([src, 304]);
      }
    }
    expect((await settings(shown.token, { profile_public: false })).status).toBe(200);
    for (const src of profile) expect([src, (await fetch(`${base}${src}`)).status]).toEqual([src, 404]);
  });
});

describe('the 404 page', () => {
  it('answers 404 with noindex for a missing page, a private profile and a route the docs do not have; rendered on the server where no page called notFound()', async () => {
    const { user } = await newUser({ profile_public: false });
    for (const path of ['/no-such-page', `/u/${user.handle}`, '/docs/api/no-such-route']) {
      const { status, html } = await page(path);
      expect([path, status]).toEqual([path, 404]);
      expect([path, html.match(/<meta name="robots"[^>]*>/g)]).toEqual([path, ['<meta name="robots" content="noindex"/>']]);
    }
    const missing = (await page('/no-such-page')).html;
    expect(missing).toContain('<title>Not found · Codetally</title>');
    expect(mainText(missing)).toContain('There is nothing public here.');
  });
});

describe('icons and social images', () => {
  it('/favicon.ico is an icon, and pages link it besides the SVG icon', async () => {
    const res = await fetch(`${base}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    const ico = Buffer.from(await res.arrayBuffer());
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 3]);
    const head = (await page('/pricing')).html;
    expect(head).toMatch(/<link rel="icon" href="\/favicon\.ico[^"]*"/);
    expect(head).toMatch(/<link rel="icon" href="\/icon\.svg[^"]*"[^>]*type="image\/svg\+xml"/);
  });

  it('a public profile\'s social image is a 1200 x 630 PNG; a private one\'s is a 404, as its page is', async () => {
    const shown = await newUser({ profile_public: true, share_languages: true });
    const hidden = await newUser({ profile_public: false, share_languages: true });
    const activities = [{ language: 'TypeScript', time: 1800, hour: 9, ide_name: 'vscode' }];
    for (const { token } of [shown, hidden]) {
      const sent = await fetch(`${api}/sync/activities`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ activities }) });
      expect(sent.status).toBe(200);
    }
    const image = await fetch(`${base}/u/${shown.user.handle}/opengraph-image`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await image.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    expect((await fetch(`${base}/u/${hidden.user.handle}/opengraph-image`)).status).toBe(404);
    // Made private: its image goes at once.
    expect((await settings(shown.token, { profile_public: false })).status).toBe(200);
    expect((await fetch(`${base}/u/${shown.user.handle}/opengraph-image`)).status).toBe(404);
  });
});

describe.skipIf(!hasChromium)('in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
  });
  afterAll(() => browser?.close());

  it('without JavaScript, a sign-up from a plan\'s button keeps the plan through a refused form and names it on the dashboard', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    const taken = (await newUser({ profile_public: false })).user.handle;
    const plan = page.locator('[data-plan="pro"]');
    await page.goto(`${base}/signup?plan=pro`);
    await expect(plan.textContent()).resolves.toMatch(/You chose Pro/);
    await page.getByLabel('Handle').fill(taken);
    await page.getByLabel('Email').fill(`${taken}@example.test`);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.locator('#f-handle-error').textContent()).resolves.toMatch(/taken/);
    await expect(plan.textContent()).resolves.toMatch(/no checkout yet/);
    const handle = `pq${Math.random().toString(36).slice(2, 10)}`;
    await page.getByLabel('Handle').fill(handle);
    await page.getByLabel('Email').fill(`${handle}@example.test`);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    // Signed in at once, on the dashboard's welcome, which names the plan.
    await page.waitForURL(/\/dashboard\?welcome=1&plan=pro$/);
    await expect(plan.textContent()).resolves.toMatch(/You chose Pro \(\$9 \/ month\)\. Paid plans have no checkout yet/);
    await context.close();
  });

  it('a profile\'s chart images are of the theme shown: the system\'s, then the switch\'s, on this page and the next; only the shown one is fetched', async () => {
    const shown = await newUser({ profile_public: true, share_languages: true });
    const sent = await fetch(`${api}/sync/activities`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shown.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ activities: [{ language: 'Go', time: 1200, hour: 8, ide_name: 'vscode' }] }),
    });
    expect(sent.status).toBe(200);
    const context = await browser.newContext({ colorScheme: 'dark' });
    const tab = await context.newPage();
    const fetched: string[] = [];
    tab.on('request', (r) => r.url().includes('/public/charts/') && fetched.push(new URL(r.url()).searchParams.get('theme')!));
    const themes = () => tab.locator('.chart-image img').evaluateAll((imgs) => imgs.map((i) => new URL((i as HTMLImageElement).currentSrc).searchParams.get('theme')));
    await tab.goto(`${base}/u/${shown.user.handle}`, { waitUntil: 'networkidle' });
    // The year is fetched at once; when in the week and the weeks as they come near the screen.
    await tab.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(themes).toEqual(['dark', 'dark', 'dark']);
    expect(fetched.every((t) => t === 'dark')).toBe(true);
    await tab.getByRole('button', { name: 'Light mode' }).click();
    await expect.poll(themes).toEqual(['light', 'light', 'light']);
    await tab.reload({ waitUntil: 'networkidle' });
    await tab.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(themes).toEqual(['light', 'light', 'light']);
    await context.close();
  });

  it('the shell\'s theme switch works on a public page and on a form React runs, without an error; a 404 of notFound() shows its text', async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    tab.on('console', (m) => m.type() === 'error' && !/status of 404/.test(m.text()) && errors.push(m.text()));
    const theme = () => tab.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.documentElement).backgroundColor]);
    await tab.goto(`${base}/pricing`, { waitUntil: 'networkidle' });
    await tab.getByRole('button', { name: 'Light mode' }).click();
    expect(await theme()).toEqual(['light', 'rgb(255, 255, 255)']);
    await tab.goto(`${base}/signin`, { waitUntil: 'networkidle' });
    expect(await theme()).toEqual(['light', 'rgb(255, 255, 255)']);
    await tab.getByRole('button', { name: 'Dark mode' }).click();
    expect(await theme()).toEqual(['dark', 'rgb(15, 18, 24)']);
    await tab.getByLabel('Email').fill('someone@example.test');
    // A private profile: Next leaves the not-found page of a page that called notFound() to the browser (its issue 62228).
    const { user } = await newUser({ profile_public: false });
    await tab.goto(`${base}/u/${user.handle}`, { waitUntil: 'networkidle' });
    await tab.getByText('There is nothing public here.').waitFor();
    expect(await tab.title()).toBe('Not found · Codetally');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the pricing page and the sign-up page fit a 375 px phone', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
    const page = await context.newPage();
    for (const path of ['/pricing', '/signup?plan=pro', '/no-such-page']) {
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      expect([path, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([path, 375]);
    }
    // Every plan's column of the comparison table is on screen, none cut off.
    await page.goto(`${base}/pricing`, { waitUntil: 'networkidle' });
    const table = await page.locator('table').boundingBox();
    expect(table!.x + table!.width).toBeLessThanOrEqual(375);
    await context.close();
  });
});
