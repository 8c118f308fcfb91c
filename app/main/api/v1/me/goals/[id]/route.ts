// DELETE /main/api/v1/me/goals/{id} — drop one of my goals
// The session or a token with `account`: a `stats` key reads goals, it never changes them (403).
import { withAccount } from '@/lib/auth/account';
import { deleteGoal } from '@/lib/figures/goals';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';

const remove = withAccount<{ id: string }>(async ({ db, user, params }) => {
  await deleteGoal(db, user.id, params.id);
  return new Response(null, { status: 204 });
}, 'account');

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ DELETE: remove }, { pattern: '/main/api/v1/me/goals/[id]' });
