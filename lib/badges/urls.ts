import { parseQuery } from '../http/query';
import { isUuid } from '../ids';
import { badgeQuerySchema, badgeStyles } from './schemas';

// Badge URLs as embeds ask for them are answered from Next's cache: proxy.ts rewrites a GET of
// /main/api/v1/public/{site}/svg|shields/{userUUID} to the cached route (app/cached-badge), the
// query's `badge` and `style` made path segments (`first` and `own` when absent; an unknown style
// is ignored, as the public route ignores it). Any other request (another method, a conditional
// GET, whose ETag only that route compares, a badge id that is no UUID) stays on the public
// route, answered per request. The cached route answers only the
// paths made here (cachedBadgeOf): ids in lower case, as the change feed names them in the cache's
// tags, and known formats and styles, so that what Next keeps is one entry per badge and style.
// proxy.ts refuses the route to requests from outside (CACHED_BADGE_ROOT).

/** Where the cached route lives; only proxy.ts's rewrites reach it. */
export const CACHED_BADGE_ROOT = '/cached-badge';

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
  return `${CACHED_BADGE_ROOT}/${format}/${owner.toLowerCase()}/${badge?.toLowerCase() ?? FIRST_BADGE}/${drawn}`;
}

const isCanonicalUuid = (value: string) => isUuid(value) && value === value.toLowerCase();

/** The cached route's path segments, as its route file gets them. */
export interface CachedBadgeParams {
  format: string;
  userUUID: string;
  badge: string;
  style: string;
}

/** The badge a cached route's path names when cachedBadgePath made it, else null (a path of no badge URL). */
export function cachedBadgeOf({ format, userUUID, badge, style }: CachedBadgeParams): { format: 'svg' | 'shields'; owner: string; badge?: string; style?: string } | null {
  if (format !== 'svg' && format !== 'shields') return null;
  if (!isCanonicalUuid(userUUID) || (badge !== FIRST_BADGE && !isCanonicalUuid(badge))) return null;
  if (style !== OWN_STYLE && !(format === 'svg' && (badgeStyles as readonly string[]).includes(style))) return null;
  return { format, owner: userUUID, badge: badge === FIRST_BADGE ? undefined : badge, style: style === OWN_STYLE ? undefined : style };
}
