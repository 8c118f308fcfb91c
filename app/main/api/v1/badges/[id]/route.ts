// DELETE /main/api/v1/badges/{id} — delete one of my badges; its URL answers 404 from then on
import { withToken } from '@/lib/auth/bearer';
import { deleteBadge } from '@/lib/badges/store';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';

const remove = withToken<{ id: string }>('badges', async ({ db, user, params }) => {
  await deleteBadge(db, user.id, params.id);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ DELETE: remove }, { pattern: '/main/api/v1/badges/[id]' });
