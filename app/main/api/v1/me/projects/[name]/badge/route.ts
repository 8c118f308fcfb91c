// PUT /main/api/v1/me/projects/{name}/badge — make a project's badge public (Wakapi's project badge URLs show its time), or private again
// The session or a token with `account`: publishing a project's figure is a setting, as hiding it is.
import { withAccount } from '@/lib/auth/account';
import { projectBadgeSchema, setProjectBadge } from '@/lib/badges/wakapi-projects';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { projectParam } from '@/lib/projects/read';

export const dynamic = 'force-dynamic';

const put = withAccount<{ name: string }>(async ({ request, db, user, params }) => {
  const name = projectParam(params.name);
  const body = parseBody(projectBadgeSchema, (await readJsonBody(request)).value);
  return json(await setProjectBadge(db, user.id, name, body.public));
}, 'account');

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ PUT: put }, { pattern: '/main/api/v1/me/projects/[name]/badge' });
