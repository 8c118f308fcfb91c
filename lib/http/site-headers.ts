import { apiPaths } from './api-paths';

// Headers the site's answers carry whoever answers them: Next (next.config.ts `headers()`) or the
// front server's own refusals (lib/server/front.ts). Pages may be
// framed by no one and load nothing from elsewhere. Scripts and styles allow 'unsafe-inline':
// Next's server-rendered pages carry their data in inline scripts, and a per-request nonce would
// make every page dynamic. The answers that are data or images (JSON, SVG, XML, text), never a
// page, get a policy under which nothing loads or runs even when one is opened on its own (an SVG
// can hold scripts), and stay embeddable anywhere (badges and charts). HSTS is added by the server
// when the request came over HTTPS (lib/server/front.ts).

const pageContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self' https:", // sign-in with an outside provider posts on to it
  "frame-ancestors 'none'",
].join('; ');

/** Badge-maker's SVGs style their text inline; nothing else is needed. */
export const dataContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * Where the answers are data or images, never a page: a path ending in `/` stands for everything
 * under it, any other for itself. The APIs at every path they answer (lib/http/api-paths.ts), the
 * internal cached badge and chart routes, Auth.js's JSON answers, the badge preview, the icon, the
 * sitemap, robots.txt and the metrics.
 */
export const dataPaths = [
  ...apiPaths,
  '/cached-badge/',
  '/cached-chart/',
  '/auth/session',
  '/auth/csrf',
  '/auth/providers',
  '/dashboard/badge-preview',
  '/icon.svg',
  '/sitemap.xml',
  '/robots.txt',
  '/metrics',
];

/** On every answer. */
export const everyAnswerHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/** On the answers of pages (every path but dataPaths). */
export const pageHeaders: Record<string, string> = {
  'Content-Security-Policy': pageContentSecurityPolicy,
  'X-Frame-Options': 'DENY',
};

/** On the answers of dataPaths. */
export const dataHeaders: Record<string, string> = {
  'Content-Security-Policy': dataContentSecurityPolicy,
};

/**
 * The same rules as next.config.ts `headers()` takes them (path-to-regexp sources): every answer,
 * then pages (a path none of dataPaths matches), then each of dataPaths.
 */
export function siteHeaderRules(): { source: string; headers: { key: string; value: string }[] }[] {
  const rules = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Inside the lookahead a path stands for itself only when nothing follows it.
  const notData = dataPaths.map((p) => escape(p.slice(1)) + (p.endsWith('/') ? '' : '$')).join('|');
  return [
    { source: '/:path*', headers: rules(everyAnswerHeaders) },
    { source: `/((?!${notData}).*)`, headers: rules(pageHeaders) },
    ...dataPaths.map((p) => ({ source: p.endsWith('/') ? `${p}:path*` : p, headers: rules(dataHeaders) })),
  ];
}
