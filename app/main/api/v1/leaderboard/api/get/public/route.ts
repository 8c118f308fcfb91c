// GET /main/api/v1/leaderboard/api/get/public — the opt-in leaderboard snapshot (7d or 30d)
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { preflight, publicJson, publicRoute } from '@/lib/http/cache';
import { leaderboardPage, parseLeaderboardQuery } from '@/lib/stats/leaderboard';

export const dynamic = 'force-dynamic';

export const GET = publicRoute(async (request: Request) => {
  const query = parseLeaderboardQuery(new URL(request.url).searchParams);
  const maxAge = config().LEADERBOARD_MAX_AGE;
  return publicJson(request, await leaderboardPage(await getDb(), query), {
    maxAge: Math.min(60, maxAge),
    sMaxAge: maxAge,
    staleWhileRevalidate: Math.max(maxAge, 60),
  });
});
export const OPTIONS = async () => preflight();
