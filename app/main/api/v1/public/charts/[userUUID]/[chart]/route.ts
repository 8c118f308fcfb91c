// GET /main/api/v1/public/charts/{userUUID}/{chart}.svg — a chart as an SVG image (languages, activity, weekly)
import { chartImage, chartImageQueryOf } from '@/lib/charts/public';
import { chartOfSegment } from '@/lib/charts/schemas';
import { publicRoute } from '@/lib/http/public';
import { route } from '@/lib/http/methods';

// What embeds ask for is answered from Next's cache instead (proxy.ts, lib/charts/urls.ts).
export const dynamic = 'force-dynamic';

const get = publicRoute(async (request: Request, ctx: { params: Promise<{ userUUID: string; chart: string }> }) => {
  const query = chartImageQueryOf(request);
  const { userUUID, chart } = await ctx.params;
  return chartImage(request, userUUID, chartOfSegment(chart), query);
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { cors: true });
