import { parseQuery } from '../http/query';
import { isUuid } from '../ids';
import { chartImageQuerySchema, chartImages, chartOfSegment, chartThemes, COMMUNITY_SEGMENT, type ChartImage } from './schemas';
import { chartRanges, type ChartRange } from './svg';

// Chart images as embeds ask for them are answered from Next's cache, as badges are
// (lib/badges/urls.ts): proxy.ts rewrites a non-conditional GET or HEAD of
// /main/api/v1/public/charts/{userUUID}/{chart}.svg to the cached route (app/cached-chart), the
// query made path segments: the range languages are drawn over (30d when absent; `own` for the
// charts whose span is their own), and the theme (`auto` when absent: both, by the viewer's
// colour scheme). Any other request (a conditional GET, whose ETag only the public route
// compares, a bad query, which that route refuses, an id that is no UUID) stays on the public
// route. The cached route answers only the paths made here (cachedChartOf): ids in lower case,
// as the change feed names them in the cache's tags, so that what Next keeps is one entry per
// chart, range and theme. proxy.ts refuses the route to requests from outside (CACHED_CHART_ROOT).

/** Where the cached route lives; only proxy.ts's rewrites reach it. */
export const CACHED_CHART_ROOT = '/cached-chart';

export const OWN_RANGE = 'own';
export const AUTO_THEME = 'auto';
const CHART_PATH = /^\/main\/api\/v1\/public\/charts\/([^/]+)\/([^/]+)$/;

/** A user's id or the site-wide images' segment: the owners whose images are cached. */
const isOwnerSegment = (segment: string) => isUuid(segment) || segment === COMMUNITY_SEGMENT;

/** Where the proxy sends this request, or null: it stays where it is. */
export function cachedChartPath(method: string, url: URL): string | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const match = CHART_PATH.exec(url.pathname);
  if (!match || !isOwnerSegment(match[1].toLowerCase())) return null;
  const chart = chartOfSegment(match[2]);
  if (!chart) return null;
  let query;
  try {
    query = parseQuery(chartImageQuerySchema, url.searchParams);
  } catch {
    return null; // the public route answers the 400
  }
  const range = chart === 'languages' ? (query.range ?? '30d') : OWN_RANGE;
  return `${CACHED_CHART_ROOT}/${match[1].toLowerCase()}/${chart}/${range}/${query.theme ?? AUTO_THEME}`;
}

/** The cached route's path segments, as its route file gets them. */
export interface CachedChartParams {
  userUUID: string;
  chart: string;
  range: string;
  theme: string;
}

/** The image a cached route's path names when cachedChartPath made it, else null. */
export function cachedChartOf({ userUUID, chart, range, theme }: CachedChartParams): {
  owner: string;
  chart: ChartImage;
  range?: ChartRange;
  theme?: 'light' | 'dark';
} | null {
  if (!isOwnerSegment(userUUID) || userUUID !== userUUID.toLowerCase()) return null;
  if (!(chartImages as readonly string[]).includes(chart)) return null;
  const ranged = chart === 'languages';
  if (ranged ? !(chartRanges as readonly string[]).includes(range) : range !== OWN_RANGE) return null;
  if (theme !== AUTO_THEME && !(chartThemes as readonly string[]).includes(theme)) return null;
  return {
    owner: userUUID,
    chart: chart as ChartImage,
    ...(ranged ? { range: range as ChartRange } : {}),
    ...(theme === AUTO_THEME ? {} : { theme: theme as 'light' | 'dark' }),
  };
}

/** The public URL of one of a user's chart images (or the site-wide ones: `community`). */
export function chartImageUrl(origin: string, owner: string, chart: ChartImage, range?: ChartRange): string {
  return `${origin}/main/api/v1/public/charts/${owner}/${chart}.svg${range ? `?range=${range}` : ''}`;
}

/** A user's chart images as a README embeds them: Markdown whose image follows the viewer's colour scheme. */
export function chartEmbeds(origin: string, ownerId: string): { chart: ChartImage; title: string; url: string; markdown: string }[] {
  const titles: Record<ChartImage, string> = { languages: 'Languages, last 30 days', activity: 'Coding activity, last year', hours: 'When in the week, last year', weekly: 'Weekly coding time' };
  return chartImages.map((chart) => {
    const url = chartImageUrl(origin, ownerId, chart);
    return { chart, title: titles[chart], url, markdown: `![${titles[chart]}](${url})` };
  });
}
