// POST /main/api/v1/me/projects/{name}/rename — every figure of a project, past and future, under a new name (merging into one that exists)
// The session or a token with `account`: a `stats` key reads projects, it never changes them (403).
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { projectParam } from '@/lib/projects/read';
import { renameProject } from '@/lib/projects/rename';
import { renameProjectSchema } from '@/lib/projects/schemas';

export const dynamic = 'force-dynamic';

const post = withAccount<{ name: string }>(async ({ request, db, user, params }) => {
  const name = projectParam(params.name);
  const { to } = parseBody(renameProjectSchema, (await readJsonBody(request)).value);
  return json(await renameProject(db, user.id, name, to));
}, 'account');

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/me/projects/[name]/rename' });
