// POST /main/api/v1/teams/{id}/invitations — mail the team's invite link to an address (owners and admins)
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { inviteByMail } from '@/lib/teams/invitations';
import { invitationSchema } from '@/lib/teams/schemas';

export const dynamic = 'force-dynamic';

const post = withAccount<{ id: string }>(async ({ request, db, user, params }) => {
  const { email } = parseBody(invitationSchema, (await readJsonBody(request)).value);
  return json(await inviteByMail(db, user.id, params.id, email), { status: 202 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/teams/[id]/invitations' });
