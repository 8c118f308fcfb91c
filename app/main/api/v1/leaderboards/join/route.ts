// POST /main/api/v1/leaderboards/join — join a private leaderboard by its invite code
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { joinBoard } from '@/lib/leaderboards/boards';
import { joinBoardSchema } from '@/lib/leaderboards/schemas';

export const dynamic = 'force-dynamic';

const post = withAccount(async ({ request, db, user }) => {
  const { code } = parseBody(joinBoardSchema, (await readJsonBody(request)).value);
  return json(await joinBoard(db, user.id, code));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/leaderboards/join' });
