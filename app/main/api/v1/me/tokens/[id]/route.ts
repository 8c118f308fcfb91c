// DELETE /main/api/v1/me/tokens/{id} — revoke one of my tokens (by id or shown prefix)
import { withAccount } from '@/lib/auth/account';
import { revokeToken } from '@/lib/accounts/tokens';
import { ApiError } from '@/lib/http/problem';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';

const remove = withAccount<{ id: string }>(async ({ db, user, params }) => {
  if (!(await revokeToken(db, user.id, params.id))) throw new ApiError('not_found', 'No live token of yours with that id.');
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ DELETE: remove }, { pattern: '/main/api/v1/me/tokens/[id]' });
