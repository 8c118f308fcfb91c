// GET /main/api/v1/public/charts/{userUUID}/{chart}.svg — a chart as an SVG image (languages, activity, weekly)
import { badgeQueryOf, badgeShields, badgeSvg } from '@/lib/badges/public';
import { chartImage, chartImageQueryOf } from '@/lib/charts/public';
import { chartOfSegment } from '@/lib/charts/schemas';
import { publicRoute } from '@/lib/http/public';
import { route } from '@/lib/http/methods';

// What embeds ask for is answered from Next's cache instead (proxy.ts, lib/charts/urls.ts).
export const dynamic = 'force-dynamic';

// A badge URL may name its {site} `charts` (/public/charts/svg|shields/{userUUID}): this folder
// takes those paths from the badge routes, so it answers them as those routes do.
const badgeFormats = { svg: badgeSvg, shields: badgeShields } as const;

const get = publicRoute(async (request: Request, ctx: { params: Promise<{ userUUID: string; chart: string }> }) => {
  const { userUUID, chart } = await ctx.params;
  if (userUUID === 'svg' || userUUID === 'shields') return badgeFormats[userUUID](request, chart, badgeQueryOf(request));
  const query = chartImageQueryOf(request);
  return chartImage(request, userUUID, chartOfSegment(chart), query);
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/public/charts/[userUUID]/[chart]', cors: true });
