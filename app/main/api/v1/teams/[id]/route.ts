// GET /main/api/v1/teams/{id} — the team's members and what each shares with it; DELETE — delete the team (owners)
import { withAccount } from '@/lib/auth/account';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseQuery } from '@/lib/http/query';
import { teamPage } from '@/lib/teams/answers';
import { teamQuerySchema } from '@/lib/teams/schemas';
import { deleteTeam } from '@/lib/teams/teams';

export const dynamic = 'force-dynamic';

const get = withAccount<{ id: string }>(async ({ request, db, user, params }) => {
  const { range } = parseQuery(teamQuerySchema, new URL(request.url).searchParams);
  return json(await teamPage(db, user.id, params.id, range));
});

const remove = withAccount<{ id: string }>(async ({ db, user, params }) => {
  await deleteTeam(db, user.id, params.id);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get, DELETE: remove }, { pattern: '/main/api/v1/teams/[id]' });
