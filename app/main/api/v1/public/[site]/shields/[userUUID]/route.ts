// GET /main/api/v1/public/{site}/shields/{userUUID} — a badge's figure as shields.io endpoint JSON
import { badgeQueryOf, badgeShields } from '@/lib/badges/public';
import { publicRoute } from '@/lib/http/public';
import { route } from '@/lib/http/methods';

// What embeds ask for is answered from Next's cache instead (proxy.ts, lib/badges/urls.ts).
export const dynamic = 'force-dynamic';

const get = publicRoute(async (request: Request, ctx: { params: Promise<{ userUUID: string }> }) =>
  badgeShields(request, (await ctx.params).userUUID, badgeQueryOf(request)),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/public/[site]/shields/[userUUID]', cors: true });
