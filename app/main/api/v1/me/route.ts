// GET /main/api/v1/me — my account; PATCH — change handle, name, timezone, sharing; DELETE — delete it all
import { withAccount } from '@/lib/auth/account';
import { sessionCookieNames } from '@/lib/auth/session';
import { deleteAccount, getAccount, updateAccount, updateAccountSchema } from '@/lib/accounts/me';
import { json, readJsonBody } from '@/lib/http/body';
import { parseBody } from '@/lib/http/validate';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ db, user }) => json(await getAccount(db, user.id)));

const patch = withAccount(async ({ request, db, user }) => {
  const input = parseBody(updateAccountSchema, (await readJsonBody(request)).value);
  return json(await updateAccount(db, user.id, input));
});

const remove = withAccount(async ({ db, user, via }) => {
  await deleteAccount(db, user.id);
  const response = new Response(null, { status: 204 });
  if (via === 'session') {
    for (const name of sessionCookieNames) {
      response.headers.append('set-cookie', `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith('__Secure-') ? '; Secure' : ''}`);
    }
  }
  return response;
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get, PATCH: patch, DELETE: remove }, { pattern: '/main/api/v1/me' });
