// POST /main/api/v1/teams/{id}/invite_code — a new invite code (owners and admins); the old one stops working
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { inviteDto } from '@/lib/teams/answers';
import { inviteCodeSchema } from '@/lib/teams/schemas';
import { rotateInviteCode } from '@/lib/teams/teams';

export const dynamic = 'force-dynamic';

const post = withAccount<{ id: string }>(async ({ request, db, user, params }) => {
  // An empty body asks for a code that never expires.
  const body = request.headers.get('content-length') === '0' || request.body === null ? {} : (await readJsonBody(request)).value;
  const { expires_in_days } = parseBody(inviteCodeSchema, body);
  return json(inviteDto(await rotateInviteCode(db, user.id, params.id, expires_in_days ?? null)));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/teams/[id]/invite_code' });
