import { isUuid } from '../ids';
import { badgeStyles } from './schemas';

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
  const badge = url.searchParams.get('badge');
  if (badge !== null && !isUuid(badge)) return null;
  const style = format === 'svg' ? url.searchParams.get('style') : null;
  const known = style !== null && (badgeStyles as readonly string[]).includes(style);
  return `/cached-badge/${format}/${owner.toLowerCase()}/${badge?.toLowerCase() ?? FIRST_BADGE}/${known ? style : OWN_STYLE}`;
}
