// PUT /main/api/v1/me/projects/{name}/hidden — hide a project's name everywhere but my project list (its time still counts), or show it again
// The session or a token with `account`: a `stats` key reads projects, it never changes them (403).
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { setProjectHidden } from '@/lib/projects/hidden';
import { projectParam } from '@/lib/projects/read';
import { hideProjectSchema } from '@/lib/projects/schemas';

export const dynamic = 'force-dynamic';

const put = withAccount<{ name: string }>(async ({ request, db, user, params }) => {
  const name = projectParam(params.name);
  const { hidden } = parseBody(hideProjectSchema, (await readJsonBody(request)).value);
  return json(await setProjectHidden(db, user.id, name, hidden));
}, 'account');

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ PUT: put }, { pattern: '/main/api/v1/me/projects/[name]/hidden' });
