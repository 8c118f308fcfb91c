// GET /main/api/v1/leaderboards/{id} — a private leaderboard's ranking (members only); DELETE — the owner deletes it
import { OWN_FIGURES_SCOPES, withAccount } from '@/lib/auth/account';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { deleteBoard } from '@/lib/leaderboards/boards';
import { parseBoardQuery, readBoard } from '@/lib/leaderboards/read';

export const dynamic = 'force-dynamic';

const get = withAccount<{ id: string }>(async ({ request, db, user, params }) => {
  const query = parseBoardQuery(new URL(request.url).searchParams);
  return json(await readBoard(db, user.id, params.id, query));
}, OWN_FIGURES_SCOPES);

const remove = withAccount<{ id: string }>(async ({ db, user, params }) => {
  await deleteBoard(db, user.id, params.id);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get, DELETE: remove }, { pattern: '/main/api/v1/leaderboards/[id]' });
