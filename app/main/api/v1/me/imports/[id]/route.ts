// GET /main/api/v1/me/imports/{id} — how far an import of mine has got
import { withAccount } from '@/lib/auth/account';
import { json } from '@/lib/http/body';
import { ApiError } from '@/lib/http/problem';
import { route } from '@/lib/http/methods';
import { getImport } from '@/lib/wakatime/importing/imports';

export const dynamic = 'force-dynamic';

const get = withAccount<{ id: string }>(async ({ db, user, params }) => {
  const found = await getImport(db, user.id, params.id);
  if (!found) throw new ApiError('not_found', 'No import of yours with that id.');
  return json(found);
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/me/imports/[id]' });
