// The badge routes as Next caches them: a GET of /main/api/v1/public/{site}/svg|shields/{userUUID}
// comes here (proxy.ts, lib/badges/urls.ts), `first` and `own` standing for an absent badge and
// style. Kept until the owner's data, badges or date change (tagged in lib/badges/public.ts,
// lib/cache/tags.ts). GET only: Next caches no route that takes other methods, and no other
// method is sent here.
import { badgeShields, badgeSvg } from '@/lib/badges/public';
import { FIRST_BADGE, OWN_STYLE } from '@/lib/badges/urls';
import { publicRoute } from '@/lib/http/public';
import { tagRender } from '@/lib/web/pages';

type Params = { format: string; userUUID: string; badge: string; style: string };

export const revalidate = 60;
export const generateStaticParams = (): Params[] => [];

export const GET = publicRoute(async (_request: Request, ctx: { params: Promise<Params> }) => {
  const { format, userUUID, badge, style } = await ctx.params;
  const query = { badge: badge === FIRST_BADGE ? undefined : badge, style: style === OWN_STYLE ? undefined : style };
  return (format === 'shields' ? badgeShields : badgeSvg)(null, userUUID, query, (tags) => tagRender(...tags));
});
