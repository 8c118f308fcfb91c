import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataContentSecurityPolicy } from '@/lib/http/site-headers';
import { axe, chromiumFlags, chromiumPath, describeViolation, pageWidth, stickingOut } from '../helpers/audit';
import { passwordUser } from '../helpers/forms';
import { startTestServer, type TestServer } from '../helpers/server';

// Wakapi's README badge URLs on a running server: at the site root, with the API's headers (never a
// page's), readable from any origin and cached; a private profile, an unshared language and a
// project whose badge is not public read "badge not found" as an unknown user does; the project
// page's "Public badge" card turns a project's on, in Chromium at a desktop's and a phone's width,
// light and dark, with axe on the page.

const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser checks, but there is no Chromium at ${chromiumPath}`);

const today = new Date().toISOString().slice(0, 10);

describe("Wakapi's badge URLs on a running server", () => {
  // A server of its own: the suite's shared one takes ten sign-ups an hour from one address.
  let server: TestServer;
  let base: string;
  let cookie: string;
  let handle: string;
  beforeAll(async () => {
    server = await startTestServer({});
    base = server.baseUrl;
    ({ cookie } = await passwordUser(base));
    const me = (await (await fetch(`${base}/main/api/v1/me`, { headers: { cookie } })).json()) as { handle: string };
    handle = me.handle;
    const made = await fetch(`${base}/main/api/v1/me/tokens`, { method: 'POST', headers: { cookie, origin: base, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'laptop', scopes: ['sync'] }) });
    const { token } = (await made.json()) as { token: string };
    const activities = [
      { date: today, hour: 0, language: 'Go', project_name: 'myapp', time: 3600 },
      { date: today, hour: 1, language: 'Rust', project_name: 'client work', time: 1200 },
    ];
    const sent = await fetch(`${base}/main/api/v1/sync/activities`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ activities }) });
    expect(sent.status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    server?.remove();
  });

  const settings = (values: Record<string, boolean>) =>
    fetch(`${base}/main/api/v1/me`, { method: 'PATCH', headers: { cookie, origin: base, 'content-type': 'application/json' }, body: JSON.stringify({ settings: values }) });

  it('answer with the API\'s headers, and as for an unknown user for whatever is not shared', async () => {
    const unknown = await fetch(`${base}/api/compat/shields/v1/nobody_at_all/interval:today`);
    const unknownBody = await unknown.json();
    expect(unknown.status).toBe(404);
    const privateOne = await fetch(`${base}/api/compat/shields/v1/${handle}/interval:today`);
    expect([privateOne.status, await privateOne.json()]).toEqual([404, unknownBody]);

    expect((await settings({ profile_public: true })).status).toBe(200);
    const image = await fetch(`${base}/api/badge/${handle}/interval:today`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toContain('image/svg+xml');
    expect(image.headers.get('content-security-policy')).toBe(dataContentSecurityPolicy);
    expect(image.headers.get('x-frame-options')).toBeNull();
    expect(image.headers.get('access-control-allow-origin')).toBe('*');
    expect(image.headers.get('cache-control')).toMatch(/^public/);
    expect(await image.text()).toContain('1 hrs 20 mins');
    const again = await fetch(`${base}/api/badge/${handle}/interval:today`, { headers: { 'if-none-match': image.headers.get('etag')! } });
    expect(again.status).toBe(304);

    const json = await fetch(`${base}/api/compat/shields/v1/${handle}/interval:7_days`);
    expect(json.headers.get('content-security-policy')).toBe(dataContentSecurityPolicy);
    expect(await json.json()).toEqual({ schemaVersion: 1, label: 'codetally', message: '1 hrs 20 mins', color: '2F855A', cacheSeconds: 60 });

    const language = `${base}/api/compat/shields/v1/${handle}/interval:today/language:Go`;
    expect([(await fetch(language)).status]).toEqual([404]);
    expect((await settings({ share_languages: true })).status).toBe(200);
    expect(((await (await fetch(language)).json()) as { message: string }).message).toBe('1 hrs 0 mins');

    // Another method: the API's 405, never a page.
    const posted = await fetch(`${base}/api/badge/${handle}/interval:today`, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('content-type')).toContain('json');
  });

  describe.skipIf(!hasChromium)('in a browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    });
    afterAll(() => browser?.close());

    it("a project's badge is made public on its page, which fits every width and passes axe", async () => {
      await settings({ profile_public: true });
      const project = `${base}/api/compat/shields/v1/${handle}/interval:today/project:myapp`;
      expect((await fetch(project)).status).toBe(404);
      const session = cookie.split('; ').map((c) => {
        const [name, ...value] = c.split('=');
        return { name, value: value.join('='), url: base };
      });
      const looks = [
        { name: 'desktop, light', viewport: { width: 1366, height: 900 }, colorScheme: 'light' as const },
        { name: 'desktop, dark', viewport: { width: 1366, height: 900 }, colorScheme: 'dark' as const },
        { name: 'phone, light', viewport: { width: 390, height: 844 }, colorScheme: 'light' as const, isMobile: true },
        { name: 'phone, dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' as const, isMobile: true },
      ];
      for (const [i, look] of looks.entries()) {
        const context = await browser.newContext(look);
        await context.addCookies(session);
        const page = await context.newPage();
        await page.goto(`${base}/dashboard/projects/myapp`, { waitUntil: 'networkidle' });
        const card = page.locator('section[aria-labelledby="p-badge"]');
        // The first look turns it on; the others see it on, with its URL.
        if (i === 0) {
          await card.getByRole('button', { name: /make this project’s badge public/i }).click();
          await card.getByLabel('Badge URL').waitFor();
        }
        await expect(card.getByLabel('Badge URL').inputValue()).resolves.toMatch(new RegExp(`/api/badge/${handle}/interval:30_days/project:myapp$`));
        expect([look.name, await pageWidth(page), await stickingOut(page)]).toEqual([look.name, look.viewport.width, []]);
        const { violations } = await axe(page);
        expect([look.name, violations.map(describeViolation)]).toEqual([look.name, []]);
        await context.close();
      }
      expect(((await (await fetch(project)).json()) as { message: string }).message).toBe('1 hrs 0 mins');
      // Another project stays unshared.
      expect((await fetch(`${base}/api/compat/shields/v1/${handle}/interval:today/project:${encodeURIComponent('client work')}`)).status).toBe(404);
    });
  });
});
