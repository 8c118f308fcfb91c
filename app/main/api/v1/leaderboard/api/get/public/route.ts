// GET /main/api/v1/leaderboard/api/get/public — the opt-in leaderboard snapshot (7d or 30d)
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { publicJson, publicRoute } from '@/lib/http/public';
import { leaderboardPage } from '@/lib/stats/leaderboard/pages';
import { parseLeaderboardQuery } from '@/lib/stats/leaderboard/query';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';

const get = publicRoute(async (request: Request) => {
  const query = parseLeaderboardQuery(new URL(request.url).searchParams);
  const maxAge = config().LEADERBOARD_MAX_AGE;
  return publicJson(request, await leaderboardPage(await getDb(), query), {
    maxAge: Math.min(60, maxAge),
    sMaxAge: maxAge,
    staleWhileRevalidate: Math.max(maxAge, 60),
  });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/leaderboard/api/get/public', cors: true });
