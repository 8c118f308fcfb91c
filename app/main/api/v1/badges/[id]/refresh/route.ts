// POST /main/api/v1/badges/{id}/refresh — recompute one of my badges and replace its cached image
import { withToken } from '@/lib/auth/bearer';
import { badgeDto, refreshBadge } from '@/lib/badges/store';
import { json } from '@/lib/http/body';
import { siteOrigin } from '@/lib/http/origin';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';

const post = withToken<{ id: string }>('badges', async ({ request, db, user, params }) => {
  return json(badgeDto(await refreshBadge(db, user.id, params.id), siteOrigin(request.headers)));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/badges/[id]/refresh' });
