// DELETE /main/api/v1/badges/{id} — delete one of my badges; its URL answers 404 from then on
import { withToken } from '@/lib/auth/bearer';
import { deleteBadge } from '@/lib/badges/store';

export const dynamic = 'force-dynamic';

export const DELETE = withToken<{ id: string }>('badges', async ({ db, user, params }) => {
  await deleteBadge(db, user.id, params.id);
  return new Response(null, { status: 204 });
});
