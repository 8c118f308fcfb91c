// POST /main/api/v1/admin/users/{handle}/hide — hide from public boards ({reason, until?}); DELETE — show again (operators)
import { withOperator } from '@/lib/admin/operator-route';
import { hideSchema } from '@/lib/admin/schemas';
import { json, readJsonBody } from '@/lib/http/body';
import { parseBody } from '@/lib/http/validate';
import { route } from '@/lib/http/methods';
import { hideUser, showUser } from '@/lib/leaderboards/trust/hides';

export const dynamic = 'force-dynamic';

const post = withOperator<{ handle: string }>(async ({ request, db, params, operator }) => {
  const input = parseBody(hideSchema, (await readJsonBody(request)).value);
  const hidden = await hideUser(db, { handle: params.handle, reason: input.reason, until: input.until }, operator);
  return json({ handle: hidden.handle, leaderboard_hidden: { reason: hidden.reason, until: hidden.until } });
});

const remove = withOperator<{ handle: string }>(async ({ db, params, operator }) => {
  await showUser(db, params.handle, operator);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post, DELETE: remove }, { pattern: '/main/api/v1/admin/users/[handle]/hide' });
