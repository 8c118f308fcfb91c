import { parseQuery } from '../http/query';
import { isUuid } from '../ids';
import { badgeQuerySchema } from './schemas';

// Badge URLs as embeds ask for them are answered from Next's cache: proxy.ts rewrites a GET of
// /main/api/v1/public/{site}/svg|shields/{userUUID} to the cached route (app/cached-badge), the
// query's `badge` and `style` made path segments (`first` and `own` when absent; an unknown style
// is ignored, as the public route ignores it). Any other request (another method, a badge id that
// is no UUID) stays on the public route, answered per request.

export const FIRST_BADGE = 'first';
export const OWN_STYLE = 'own';
const BADGE_PATH = /^\/main\/api\/v1\/public\/[^/]+\/(svg|shields)\/([^/]+)$/;

/** Where the proxy sends this request, or null: it stays where it is. */
export function cachedBadgePath(method: string, url: URL): string | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const match = BADGE_PATH.exec(url.pathname);
  if (!match || !isUuid(match[2])) return null;
  const [, format, owner] = match;
  // The public route's own reading of the query: an unknown style is no style.
  const { badge, style } = parseQuery(badgeQuerySchema, url.searchParams);
  if (badge !== undefined && !isUuid(badge)) return null;
  const drawn = format === 'svg' && style ? style : OWN_STYLE;
  return `/cached-badge/${format}/${owner.toLowerCase()}/${badge?.toLowerCase() ?? FIRST_BADGE}/${drawn}`;
}
