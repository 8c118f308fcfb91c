import { COMMUNITY_TAG, dayTag } from '../cache/tags';
import { getDb } from '../db/client';
import { ApiError, problemBody } from '../http/problem';
import { publicResponse, type PublicCachePolicy } from '../http/public';
import { parseQuery } from '../http/query';
import { isUuid } from '../ids';
import { publicOwner } from '../sharing/gate';
import type { PublicOwner } from '../sharing/owner';
import { publicChartData, type ChartBodies } from '../stats/public';
import { chartImageQuerySchema, chartImages, COMMUNITY_SEGMENT, type ChartImage } from './schemas';
import { activitySvg, hoursSvg, languagesSvg, weeklySvg, type ChartRange, type ChartTheme, type DrawnChart } from './svg';

// The embeddable chart images: GET /main/api/v1/public/charts/{userUUID}/{chart}.svg. Behind the
// sharing gate as the JSON chart routes are (a private or unknown user is a 404 without an
// image), drawn from the same cached answers, cached and revalidated as badges are
// (lib/badges/public.ts): a minute in shared caches, an ETag, and in Next's cache until the
// owner's data, settings or date change (app/cached-chart, tagged here).

/** Which image a request asks for: its range (languages) and theme. */
export interface ChartImageQuery {
  range?: ChartRange;
  theme?: 'light' | 'dark';
}

/** Tags an answer cached by Next with what it was made from (app/cached-chart): its owner and their date. */
type Tagger = (tags: string[]) => Promise<void>;

// The same as a badge's: shared caches keep an image a minute, plus a minute stale.
const imageCache: PublicCachePolicy = { maxAge: 60, sMaxAge: 60, staleWhileRevalidate: 60 };
const missingCache: PublicCachePolicy = { maxAge: 60, sMaxAge: 60, staleWhileRevalidate: 60 };
const svgType = 'image/svg+xml; charset=utf-8';

/** The query of a chart image URL; 400 invalid_query naming a bad parameter. */
export const chartImageQueryOf = (request: Request): ChartImageQuery => parseQuery(chartImageQuerySchema, new URL(request.url).searchParams);

/** 404 without an image: a problem, cacheable like the images (the owner's tag drops it when they turn public). */
function missing(request: Request | null, detail: string): Response {
  return publicResponse(request, JSON.stringify(problemBody('not_found', detail)), 'application/problem+json', missingCache, 404);
}

/** The public owner of a UUID, or null: private or unknown, which answer alike. */
async function ownerOf(ownerId: string): Promise<PublicOwner | null> {
  try {
    return await publicOwner(await getDb(), ownerId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

const communityName = 'the community';
export const tooFewSharing = 'Too few people share community statistics yet.';

/** The year's days, or when in its weeks, from one hitmap chart body. */
function yearSvg(chart: 'activity' | 'hours', name: string, body: ChartBodies['hitmaps'], theme: ChartTheme): DrawnChart {
  return chart === 'activity'
    ? activitySvg({ name, days: body.days }, theme)
    : hoursSvg({ name, grid: body.weekday_hours, from: body.range.from, to: body.range.to }, theme);
}

/** The figures of one site-wide chart image, from the public charts' shared cache. */
export async function drawCommunityChart(chart: ChartImage, range: ChartRange, theme: ChartTheme): Promise<DrawnChart> {
  if (chart === 'languages') {
    const [body, time] = await Promise.all([publicChartData('language', { range }), publicChartData('time', { range })]);
    const languages = body.suppressed ? null : body.languages;
    return languagesSvg({ name: communityName, range, languages, hidden: tooFewSharing, total: time.total_seconds }, theme);
  }
  if (chart === 'activity' || chart === 'hours') {
    const body = await publicChartData('hitmaps', { range: '365d' });
    return yearSvg(chart, communityName, body, theme);
  }
  const body = await publicChartData('weekly', { weeks: '12' });
  return weeklySvg({ name: communityName, weeks: body.weeks, today: body.range.to }, theme);
}

/** The figures of one chart image, from the public charts' shared cache. */
export async function drawChart(owner: PublicOwner, chart: ChartImage, range: ChartRange, theme: ChartTheme): Promise<DrawnChart> {
  const user = owner.user.id;
  const name = owner.user.display_name;
  if (chart === 'languages') {
    const body = await publicChartData('language', { user, range });
    return languagesSvg({ name, range, languages: owner.shares.languages ? body.languages : null }, theme);
  }
  if (chart === 'activity' || chart === 'hours') {
    const body = await publicChartData('hitmaps', { user, range: '365d' });
    return yearSvg(chart, name, body, theme);
  }
  const body = await publicChartData('weekly', { user, weeks: '12' });
  return weeklySvg({ name, weeks: body.weeks, today: body.range.to }, theme);
}

/**
 * A chart image. `chart` null: a `{chart}` segment naming no chart. `request`: the request whose
 * conditional headers are answered (null in a route Next caches).
 */
export async function chartImage(request: Request | null, ownerId: string, chart: ChartImage | null, query: ChartImageQuery, tag?: Tagger): Promise<Response> {
  if (!chart) return missing(request, `No such chart: ${chartImages.map((c) => `${c}.svg`).join(', ')}.`);
  if (ownerId.toLowerCase() === COMMUNITY_SEGMENT) {
    // Site-wide figures move with the clock (lib/cache/tags.ts), at most PUBLIC_CACHE_SECONDS late.
    if (tag) await tag([COMMUNITY_TAG, dayTag('UTC')]);
    const drawn = await drawCommunityChart(chart, query.range ?? '30d', query.theme ?? 'auto');
    return publicResponse(request, drawn.svg, svgType, imageCache);
  }
  if (!isUuid(ownerId)) return missing(request, 'No public profile with that id.');
  const owner = await ownerOf(ownerId);
  // A profile made public later shows under the same URL; the day turning moves the figures.
  if (tag) await tag(owner ? [owner.user.id, dayTag(owner.timezone)] : [ownerId.toLowerCase()]);
  if (!owner) return missing(request, 'No public profile with that id.');
  const drawn = await drawChart(owner, chart, query.range ?? '30d', query.theme ?? 'auto');
  return publicResponse(request, drawn.svg, svgType, imageCache);
}
