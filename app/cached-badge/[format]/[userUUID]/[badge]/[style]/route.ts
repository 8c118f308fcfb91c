// The badge routes as Next caches them: a GET of /main/api/v1/public/{site}/svg|shields/{userUUID}
// comes here (proxy.ts, lib/badges/urls.ts), `first` and `own` standing for an absent badge and
// style. Kept until the owner's data, badges or date change (tagged in lib/badges/public.ts,
// lib/cache/tags.ts). GET only: Next caches no route that takes other methods, and no other
// method is sent here. Only proxy.ts's rewrites reach it (a request from outside gets its 404).
import { badgeShields, badgeSvg } from '@/lib/badges/public';
import { cachedBadgeOf, type CachedBadgeParams } from '@/lib/badges/urls';
import { measured } from '@/lib/http/methods';
import { ApiError, problemResponse } from '@/lib/http/problem';
import { publicRoute } from '@/lib/http/public';
import { tagRender } from '@/lib/web/public/pages';

export const revalidate = 60;
export const generateStaticParams = (): CachedBadgeParams[] => [];

// Measured (lib/metrics) when Next renders it, not when Next's cache answers.
export const GET = measured(
  '/cached-badge/[format]/[userUUID]/[badge]/[style]',
  publicRoute(async (_request: Request, ctx: { params: Promise<CachedBadgeParams> }) => {
  const named = cachedBadgeOf(await ctx.params);
  // A path proxy.ts never makes: a 404 that says no-store, which the page cache does not keep.
  if (!named) return problemResponse(new ApiError('not_found', 'No such badge URL.'));
  const { format, owner, ...query } = named;
  return (format === 'shields' ? badgeShields : badgeSvg)(null, owner, query, (tags) => tagRender(...tags));
}),
);
