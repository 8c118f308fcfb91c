// The chart images as Next caches them: a GET of /main/api/v1/public/charts/{userUUID}/{chart}.svg
// comes here (proxy.ts, lib/charts/urls.ts), `own` and `auto` standing for a range the chart does
// not take and an absent theme. Kept until the owner's data, settings or date change (tagged in
// lib/charts/public.ts, lib/cache/tags.ts). GET only: Next caches no route that takes other
// methods, and no other method is sent here. Only proxy.ts's rewrites reach it (a request from
// outside gets its 404).
import { chartImage } from '@/lib/charts/public';
import { cachedChartOf, type CachedChartParams } from '@/lib/charts/urls';
import { measured } from '@/lib/http/methods';
import { ApiError, problemResponse } from '@/lib/http/problem';
import { publicRoute } from '@/lib/http/public';
import { tagRender } from '@/lib/web/public/pages';

export const revalidate = 60;
export const generateStaticParams = (): CachedChartParams[] => [];

// Measured (lib/metrics) when Next renders it, not when Next's cache answers.
export const GET = measured(
  '/cached-chart/[userUUID]/[chart]/[range]/[theme]',
  publicRoute(async (_request: Request, ctx: { params: Promise<CachedChartParams> }) => {
  const named = cachedChartOf(await ctx.params);
  // A path proxy.ts never makes: a 404 that says no-store, which the page cache does not keep.
  if (!named) return problemResponse(new ApiError('not_found', 'No such chart URL.'));
  const { owner, chart, ...query } = named;
  return chartImage(null, owner, chart, query, (tags) => tagRender(...tags));
}),
);
