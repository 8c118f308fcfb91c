import { eq } from 'drizzle-orm';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { GET as getInsights } from '@/app/main/api/v1/me/insights/route';
import { POST as postBadge } from '@/app/main/api/v1/badges/route';
import { GET as getBadgeShields } from '@/app/main/api/v1/public/[site]/shields/[userUUID]/route';
import { GET as getPublicBoard } from '@/app/main/api/v1/leaderboard/api/get/public/route';
import { GET as getRangedStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { Board } from '@/app/leaderboard/board';
import { issueToken } from '@/lib/accounts/tokens';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { parseLeaderboardQuery } from '@/lib/stats/leaderboard/query';
import { dashboardData } from '@/lib/web/account/dashboard';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// One daily average: a week with three coded days reads the same on the dashboard's overview,
// Insights and WakaTime's stats (the total over the days with coding, WakaTime's definition);
// so does a daily_average badge, its label saying so; the public leaderboard keeps its contract's
// (over every date of the range) and its page says so.

// The overview's data names the site's address of the request it draws.
vi.mock('next/headers', () => ({ headers: async () => new Headers({ host: 'localhost' }) }));

describe('the daily average', () => {
  it('is the total over the days with coding on the overview, Insights and the WakaTime stats; the leaderboard says its basis', async () => {
    const u = await newUser({ timezone: 'UTC', settings: { leaderboard: true, profile_public: true } });
    // 1 h, 30 min and 20 min on three of the last seven days: 6600 s, 2200 s a coded day, 943 s a date.
    const activities = [
      { date: daysFromToday(-1), time: 3600 },
      { date: daysFromToday(-3), time: 1800 },
      { date: daysFromToday(-5), time: 1200 },
    ].map((a) => ({ ...a, hour: 10, language: 'Go' }));
    expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
    const db = await getDb();

    const [row] = await db.select().from(users).where(eq(users.id, u.user.id));
    const overview = await dashboardData(row, { name: '7d' });
    expect([overview.time.total_seconds, Math.round(overview.average.average), overview.average.coded, overview.average.days]).toEqual([6600, 2200, 3, 7]);

    const insightsUrl = 'http://localhost/main/api/v1/me/insights?range=7d';
    const insights = await expectDocumented('GET', insightsUrl, await getInsights(new Request(insightsUrl, { headers: { authorization: `Bearer ${await tokenWithScopes(u.user.id, ['stats'])}` } })));
    expect((await insights.json()).daily_average_seconds).toBe(2200);

    const { token: key } = await issueToken(db, u.user.id, { name: 'cli', format: 'uuid' });
    const statsUrl = 'http://localhost/api/wakatime/v1/users/current/stats/last_7_days';
    const stats = await expectDocumented(
      'GET',
      statsUrl,
      await getRangedStats(new Request(statsUrl, { headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}` } }), { params: Promise.resolve({ user: 'current', range: 'last_7_days' }) }),
    );
    expect((await stats.json()).data).toMatchObject({ total_seconds: 6600, daily_average: 2200, days_minus_holidays: 3 });

    // A daily_average badge: the same figure, labelled with what it is over.
    const made = await call(postBadge, '/badges', { token: u.token, body: { metric: 'daily_average', range: '7d' } });
    expect(made.status).toBe(201);
    const badge = await made.json();
    const shields = await getBadgeShields(new Request(badge.shields_url), { params: Promise.resolve({ site: 'github', userUUID: u.user.id }) });
    expect(await shields.json()).toMatchObject({ label: 'avg per coding day 7d', message: '36 mins' });

    // The leaderboard's contract fixes its own: the total over all seven dates (API.md, Leaderboard).
    const boardUrl = 'http://localhost/main/api/v1/leaderboard/api/get/public?range=7d';
    const board = await (await getPublicBoard(new Request(boardUrl))).json();
    const entry = board.entries.find((e: { user: { id: string } }) => e.user.id === u.user.id);
    expect(entry).toMatchObject({ total_seconds: 6600, daily_average_seconds: 943 });
    // Its page says what that figure averages over.
    const page = renderToStaticMarkup(await Board({ query: parseLeaderboardQuery(new URLSearchParams('range=7d')) }));
    expect(page).toContain('Daily average, over all 7 days');
  });
});
