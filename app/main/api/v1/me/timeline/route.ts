// GET /main/api/v1/me/timeline?date=YYYY-MM-DD — when I coded that day, segment by segment
import { OWN_FIGURES_SCOPES, withAccount } from '@/lib/auth/account';
import { timelineQuerySchema } from '@/lib/figures/schemas';
import { timeline } from '@/lib/figures/timeline';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseQuery } from '@/lib/http/query';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ request, db, user }) => {
  const { date } = parseQuery(timelineQuerySchema, new URL(request.url).searchParams);
  return json(await timeline(db, user, date));
}, OWN_FIGURES_SCOPES);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/me/timeline' });
