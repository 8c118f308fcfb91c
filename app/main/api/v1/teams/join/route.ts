// POST /main/api/v1/teams/join — join a team by its invite code
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { membershipDto } from '@/lib/teams/answers';
import { joinTeamSchema } from '@/lib/teams/schemas';
import { joinTeam } from '@/lib/teams/teams';

export const dynamic = 'force-dynamic';

const post = withAccount(async ({ request, db, user }) => {
  const { code } = parseBody(joinTeamSchema, (await readJsonBody(request)).value);
  return json(membershipDto(await joinTeam(db, user.id, code)));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/teams/join' });
