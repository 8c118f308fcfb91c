import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET as getStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { GET as getSummaries } from '@/app/api/wakatime/v1/users/[user]/summaries/route';
import { POST as createBadgeRoute } from '@/app/main/api/v1/badges/route';
import { GET as listPlansRoute } from '@/app/main/api/v1/get/list/plans/route';
import { GET as getMe } from '@/app/main/api/v1/me/route';
import { GET as getInsights } from '@/app/main/api/v1/me/insights/route';
import { POST as createTokenRoute } from '@/app/main/api/v1/me/tokens/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { runCommand } from '@/lib/admin/commands';
import { issueToken } from '@/lib/accounts/tokens';
import { parseConfig, resetConfig } from '@/lib/config';
import { getDb, rows } from '@/lib/db/client';
import { createBoard, joinBoard } from '@/lib/leaderboards/boards';
import { boardEntries } from '@/lib/leaderboards/entries';
import { assertWithin, HARD_CAPS, historyDaysOf, historyFloorSql, limitsOf, MAX_TEAMS_OWNED } from '@/lib/plans';
import { defaultPlanLine } from '@/lib/plans/default-plan';
import { hiddenBefore } from '@/lib/plans/history';
import { timeChart } from '@/lib/stats/chart-bodies';
import { ownerTarget } from '@/lib/stats/own';
import { teamDates, teamFigures } from '@/lib/teams/figures';
import { createTeam, joinTeam } from '@/lib/teams/teams';
import { chosenPlan } from '@/lib/web/public/pricing';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { documented, expectDocumented } from '../helpers/contract';
import { getChart } from '../helpers/public';

// A default install (no PLANS set): every account, whatever plan it has stored, sees all of its
// history and meets no plan limit, only the caps that protect the server; the plan list is what
// the install offers, in the list's shape. With PLANS=on the stored plan applies again
// (tests/api/plan-limits.test.ts holds today's limits).

beforeEach(() => {
  delete process.env.PLANS;
  resetConfig();
});
afterEach(() => {
  delete process.env.PLANS;
  resetConfig();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (request: Request, route?: any) => Promise<Response>;

async function routeCall(handler: Handler, method: string, path: string, opts: { token: string; body?: unknown; query?: string }) {
  const request = new Request(`http://localhost/main/api/v1${path}${opts.query ?? ''}`, {
    method,
    headers: { authorization: `Bearer ${opts.token}`, ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return expectDocumented(method, request.url, await handler(request, { params: Promise.resolve({}) }));
}

async function waka(handler: Handler, path: string, key: string, query = '', params: Record<string, string> = {}) {
  const request = new Request(`http://localhost/api/wakatime/v1/users/current/${path}${query}`, { headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}` } });
  const res = await handler(request, { params: Promise.resolve({ user: 'current', ...params }) });
  return { status: res.status, body: await res.json() };
}

const twoYearsAgo = daysFromToday(-700);
const recent = daysFromToday(-3);

/** An account on the Free plan (as every account made before plans were off) with two years of history: 1 hour 700 days ago, 30 minutes 3 days ago. */
async function freeAccountWithTwoYears() {
  const u = await newUser({ settings: { profile_public: true, share_languages: true } }, 'free');
  const body = {
    activities: [
      { date: twoYearsAgo, hour: 10, language: 'Go', project_name: 'ancient', time: 3600 },
      { date: recent, hour: 10, language: 'Rust', project_name: 'fresh', time: 1800 },
    ],
  };
  expect((await call(postBatch, '/sync/activities', { token: u.token, body })).status).toBe(200);
  return u;
}

describe('the setting', () => {
  it('is off unless PLANS=on; another value names the variable and the rule', () => {
    expect([parseConfig({}).PLANS, parseConfig({ PLANS: 'off' }).PLANS, parseConfig({ PLANS: 'on' }).PLANS]).toEqual([false, false, true]);
    expect(() => parseConfig({ PLANS: 'yes' })).toThrow(/PLANS: must be "on" or "off"/);
  });
});

describe('a default install shows every account all of its history', () => {
  it('a Free account with two years of history sees all of it: all time, the WakaTime stats and summaries, insights, its charts, its public chart', async () => {
    const u = await freeAccountWithTwoYears();
    const db = await getDb();
    const { token: key } = await issueToken(db, u.user.id, { name: 'vim', format: 'uuid', scopes: ['stats', 'account'] });

    expect((await waka(getStats as Handler, 'stats/all_time', key, '', { range: 'all_time' })).body.data.total_seconds).toBe(5400);
    expect((await waka(getSummaries as Handler, 'summaries', key, `?start=${twoYearsAgo}&end=${twoYearsAgo}`)).body.data[0].grand_total.total_seconds).toBe(3600);
    const insights = await (await routeCall(getInsights as Handler, 'GET', '/me/insights', { token: key, query: '?range=all' })).json();
    expect([insights.total_seconds, insights.range.from]).toEqual([5400, twoYearsAgo]);
    const target = ownerTarget({ id: u.user.id, handle: u.user.handle, displayName: u.user.display_name, timezone: 'UTC', statsVersion: 0 });
    const time = await timeChart(db, target, { name: 'all' });
    expect([time.total_seconds, time.range.from]).toEqual([5400, twoYearsAgo]);
    const chart = await (await getChart('time', `user=${u.user.handle}&range=all`)).json();
    expect(chart.total_seconds).toBe(5400);
    // Nothing hidden, so the dashboard says nothing of a plan.
    expect(await hiddenBefore(db, u.user.id, { name: 'all' }, daysFromToday(0))).toBeNull();

    // The stored plan is kept: an install that turns plans on applies it again.
    process.env.PLANS = 'on';
    resetConfig();
    expect(await historyDaysOf(db, u.user.id)).toBe(365);
    expect(await hiddenBefore(db, u.user.id, { name: 'all' }, daysFromToday(0))).toBe(daysFromToday(-364));
  });

  it('a team, a private leaderboard and the SQL window count every day of a member on a short plan', async () => {
    const db = await getDb();
    await db.execute(sql`INSERT INTO plans (id, name, description, price_amount, currency, features, limits, listed, position)
      VALUES ('two-days', 'Two days', 'test', 0, 'USD', '[]', '{"history_days": 2, "api_tokens": 5, "badges": 3, "team_members": 3, "private_leaderboards": 1}', false, 99)
      ON CONFLICT (id) DO NOTHING`);
    const owner = await newUser({}, 'free');
    const member = await newUser({ settings: { profile_public: true, share_languages: true, leaderboard: true } }, 'two-days');
    const body = {
      activities: [
        { date: daysFromToday(-5), hour: 10, language: 'Go', project_name: 'older', time: 3600 },
        { date: daysFromToday(-1), hour: 10, language: 'Rust', project_name: 'recent', time: 1800 },
      ],
    };
    expect((await call(postBatch, '/sync/activities', { token: member.token, body })).status).toBe(200);
    const team = await createTeam(db, owner.user.id, 'everything');
    await joinTeam(db, member.user.id, team.inviteCode);
    const board = await createBoard(db, owner.user.id, { name: 'everything' });
    await joinBoard(db, member.user.id, board.invite_code);
    expect((await teamFigures(db, team.id, teamDates('30d'))).find((f) => f.handle === member.user.handle)?.seconds).toBe(5400);
    expect((await boardEntries(db, board.id, '30d', null)).entries.find((e) => e.handle === member.user.handle)?.seconds).toBe(5400);
    const [row] = await rows<{ floor: string }>(db, sql`SELECT ${historyFloorSql(sql`'{"history_days": 2}'::jsonb`, sql`'UTC'::text`)}::text AS floor`);
    expect(row.floor).toBe('-infinity');
  });
});

describe('a default install has no plan limit, only the caps that protect the server', () => {
  it('a Free account holds more tokens, badges, private leaderboards and team members than Free allows', async () => {
    const db = await getDb();
    const { user, token } = await newUser({}, 'free');
    const account = await tokenWithScopes(user.id, ['account']);
    // Free: 5 tokens (2 held), 3 badges, 1 private leaderboard, teams of 3.
    for (let i = 0; i < 6; i++) expect((await routeCall(createTokenRoute as Handler, 'POST', '/me/tokens', { token: account, body: { name: `t${i}` } })).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await routeCall(createBadgeRoute as Handler, 'POST', '/badges', { token, body: { metric: 'total', range: '7d' } })).status).toBe(201);
    for (let i = 0; i < 3; i++) await createBoard(db, user.id, { name: `board ${i}` });
    const team = await createTeam(db, user.id, 'large');
    const joiners = await Promise.all(Array.from({ length: 5 }, () => newUser({}, 'free')));
    for (const j of joiners) await joinTeam(db, j.user.id, team.inviteCode);

    // GET /me: no plan to name, the server's bounds as the limits, what is used of each.
    const me = await (await routeCall(getMe as Handler, 'GET', '/me', { token: account })).json();
    expect(me.plan).toEqual({
      id: 'self-hosted',
      name: 'Self-hosted',
      limits: { api_tokens: HARD_CAPS.api_tokens, badges: HARD_CAPS.badges, history_days: null, team_members: HARD_CAPS.team_members, private_leaderboards: HARD_CAPS.private_leaderboards },
      usage: { api_tokens: 8, badges: 5, history_days: null, team_members: 6, private_leaderboards: 3 },
    });
    // The limit other parts read (a team's size): none set by a plan.
    expect(await limitsOf(db, user.id)).toEqual({ api_tokens: null, badges: null, history_days: null, team_members: null, private_leaderboards: null });
    // An operator may still set a plan: it is stored for when plans are on, and the answer is what applies now.
    const moved = (await runCommand(db, { command: 'set-plan', handle: user.handle, plan: 'pro' })) as { plan: { id: string } };
    expect(moved.plan.id).toBe('self-hosted');
    expect((await rows<{ plan_id: string }>(db, sql`SELECT plan_id FROM users WHERE id = ${user.id}::uuid`))[0].plan_id).toBe('pro');
  });

  it('the hard caps stay, and a refusal names the server, not a plan', async () => {
    const { user } = await newUser({}, 'free');
    const db = await getDb();
    await expect(assertWithin(db, user.id, 'api_tokens', HARD_CAPS.api_tokens - 1)).resolves.toBeUndefined();
    const err = await assertWithin(db, user.id, 'api_tokens', HARD_CAPS.api_tokens).catch((e) => e);
    expect(err).toMatchObject({ status: 403, code: 'plan_limit', detail: `This server allows ${HARD_CAPS.api_tokens} API tokens an account, the most it keeps for anyone.` });
    const full = await assertWithin(db, user.id, 'team_members', HARD_CAPS.team_members, 'This team').catch((e) => e);
    expect(full.detail).toBe(`This team has ${HARD_CAPS.team_members} team members, the most this server allows.`);
    // Teams owned: no plan counts them, and the bound stays.
    for (let i = 0; i < MAX_TEAMS_OWNED; i++) await createTeam(db, user.id, `t${i}`);
    await expect(createTeam(db, user.id, 'one more')).rejects.toMatchObject({ code: 'plan_limit', extra: { errors: [{ path: 'teams' }] } });
  });
});

describe('what a default install lists and says of plans', () => {
  it('GET /get/list/plans keeps its shape: one record, what this install offers, free, no price that cannot be paid', async () => {
    const request = new Request('http://localhost/main/api/v1/get/list/plans');
    const res = await documented(request, await listPlansRoute(request));
    expect(res.status).toBe(200);
    const { plans } = await res.json();
    expect(plans).toHaveLength(1);
    const [plan] = plans;
    expect(Object.keys(plan).sort()).toEqual(['description', 'features', 'highlighted', 'id', 'limits', 'name', 'price']);
    expect(plan).toMatchObject({ id: 'self-hosted', price: { amount: 0, interval: null }, limits: { history_days: null, team_members: HARD_CAPS.team_members } });
    expect(plan.features).toContain('Unlimited history');
    expect(plan.features).toContain(`Up to ${HARD_CAPS.api_tokens} API tokens`);
  });

  it('no plan is chosen on signing up, and the server says at start that plans are off', async () => {
    const db = await getDb();
    expect(await chosenPlan(db, 'pro')).toBeNull();
    expect(await chosenPlan(db, 'self-hosted')).toBeNull();
    expect(await defaultPlanLine(db, undefined)).toBe('plans are off: every account sees all of its history, with no plan limit (PLANS=on sells plans)');
    // A DEFAULT_PLAN naming no plan is still refused: it would apply once plans are on.
    await expect(defaultPlanLine(db, 'gold')).rejects.toThrow(/^DEFAULT_PLAN: no plan "gold"/);
  });
});
