// PATCH /main/api/v1/teams/{id}/me — what of my figures the team sees
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { membershipDto } from '@/lib/teams/answers';
import { shareSchema } from '@/lib/teams/schemas';
import { setShare } from '@/lib/teams/teams';

export const dynamic = 'force-dynamic';

const patch = withAccount<{ id: string }>(async ({ request, db, user, params }) => {
  const { share } = parseBody(shareSchema, (await readJsonBody(request)).value);
  return json(membershipDto(await setShare(db, user.id, params.id, share)));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ PATCH: patch }, { pattern: '/main/api/v1/teams/[id]/me' });
