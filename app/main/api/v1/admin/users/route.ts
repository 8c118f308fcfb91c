// POST /main/api/v1/admin/users — provision a user and a first token (operators, scripts, tests); GET ?q= — find accounts (operators)
import { createUserSchema } from '@/lib/accounts/schemas';
import { createUser } from '@/lib/accounts/users';
import { findAccounts } from '@/lib/admin/console';
import { withOperator } from '@/lib/admin/operator-route';
import { accountsQuerySchema } from '@/lib/admin/schemas';
import { withAdmin } from '@/lib/auth/admin';
import { json, readJsonBody } from '@/lib/http/body';
import { parseBody } from '@/lib/http/validate';
import { route } from '@/lib/http/methods';
import { parseQuery } from '@/lib/http/query';

export const dynamic = 'force-dynamic';
const post = withAdmin(async ({ request, db }) => {
  const input = parseBody(createUserSchema, (await readJsonBody(request)).value);
  return json(await createUser(db, input, request.headers.get('user-agent')), { status: 201 });
});

const get = withOperator(async ({ request, db }) => {
  const q = parseQuery(accountsQuerySchema, new URL(request.url).searchParams);
  return json({ data: await findAccounts(db, q.q?.trim() || null) });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get, POST: post }, { pattern: '/main/api/v1/admin/users' });
