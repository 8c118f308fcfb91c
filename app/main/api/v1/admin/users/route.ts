// POST /main/api/v1/admin/users — provision a user and a first token (operators, scripts, tests)
import { createUserSchema } from '@/lib/accounts/schemas';
import { createUser } from '@/lib/accounts/users';
import { withAdmin } from '@/lib/auth/admin';
import { json, readJsonBody } from '@/lib/http/body';
import { parseBody } from '@/lib/http/validate';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const post = withAdmin(async ({ request, db }) => {
  const input = parseBody(createUserSchema, (await readJsonBody(request)).value);
  return json(await createUser(db, input, request.headers.get('user-agent')), { status: 201 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/admin/users' });
