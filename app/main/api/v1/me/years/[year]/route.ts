// GET /main/api/v1/me/years/{year} — my year in code: totals, streak, busiest day and hour, tops, AI share, percentile
import { OWN_FIGURES_SCOPES, withAccount } from '@/lib/auth/account';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { ApiError } from '@/lib/http/problem';
import { currentYear, yearFigures } from '@/lib/stats/year';
import { yearParam } from '@/lib/stats/year-schemas';

export const dynamic = 'force-dynamic';

const get = withAccount<{ year: string }>(async ({ db, user, params }) => {
  const year = yearParam(params.year);
  if (year > currentYear(user.timezone)) throw new ApiError('not_found', 'That year has not begun where you live.');
  return json(await yearFigures(db, user, year));
}, OWN_FIGURES_SCOPES);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/me/years/[year]' });
