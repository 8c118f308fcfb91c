import type { MetadataRoute } from 'next';
import type { Db } from '../../db/client';
import { publicProfileHandles } from '../../sharing/gate';

// What crawlers are told: robots.txt (app/robots.ts) and the sitemap (app/sitemap.ts), with
// absolute URLs at the site's configured origin (lib/http/origin.ts configuredOrigin).

/** The pages that are the same for every visitor, the home page first. */
export const publicPagePaths = ['/', '/leaderboard', '/pricing', '/docs', '/docs/wakatime', '/docs/readme-cards', '/docs/api', '/docs/errors'];

/** The most URLs one sitemap may hold (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * Everything public may be crawled. Kept out: the account's pages (the dashboard, sign-in
 * callbacks), the APIs, which are for programs, and the operators' metrics. Badge images stay allowed: they are embedded
 * in other sites' pages (READMEs), and a crawler that indexes such a page fetches them.
 */
export function robotsRules(origin: string): MetadataRoute.Robots {
  return {
    rules: {
      userAgent: '*',
      allow: ['/', '/main/api/v1/public/'],
      disallow: ['/dashboard', '/auth/', '/api/', '/main/api/', '/metrics'],
    },
    sitemap: `${origin}/sitemap.xml`,
  };
}

/**
 * The public pages and `more` of them (the API reference's route pages), then every public
 * profile (`publicProfileHandles`: never a private one), up to the sitemap's limit. Without a
 * database (a build that cannot reach it), the pages alone.
 */
export async function sitemapEntries(db: Db | null, origin: string, more: string[] = []): Promise<MetadataRoute.Sitemap> {
  const pages = [...publicPagePaths, ...more].map((path) => ({ url: new URL(path, origin).href }));
  if (!db) return pages;
  const handles = await publicProfileHandles(db, SITEMAP_MAX_URLS - pages.length);
  return [...pages, ...handles.map((handle) => ({ url: new URL(`/u/${encodeURIComponent(handle)}`, origin).href }))];
}
