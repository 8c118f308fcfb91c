// DELETE /main/api/v1/me/tokens/{id} — revoke one of my tokens (by id or shown prefix)
import { withAccount } from '@/lib/auth/account';
import { revokeToken } from '@/lib/accounts/tokens';
import { ApiError } from '@/lib/http/problem';

export const dynamic = 'force-dynamic';

export const DELETE = withAccount<{ id: string }>(async ({ db, user, params }) => {
  if (!(await revokeToken(db, user.id, params.id))) throw new ApiError(404, 'not_found', 'No live token of yours with that id.');
  return new Response(null, { status: 204 });
});
