// DELETE /main/api/v1/leaderboards/{id}/members/me — leave a private leaderboard (gone from it at once)
import { withAccount } from '@/lib/auth/account';
import { route } from '@/lib/http/methods';
import { leaveBoard } from '@/lib/leaderboards/boards';

export const dynamic = 'force-dynamic';

const remove = withAccount<{ id: string }>(async ({ db, user, params }) => {
  await leaveBoard(db, user.id, params.id);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ DELETE: remove }, { pattern: '/main/api/v1/leaderboards/[id]/members/me' });
