// GET /main/api/v1/me/insights?range=|from&to — my totals, best day, weekdays, hours and streaks
import { OWN_FIGURES_SCOPES, withAccount } from '@/lib/auth/account';
import { insights } from '@/lib/figures/insights';
import { insightsQuerySchema } from '@/lib/figures/schemas';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseQuery } from '@/lib/http/query';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ request, db, user }) => {
  const range = parseQuery(insightsQuerySchema, new URL(request.url).searchParams);
  return json(await insights(db, user, range));
}, OWN_FIGURES_SCOPES);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/me/insights' });
