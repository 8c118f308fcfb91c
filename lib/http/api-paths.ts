import { wakatimeAliasRewrites } from '../wakatime/paths';

// Where the API answers, in one list: the paths whose answers are the API's (its headers, not a
// page's: lib/http/site-headers.ts), that the proxy leaves to their routes (proxy.ts) and that the
// front server hands to them whatever the method (lib/server/front.ts: their Allow, their CORS). The
// WakaTime-compatible API answers at several path layouts (lib/wakatime/paths.ts), each rewritten
// to its own base after the headers and the proxy see the path as the client wrote it: every
// alias is here.

/**
 * A path ending in `/` stands for everything under it, any other for itself: the service's own
 * API, the WakaTime-compatible API's base and every alias of it (a rewrite's `:path*` is its
 * folder; Wakapi's `/api/heartbeat` and `/api/heartbeats` are themselves).
 */
export const apiPaths: readonly string[] = [
  '/main/api/',
  '/api/wakatime/',
  // Wakapi's badge URLs (lib/badges/wakapi.ts).
  '/api/badge/',
  '/api/compat/shields/',
  ...wakatimeAliasRewrites.map(({ source }) => source.replace(/:path\*$/, '')),
];

/** Whether `path` (as the client wrote it, dot segments resolved) is the API's (apiPaths). */
export const isApiPath = (path: string): boolean => apiPaths.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));
