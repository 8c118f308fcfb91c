import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, chromiumFlags, chromiumPath, describeAudit, describeViolation, lighthouse, pageWidth, stickingOut, type Category } from '../helpers/audit';
import { auditedHandle, auditedPages, startAuditedSite } from '../helpers/audit-site';
import type { TestServer } from '../helpers/server';

// The public pages, with a year of data behind them: Lighthouse (mobile, its defaults)
// accessibility, best practices and SEO 100; axe finds nothing, on a phone and a desktop, in a
// light and a dark colour scheme; and no page is wider than a 375 px phone (that they hold no client
// component of ours: tests/e2e/public-pages.test.ts). On either host (TEST_HOST=next runs them on plain `next start`). No
// speed figure is asserted here: how fast the pages are depends on the machine and what else it
// runs, so it is measured by `npm run bench:lighthouse` beside the framework's floor (a hello-world
// page of the same next and react), never as a pass or fail. Lighthouse's reports, axe's results
// and a summary are saved under test-results/audit, beside the browser suite's screenshots.

const goals: Record<Exclude<Category, 'performance'>, number> = { accessibility: 100, 'best-practices': 100, seo: 100 };
const reports = path.resolve('test-results/audit');
const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the audits, but there is no Chromium at ${chromiumPath}`);

const devices = { phone: { width: 375, height: 667 }, desktop: { width: 1280, height: 800 } };

let server: TestServer & { port: number };
let browser: Browser;
let html: Record<string, string>;
const summary: Record<string, unknown> = {};

beforeAll(async () => {
  if (!hasChromium) return;
  fs.mkdirSync(reports, { recursive: true });
  ({ server, html } = await startAuditedSite());
  expect(html.home, 'the home page shows the site-wide figures').toContain('Weekly trend');
  expect(html.leaderboard, `the leaderboard lists @${auditedHandle}`).toContain(`href="/u/${auditedHandle}"`);
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  server?.remove();
  if (Object.keys(summary).length) fs.writeFileSync(path.join(reports, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
});

describe.skipIf(!hasChromium)('the public pages meet their goals', () => {
  for (const [name, url] of Object.entries(auditedPages)) {
    it(`${url}: Lighthouse accessibility, best practices and SEO, axe in light and dark, no wider than a 375 px phone`, async () => {
      const lh = await lighthouse(`${server.baseUrl}${url}`);
      fs.writeFileSync(path.join(reports, `${name}-lighthouse.json`), lh.json);
      fs.writeFileSync(path.join(reports, `${name}-lighthouse.html`), lh.html);
      for (const [c, goal] of Object.entries(goals) as [Category, number][]) {
        const failing = lh.failing.filter((a) => a.category === c).map(describeAudit);
        expect.soft(lh.scores[c], `${url}: Lighthouse ${c} is ${lh.scores[c]}, the goal ${goal}; failing audits:\n  ${failing.join('\n  ')}\n`).toBeGreaterThanOrEqual(goal);
      }

      const figures = { url, lighthouse: { scores: lh.scores, metrics: lh.metrics, benchmarkIndex: lh.benchmarkIndex, warnings: lh.warnings }, failing: lh.failing, axe: {} as Record<string, unknown>, width: 0, stickingOut: [] as string[] };
      for (const [device, viewport] of Object.entries(devices)) {
        const context = await browser.newContext({ viewport, isMobile: device === 'phone', hasTouch: device === 'phone' });
        const tab = await context.newPage();
        await tab.goto(`${server.baseUrl}${url}`, { waitUntil: 'networkidle' });
        if (device === 'phone') {
          figures.width = await pageWidth(tab);
          figures.stickingOut = figures.width > 375 ? await stickingOut(tab) : [];
          expect.soft(figures.width, `${url}: laid out ${figures.width} px wide on a 375 px phone; sticking out:\n  ${figures.stickingOut.join('\n  ')}\n`).toBeLessThanOrEqual(375);
        }
        for (const colorScheme of ['light', 'dark'] as const) {
          await tab.emulateMedia({ colorScheme });
          const { violations, results } = await axe(tab);
          fs.writeFileSync(path.join(reports, `${name}-axe-${device}-${colorScheme}.json`), JSON.stringify(results, null, 2));
          figures.axe[`${device}-${colorScheme}`] = violations;
          expect.soft(violations.map(describeViolation), `${url}: axe violations on a ${device} in ${colorScheme}`).toEqual([]);
        }
        await context.close();
      }
      summary[name] = figures;
    }, 600_000);
  }
});
