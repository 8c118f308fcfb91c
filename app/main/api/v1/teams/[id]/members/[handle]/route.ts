// PATCH /main/api/v1/teams/{id}/members/{handle} — change a member's role (owners);
// DELETE — remove a member (owners; admins remove members), or leave (one's own handle)
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { roleSchema } from '@/lib/teams/schemas';
import { removeMember, setRole } from '@/lib/teams/teams';

export const dynamic = 'force-dynamic';

type Params = { id: string; handle: string };

const patch = withAccount<Params>(async ({ request, db, user, params }) => {
  const { role } = parseBody(roleSchema, (await readJsonBody(request)).value);
  return json(await setRole(db, user.id, params.id, params.handle, role));
});

const remove = withAccount<Params>(async ({ db, user, params }) => {
  await removeMember(db, user.id, params.id, params.handle);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ PATCH: patch, DELETE: remove }, { pattern: '/main/api/v1/teams/[id]/members/[handle]' });
