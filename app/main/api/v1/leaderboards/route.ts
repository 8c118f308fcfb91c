// GET /main/api/v1/leaderboards — the private leaderboards I am on; POST — make one (I am its owner)
import { OWN_FIGURES_SCOPES, withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { createBoard, myBoards } from '@/lib/leaderboards/boards';
import { createBoardSchema } from '@/lib/leaderboards/schemas';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ db, user }) => {
  const boards = await myBoards(db, user.id);
  return json({ leaderboards: boards.map(({ modified_at: _, ...b }) => b) });
}, OWN_FIGURES_SCOPES);

const post = withAccount(async ({ request, db, user }) => {
  const input = parseBody(createBoardSchema, (await readJsonBody(request)).value);
  const board = await createBoard(db, user.id, input);
  return json(board, { status: 201, headers: { location: `/main/api/v1/leaderboards/${board.id}` } });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get, POST: post }, { pattern: '/main/api/v1/leaderboards' });
