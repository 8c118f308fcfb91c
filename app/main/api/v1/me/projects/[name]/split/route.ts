// POST /main/api/v1/me/projects/{name}/split — a project merged into {name} split back out (the merge undone)
// The session or a token with `account`: a `stats` key reads projects, it never changes them (403).
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { splitMerge } from '@/lib/projects/merges';
import { projectParam } from '@/lib/projects/read';
import { splitProjectSchema } from '@/lib/projects/schemas';

export const dynamic = 'force-dynamic';

const post = withAccount<{ name: string }>(async ({ request, db, user, params }) => {
  const into = projectParam(params.name);
  const { project } = parseBody(splitProjectSchema, (await readJsonBody(request)).value);
  return json(await splitMerge(db, user.id, into, project));
}, 'account');

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/me/projects/[name]/split' });
