// GET /main/api/v1/me/goals — my goals with their progress; POST — set a goal (at most 20)
// Reading takes `account` or `stats` (a `stats` key sees no hidden project's name, decision 0031);
// setting a goal changes the account, so it takes the session or `account` (a `stats` key: 403).
import { OWN_FIGURES_SCOPES, withAccount } from '@/lib/auth/account';
import { createGoal, goalDto, judgeGoals, ownGoals } from '@/lib/figures/goals';
import { createGoalSchema } from '@/lib/figures/schemas';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { projectReader } from '@/lib/projects/read';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ db, user, via, scopes }) => json(await ownGoals(db, user, projectReader({ via, scopes }))), OWN_FIGURES_SCOPES);

const post = withAccount(async ({ request, db, user }) => {
  const input = parseBody(createGoalSchema, (await readJsonBody(request)).value);
  const [created] = await judgeGoals(db, user, [await createGoal(db, user.id, input)]);
  return json(goalDto(created, 'owner'), { status: 201, headers: { location: `/main/api/v1/me/goals/${created.goal.id}` } });
}, 'account');

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get, POST: post }, { pattern: '/main/api/v1/me/goals' });
