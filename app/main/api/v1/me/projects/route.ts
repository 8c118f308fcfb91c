// GET /main/api/v1/me/projects — my projects over a range: time, languages, editors, last active; and the hidden ones (not to a `stats` key)
import { OWN_FIGURES_SCOPES, withAccount } from '@/lib/auth/account';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseQuery } from '@/lib/http/query';
import { listProjects, ownRange, projectReader, shownTo } from '@/lib/projects/read';
import { projectRangeQuery } from '@/lib/projects/schemas';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ request, db, user, via, scopes }) => {
  const range = await ownRange(db, user.id, parseQuery(projectRangeQuery, new URL(request.url).searchParams), user.timezone);
  return json(shownTo(projectReader({ via, scopes }), await listProjects(db, user.id, range)));
}, OWN_FIGURES_SCOPES);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/me/projects' });
