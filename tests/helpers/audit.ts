import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import { launch } from 'chrome-launcher';
import runLighthouse, { type Result } from 'lighthouse';
import type { Page } from 'playwright-core';

// The audits of the public pages: Lighthouse (mobile, simulated throttling) in a fresh Chromium of
// its own, axe in a page that playwright-core opened, and the page's width.

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Nothing leaves the machine: no background networking, updates, sync or QUIC. */
export const chromiumFlags = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof categories)[number];

export interface FailingAudit {
  category: Category;
  id: string;
  title: string;
  /** 0..100 */
  score: number;
  /** As the report shows it ("1,230 ms", "3 elements"), if it has one. */
  value?: string;
  numericValue?: number;
  unit?: string;
  /** The first elements or resources the audit names (selectors, URLs). */
  items: string[];
}

export interface LighthouseRun {
  /** 0..100 per category. */
  scores: Record<Category, number>;
  /** The audits of the four categories that scored below 100, lowest first. */
  failing: FailingAudit[];
  /** The performance metrics in milliseconds (CLS unitless). */
  metrics: Record<'FCP' | 'LCP' | 'TBT' | 'CLS' | 'SI', number>;
  /** Lighthouse's measure of this machine's CPU speed during the run (higher is faster). */
  benchmarkIndex: number;
  /** The CPU slowdown the run's figures were simulated with. */
  cpuSlowdown: number;
  warnings: string[];
  json: string;
  html: string;
}

const metricAudits = { FCP: 'first-contentful-paint', LCP: 'largest-contentful-paint', TBT: 'total-blocking-time', CLS: 'cumulative-layout-shift', SI: 'speed-index' } as const;

type Item = { node?: { selector?: string }; url?: string; source?: { url?: string }; label?: string };

function itemsOf(audit: Result['audits'][string]): string[] {
  const details = audit.details as { items?: Item[] } | undefined;
  return (details?.items ?? [])
    .map((i) => i.node?.selector ?? i.url ?? i.source?.url ?? i.label)
    .filter((s): s is string => typeof s === 'string' && s !== '')
    .slice(0, 5);
}

/** Lighthouse's CPU slowdown by default: a high-end desktop's CPU slowed to a mid-tier phone's. */
export const DEFAULT_CPU_SLOWDOWN = 4;
/** One Lighthouse run of `url` with its default settings (mobile form factor, simulated throttling), or another CPU slowdown. */
export async function lighthouse(url: string, cpuSlowdown = DEFAULT_CPU_SLOWDOWN): Promise<LighthouseRun> {
  const chrome = await launch({ chromePath: chromiumPath, chromeFlags: ['--headless', ...chromiumFlags], logLevel: 'silent' });
  try {
    const result = await runLighthouse(url, {
      port: chrome.port,
      output: ['json', 'html'],
      logLevel: 'error',
      onlyCategories: [...categories],
      throttling: { cpuSlowdownMultiplier: cpuSlowdown },
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const failing = categories.flatMap((category) =>
      lhr.categories[category].auditRefs
        .map((ref) => lhr.audits[ref.id])
        .filter((a) => a.score !== null && a.score < 1)
        .map((a) => ({
          category,
          id: a.id,
          title: a.title,
          score: Math.round(a.score! * 100),
          value: a.displayValue,
          numericValue: a.numericValue,
          unit: a.numericUnit,
          items: itemsOf(a),
        })),
    );
    const [json, html] = result.report as string[];
    return {
      scores: Object.fromEntries(categories.map((c) => [c, Math.round((lhr.categories[c].score ?? 0) * 100)])) as Record<Category, number>,
      failing: failing.sort((a, b) => a.score - b.score),
      metrics: Object.fromEntries(Object.entries(metricAudits).map(([name, id]) => [name, lhr.audits[id].numericValue ?? NaN])) as LighthouseRun['metrics'],
      benchmarkIndex: lhr.environment.benchmarkIndex,
      cpuSlowdown: lhr.configSettings.throttling.cpuSlowdownMultiplier,
      warnings: lhr.runWarnings.map(String),
      json,
      html,
    };
  } finally {
    chrome.kill();
  }
}

/** A failing audit on one line: category, id, title, score, figure and the first elements it names. */
export function describeAudit(a: FailingAudit): string {
  const figure = a.value ? `: ${a.value}` : '';
  const items = a.items.length ? ` [${a.items.join(' | ')}]` : '';
  return `${a.category} ${a.id} "${a.title}" ${a.score}${figure}${items}`;
}

export interface AxeViolation {
  rule: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

const axeSource = createRequire(import.meta.url).resolve('axe-core');

/** Runs axe-core (its default rules) in the page as it is now. */
export async function axe(page: Page): Promise<{ violations: AxeViolation[]; results: AxeResults }> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource });
  const results = await page.evaluate(() => (window as unknown as { axe: typeof import('axe-core') }).axe.run({ resultTypes: ['violations'] }));
  const violations = results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact ?? null,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
  }));
  return { violations, results };
}

/** A violation on one line: rule, impact, what to fix, and the elements (the first five). */
export function describeViolation(v: AxeViolation): string {
  const more = v.nodes.length > 5 ? ` and ${v.nodes.length - 5} more` : '';
  const fix = (v.nodes[0]?.summary ?? '').split('\n').map((l) => l.trim()).filter(Boolean).join(' ');
  return `${v.rule} (${v.impact}) "${v.help}" on ${v.nodes.length} element(s): ${v.nodes.slice(0, 5).map((n) => n.target).join(' | ')}${more}. ${fix}`;
}

/** How wide the page is laid out: wider than the viewport means it scrolls sideways. */
export function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/**
 * The elements that make the page wider than the viewport: those reaching past its right edge
 * that no scrolling box clips (an absolutely positioned one escapes a box that is not positioned),
 * the first of each branch, widest first; named by tag, id, classes and the start of their text.
 */
export function stickingOut(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const edge = document.documentElement.clientWidth;
    const out = (e: Element) => e.getBoundingClientRect().right > edge + 0.5;
    const clipped = (e: Element) => {
      for (let a: Element | null = e; a; ) {
        let box: Element | null = a.parentElement;
        if (getComputedStyle(a).position === 'absolute') while (box && getComputedStyle(box).position === 'static') box = box.parentElement;
        if (!box || box === document.body) return false;
        if (getComputedStyle(box).overflowX !== 'visible') return true;
        a = box;
      }
      return false;
    };
    const widening = (e: Element | null) => !!e && out(e) && !clipped(e);
    const name = (e: Element) => {
      const text = (e.textContent ?? '').trim().slice(0, 40);
      return `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${[...e.classList].map((c) => `.${c}`).join('')}${text ? ` "${text}"` : ''}`;
    };
    const found = [...document.body.querySelectorAll('*')]
      .filter((e) => widening(e) && !widening(e.parentElement))
      .map((e) => ({ name: `${e.parentElement!.tagName.toLowerCase()} > ${name(e)}`, right: Math.round(e.getBoundingClientRect().right) }))
      .sort((a, b) => b.right - a.right);
    // The widest of each name.
    return found
      .filter((f, i) => found.findIndex((g) => g.name === f.name) === i)
      .map((f) => `${f.name} (to ${f.right} px)`)
      .slice(0, 10);
  });
}

/**
 * Visible text drawn under 9 px: HTML by its computed font size, SVG text by its font size times
 * the scale its SVG is drawn at. Named by tag, class and text.
 */
export function smallText(on: Page): Promise<string[]> {
  return on.evaluate(() => {
    const out: string[] = [];
    const shown = (e: Element) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden' && !e.closest('.sr-only');
    };
    for (const e of document.body.querySelectorAll('*')) {
      const own = [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (!own || !shown(e)) continue;
      let size = parseFloat(getComputedStyle(e).fontSize);
      if (e instanceof SVGGraphicsElement) {
        const m = e.getScreenCTM();
        if (m) size *= Math.min(Math.hypot(m.a, m.b), Math.hypot(m.c, m.d));
      }
      if (size < 9) out.push(`${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${e.textContent!.trim().slice(0, 30)}" ${size.toFixed(1)} px`);
    }
    return out.slice(0, 10);
  });
}
