import path from 'node:path';
import type { NextConfig } from 'next';
import { siteHeaderRules } from './lib/http/site-headers';
import { publicPages } from './lib/web/public/page-list';
import { wakatimeAliasRewrites } from './lib/wakatime/paths';

const nextConfig: NextConfig = {
  // .next/standalone: the server with only the files it needs (completed by scripts/bundle.mjs).
  output: 'standalone',
  // PGlite loads its WASM and data files from its own package directory at run time; prom-client
  // (lib/metrics) is loaded from node_modules as Node would, once, rather than copied per bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'prom-client'],
  poweredByHeader: false,
  // The one stylesheet (a few kB) goes in each page's <head>: no render-blocking request on a
  // phone's first visit.
  experimental: { inlineCss: true },
  // Pages and routes served from the cache are checked against what changed, in every process
  // (lib/cache/next-handler.mjs). Vercel keeps its own cache, revalidated by tag.
  cacheHandler: process.env.VERCEL ? undefined : path.resolve('lib/cache/next-handler.mjs'),
  async rewrites() {
    // The leaderboard's default view is cached; a view with a query is rendered per request.
    // (Badges are sent to their cached route by proxy.ts, which can tell a GET.)
    // WakaTime's path layout, /api/v1/..., and Wakapi's, /api/..., are the WakaTime-compatible API's (lib/wakatime/paths.ts).
    return {
      beforeFiles: [
        ...['range', 'language', 'page'].map((key) => ({ source: '/leaderboard', has: [{ type: 'query' as const, key }], destination: '/leaderboard/view' })),
        ...wakatimeAliasRewrites,
      ],
      afterFiles: [],
      fallback: [],
    };
  },
  async headers() {
    return [
      // What every answer carries, and pages or data and images each (lib/http/site-headers.ts).
      ...siteHeaderRules(),
      // The public pages Next caches: a shared cache (CDN) may keep them a minute; a browser asks
      // every time (the server answers from its cache). Next's own header would add
      // stale-while-revalidate, which browsers apply too: a prefetched page could be an hour old.
      ...publicPages.map((source) => ({ source, headers: [{ key: 'Cache-Control', value: 'public, max-age=0, s-maxage=60' }] })),
    ];
  },
};

export default nextConfig;
