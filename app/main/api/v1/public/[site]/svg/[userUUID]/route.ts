// GET /main/api/v1/public/{site}/svg/{userUUID} — a badge as SVG ({site} names where it is embedded)
import { badgeSvg } from '@/lib/badges/public';
import { publicRoute } from '@/lib/http/cache';

export const dynamic = 'force-dynamic';

export const GET = publicRoute(async (request: Request, ctx: { params: Promise<{ userUUID: string }> }) =>
  badgeSvg(request, (await ctx.params).userUUID),
);
