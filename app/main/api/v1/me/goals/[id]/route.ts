// PATCH /main/api/v1/me/goals/{id} — change one of my goals; DELETE — drop it
// The session or a token with `account`: a `stats` key reads goals, it never changes them (403).
import { withAccount } from '@/lib/auth/account';
import { deleteGoal, goalDto, judgeGoals, updateGoal } from '@/lib/figures/goals';
import { updateGoalSchema } from '@/lib/figures/schemas';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';

export const dynamic = 'force-dynamic';

const patch = withAccount<{ id: string }>(async ({ request, db, user, params }) => {
  const input = parseBody(updateGoalSchema, (await readJsonBody(request)).value);
  const [changed] = await judgeGoals(db, user, [await updateGoal(db, user.id, params.id, input)]);
  return json(goalDto(changed, 'owner'));
}, 'account');

const remove = withAccount<{ id: string }>(async ({ db, user, params }) => {
  await deleteGoal(db, user.id, params.id);
  return new Response(null, { status: 204 });
}, 'account');

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ PATCH: patch, DELETE: remove }, { pattern: '/main/api/v1/me/goals/[id]' });
