// GET /main/api/v1/teams — my teams; POST — make a team, with me as its owner
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { createdTeamDto } from '@/lib/teams/answers';
import { createTeamSchema } from '@/lib/teams/schemas';
import { createTeam, myTeams } from '@/lib/teams/teams';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ db, user }) => json({ teams: await myTeams(db, user.id) }));

const post = withAccount(async ({ request, db, user }) => {
  const { name } = parseBody(createTeamSchema, (await readJsonBody(request)).value);
  const team = await createTeam(db, user.id, name);
  return json(createdTeamDto(team), { status: 201, headers: { location: `/main/api/v1/teams/${team.id}` } });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get, POST: post }, { pattern: '/main/api/v1/teams' });
