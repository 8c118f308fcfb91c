// PATCH /main/api/v1/admin/users/{handle} — an operator puts a user on a plan ({plan}); a payment provider's webhook lands here
import { withAdmin } from '@/lib/auth/admin';
import { json, readJsonBody } from '@/lib/http/body';
import { parseBody } from '@/lib/http/validate';
import { route } from '@/lib/http/methods';
import { setPlan, setPlanSchema } from '@/lib/plans/account';

export const dynamic = 'force-dynamic';

const patch = withAdmin<{ handle: string }>(async ({ request, db, params }) => {
  const input = parseBody(setPlanSchema, (await readJsonBody(request)).value);
  return json(await setPlan(db, params.handle, input.plan));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ PATCH: patch }, { pattern: '/main/api/v1/admin/users/[handle]' });
