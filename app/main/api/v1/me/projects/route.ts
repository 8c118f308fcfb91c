// GET /main/api/v1/me/projects — my projects over a range: time, languages, editors, last active; and the hidden ones
import { OWN_FIGURES_SCOPES, withAccount } from '@/lib/auth/account';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseQuery } from '@/lib/http/query';
import { listProjects, ownRange } from '@/lib/projects/read';
import { projectRangeQuery } from '@/lib/projects/schemas';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ request, db, user }) => {
  const range = await ownRange(db, user.id, parseQuery(projectRangeQuery, new URL(request.url).searchParams), user.timezone);
  return json(await listProjects(db, user.id, range));
}, OWN_FIGURES_SCOPES);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/me/projects' });
