// POST /main/api/v1/badges/{id}/refresh — recompute one of my badges and replace its cached image
import { withToken } from '@/lib/auth/bearer';
import { badgeDto, refreshBadge } from '@/lib/badges/store';
import { json } from '@/lib/http/body';

export const dynamic = 'force-dynamic';

export const POST = withToken<{ id: string }>('badges', async ({ request, db, user, params }) => {
  return json(badgeDto(await refreshBadge(db, user.id, params.id), new URL(request.url).origin));
});
