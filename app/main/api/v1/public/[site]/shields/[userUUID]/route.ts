// GET /main/api/v1/public/{site}/shields/{userUUID} — a badge's figure as shields.io endpoint JSON
import { badgeShields } from '@/lib/badges/public';
import { publicRoute } from '@/lib/http/cache';

export const dynamic = 'force-dynamic';

export const GET = publicRoute(async (request: Request, ctx: { params: Promise<{ userUUID: string }> }) =>
  badgeShields(request, (await ctx.params).userUUID),
);
