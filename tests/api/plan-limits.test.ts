import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { GET as getSummaries } from '@/app/api/wakatime/v1/users/[user]/summaries/route';
import { GET as getStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { GET as getProjects } from '@/app/api/wakatime/v1/users/[user]/projects/route';
import { PATCH as patchUser } from '@/app/main/api/v1/admin/users/[handle]/route';
import { POST as createBadgeRoute } from '@/app/main/api/v1/badges/route';
import { GET as getMe } from '@/app/main/api/v1/me/route';
import { GET as getInsights } from '@/app/main/api/v1/me/insights/route';
import { GET as listProjectsRoute } from '@/app/main/api/v1/me/projects/route';
import { POST as createTokenRoute } from '@/app/main/api/v1/me/tokens/route';
import { DELETE as revokeTokenRoute } from '@/app/main/api/v1/me/tokens/[id]/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { GET as shieldsRoute } from '@/app/main/api/v1/public/[site]/shields/[userUUID]/route';
import { runCommand } from '@/lib/admin/commands';
import { createUser } from '@/lib/accounts/users';
import { defaultPlanLine } from '@/lib/plans/default-plan';
import { hiddenBefore } from '@/lib/plans/history';
import { issueToken, listTokens } from '@/lib/accounts/tokens';
import { createBadge, listBadges } from '@/lib/badges/store';
import { resetConfig } from '@/lib/config';
import { getDb, rows } from '@/lib/db/client';
import { ApiError } from '@/lib/http/problem';
import { assertWithin, effectiveLimits, HARD_CAPS, historyFloor, historyFloorSql } from '@/lib/plans';
import { createBoard, joinBoard } from '@/lib/leaderboards/boards';
import { boardEntries, rangeDates, sharedLanguages } from '@/lib/leaderboards/entries';
import { localDateHour } from '@/lib/local-time';
import { rebuildLeaderboard } from '@/lib/stats/leaderboard/snapshot';
import { teamDates, teamFigures } from '@/lib/teams/figures';
import { createTeam, joinTeam, setShare } from '@/lib/teams/teams';
import { hitmapChart, timeChart } from '@/lib/stats/chart-bodies';
import { ownerTarget } from '@/lib/stats/own';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';
import { getChart } from '../helpers/public';

// Each limit of a plan, enforced where the thing is made or read; an operator's change of plan
// applies at once; a downgrade removes nothing.

// With plans on (PLANS=on), as an install that sells them; a default install's answers are in
// tests/api/plans-off.test.ts.
const adminToken = 'test-admin-token-0123456789';
process.env.ADMIN_TOKEN = adminToken;
process.env.PLANS = 'on';
resetConfig();
afterEach(() => {
  process.env.ADMIN_TOKEN = adminToken;
  process.env.PLANS = 'on';
  resetConfig();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (request: Request, route?: any) => Promise<Response>;

async function routeCall(handler: Handler, method: string, path: string, opts: { token: string; body?: unknown; params?: Record<string, string>; query?: string }) {
  const request = new Request(`http://localhost/main/api/v1${path}${opts.query ?? ''}`, {
    method,
    headers: { authorization: `Bearer ${opts.token}`, ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return expectDocumented(method, request.url, await handler(request, { params: Promise.resolve(opts.params ?? {}) }));
}

const setPlan = (handle: string, plan: unknown, token = adminToken) =>
  routeCall(patchUser as Handler, 'PATCH', `/admin/users/${handle}`, { token, body: { plan }, params: { handle } });

async function waka(handler: Handler, path: string, key: string, query = '', params: Record<string, string> = {}) {
  const request = new Request(`http://localhost/api/wakatime/v1/users/current/${path}${query}`, { headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}` } });
  const res = await handler(request, { params: Promise.resolve({ user: 'current', ...params }) });
  return { status: res.status, body: await res.json() };
}

const old = daysFromToday(-500); // outside Free's year
const recent = daysFromToday(-3);

/** A Free user who coded 1 hour 500 days ago (project "ancient") and 30 minutes 3 days ago (project "fresh"). */
async function freeCoderWithOldHistory() {
  const u = await newUser({ settings: { profile_public: true, share_languages: true, share_editors: true } }, 'free');
  const body = {
    activities: [
      { date: old, hour: 10, language: 'Go', project_name: 'ancient', time: 3600 },
      { date: recent, hour: 10, language: 'Rust', project_name: 'fresh', time: 1800 },
    ],
  };
  expect((await call(postBatch, '/sync/activities', { token: u.token, body })).status).toBe(200);
  return u;
}

describe('api_tokens', () => {
  it('Free holds 5 live tokens: the 6th is a 403 naming the limit and the plan that lifts it; an upgrade lifts it at once', async () => {
    const { user } = await newUser({}, 'free'); // its plugin token is the first
    const account = await tokenWithScopes(user.id, ['account']); // the second
    for (let i = 0; i < 3; i++) expect((await routeCall(createTokenRoute as Handler, 'POST', '/me/tokens', { token: account, body: { name: `t${i}` } })).status).toBe(201);
    const refused = await routeCall(createTokenRoute as Handler, 'POST', '/me/tokens', { token: account, body: { name: 'one more' } });
    expect(refused.status).toBe(403);
    const problem = await refused.json();
    expect(problem).toMatchObject({ code: 'plan_limit', status: 403, errors: [{ path: 'api_tokens', code: 'plan_limit' }] });
    expect(problem.detail).toBe('Your plan (Free) allows 5 API tokens; the Pro plan allows 20.');

    expect((await setPlan(user.handle, 'pro')).status).toBe(200);
    expect((await routeCall(createTokenRoute as Handler, 'POST', '/me/tokens', { token: account, body: { name: 'now allowed' } })).status).toBe(201);
  });

  it('a revoked token makes room', async () => {
    const { user } = await newUser({}, 'free');
    const account = await tokenWithScopes(user.id, ['account']);
    const db = await getDb();
    for (let i = 0; i < 3; i++) await issueToken(db, user.id, { name: `t${i}` });
    const first = (await listTokens(db, user.id)).find((t) => t.name === 't0')!;
    expect((await routeCall(revokeTokenRoute as Handler, 'DELETE', `/me/tokens/${first.id}`, { token: account, params: { id: first.id } })).status).toBe(204);
    expect((await routeCall(createTokenRoute as Handler, 'POST', '/me/tokens', { token: account, body: { name: 'in its place' } })).status).toBe(201);
  });

  it('are never more than the limit, however many are asked for at once', async () => {
    const { user } = await newUser({}, 'free');
    const db = await getDb();
    const attempts = await Promise.all(Array.from({ length: 12 }, (_, i) => issueToken(db, user.id, { name: `c${i}` }).catch((err) => err)));
    const refused = attempts.filter((a) => a instanceof ApiError);
    expect(refused).toHaveLength(8); // 1 from newUser + 4 made here = 5
    expect(refused.every((r) => r.code === 'plan_limit')).toBe(true);
    expect((await listTokens(db, user.id)).filter((t) => !t.revoked_at)).toHaveLength(5);
  });
});

describe('badges', () => {
  it('Free has 3: the 4th is a 403 naming the limit; upgrading allows it, a downgrade keeps all and refuses more', async () => {
    const { user, token } = await newUser({}, 'free');
    for (let i = 0; i < 3; i++) expect((await routeCall(createBadgeRoute as Handler, 'POST', '/badges', { token, body: { metric: 'total', range: '7d' } })).status).toBe(201);
    const refused = await routeCall(createBadgeRoute as Handler, 'POST', '/badges', { token, body: { metric: 'total', range: '30d' } });
    expect(refused.status).toBe(403);
    const problem = await refused.json();
    expect(problem).toMatchObject({ code: 'plan_limit', errors: [{ path: 'badges' }] });
    expect(problem.detail).toBe('Your plan (Free) allows 3 badges; the Pro plan allows 50.');

    expect((await setPlan(user.handle, 'pro')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await routeCall(createBadgeRoute as Handler, 'POST', '/badges', { token, body: { metric: 'total', range: 'all' } })).status).toBe(201);

    // Back to Free: the 5 badges stay and still answer; a 6th is refused.
    expect((await setPlan(user.handle, 'free')).status).toBe(200);
    const kept = await listBadges(await getDb(), user.id);
    expect(kept).toHaveLength(5);
    const shields = await shieldsRoute(new Request(`http://localhost/main/api/v1/public/github/shields/${user.id}?badge=${kept[4].id}`), {
      params: Promise.resolve({ site: 'github', userUUID: user.id }),
    });
    expect(shields.status).toBe(200);
    expect((await routeCall(createBadgeRoute as Handler, 'POST', '/badges', { token, body: { metric: 'total', range: '7d' } })).status).toBe(403);
  });

  it('are never more than the limit, however many are asked for at once', async () => {
    const { user } = await newUser({}, 'free');
    const db = await getDb();
    const attempts = await Promise.all(Array.from({ length: 8 }, () => createBadge(db, user.id, { metric: 'total', range: '7d' }).catch((err) => err)));
    expect(attempts.filter((a) => a instanceof ApiError)).toHaveLength(5);
    expect(await listBadges(db, user.id)).toHaveLength(3);
  });
});

describe('counted limits for teams and private leaderboards', () => {
  it('assertWithin refuses at the limit, names the plan that lifts it, and passes below it', async () => {
    const { user } = await newUser({}, 'free');
    const db = await getDb();
    await expect(assertWithin(db, user.id, 'private_leaderboards', 0)).resolves.toBeUndefined();
    const err = await assertWithin(db, user.id, 'private_leaderboards', 1).catch((e) => e);
    expect(err).toMatchObject({ status: 403, code: 'plan_limit', detail: 'Your plan (Free) allows 1 private leaderboard; the Pro plan allows 5.' });
    expect(err.extra.errors[0].path).toBe('private_leaderboards');
    const members = await assertWithin(db, user.id, 'team_members', 3).catch((e) => e);
    expect(members.detail).toBe('Your plan (Free) allows 3 team members; the Pro plan allows 10.');
    // An unlimited plan is still bounded by the hard cap no plan lifts.
    await runCommand(db, { command: 'set-plan', handle: user.handle, plan: 'team' });
    await expect(assertWithin(db, user.id, 'team_members', HARD_CAPS.team_members - 1)).resolves.toBeUndefined();
    const capped = await assertWithin(db, user.id, 'team_members', HARD_CAPS.team_members).catch((e) => e);
    expect(capped.detail).toBe(`Your plan (Team) allows ${HARD_CAPS.team_members} team members; no plan allows more.`);
  });
});

describe('history_days', () => {
  it('the owner\'s own summaries, stats, projects and insights show no day before the window, and show it again after an upgrade', async () => {
    const u = await freeCoderWithOldHistory();
    const { token: key } = await issueToken(await getDb(), u.user.id, { name: 'vim', format: 'uuid', scopes: ['stats', 'account'] });

    const summary = await waka(getSummaries as Handler, 'summaries', key, `?start=${old}&end=${old}`);
    expect(summary.status).toBe(200);
    expect(summary.body.data[0].grand_total.total_seconds).toBe(0);
    expect((await waka(getStats as Handler, 'stats/all_time', key, '', { range: 'all_time' })).body.data.total_seconds).toBe(1800);
    expect((await waka(getProjects as Handler, 'projects', key)).body.data.map((p: { name: string }) => p.name)).toEqual(['fresh']);
    const insights = await (await routeCall(getInsights as Handler, 'GET', '/me/insights', { token: key, query: '?range=all' })).json();
    expect([insights.total_seconds, insights.range.from]).toEqual([1800, daysFromToday(-364)]);
    const projects = await (await routeCall(listProjectsRoute as Handler, 'GET', '/me/projects', { token: key, query: '?range=all' })).json();
    expect(projects.projects.map((p: { name: string }) => p.name)).toEqual(['fresh']);

    expect((await setPlan(u.user.handle, 'pro')).status).toBe(200);
    expect((await waka(getSummaries as Handler, 'summaries', key, `?start=${old}&end=${old}`)).body.data[0].grand_total.total_seconds).toBe(3600);
    expect((await waka(getStats as Handler, 'stats/all_time', key, '', { range: 'all_time' })).body.data.total_seconds).toBe(5400);

    // A downgrade hides it again; nothing was deleted.
    expect((await setPlan(u.user.handle, 'free')).status).toBe(200);
    expect((await waka(getStats as Handler, 'stats/all_time', key, '', { range: 'all_time' })).body.data.total_seconds).toBe(1800);
    expect((await setPlan(u.user.handle, 'team')).status).toBe(200);
    expect((await waka(getStats as Handler, 'stats/all_time', key, '', { range: 'all_time' })).body.data.total_seconds).toBe(5400);
  });

  it('a public chart shows no day before the owner\'s window, whatever range is asked', async () => {
    const u = await freeCoderWithOldHistory();
    const all = await (await getChart('time', `user=${u.user.handle}&range=all`)).json();
    expect([all.total_seconds, all.range.from]).toEqual([1800, daysFromToday(-364)]);
    const custom = await (await getChart('time', `user=${u.user.handle}&from=${daysFromToday(-501)}&to=${daysFromToday(-499)}`)).json();
    expect(custom.total_seconds).toBe(0);
    expect((await setPlan(u.user.handle, 'pro')).status).toBe(200);
    expect((await (await getChart('time', `user=${u.user.handle}&range=all`)).json()).total_seconds).toBe(5400);
  });

  it('the dashboard\'s charts show no day before the window', async () => {
    const u = await freeCoderWithOldHistory();
    const db = await getDb();
    const target = ownerTarget({ id: u.user.id, handle: u.user.handle, displayName: u.user.display_name, timezone: 'UTC', statsVersion: 0 });
    const time = await timeChart(db, target, { name: 'all' });
    expect([time.total_seconds, time.range.from]).toEqual([1800, daysFromToday(-364)]);
    const hitmap = await hitmapChart(db, target, { name: '365d' });
    expect(hitmap.days.reduce((s: number, d: { seconds: number }) => s + d.seconds, 0)).toBe(1800);
  });
});

describe('the plan new accounts start on (DEFAULT_PLAN)', () => {
  afterEach(() => {
    delete process.env.DEFAULT_PLAN;
    resetConfig();
  });

  it('is Free unless set; set, every new account starts on it and sees all of its history', async () => {
    const db = await getDb();
    expect(await defaultPlanLine(db, undefined)).toMatch(/^plans are on: new accounts start on the Free plan: the last 365 days of history shown \(older activity is kept; npm run admin -- set-plan/);
    const free = await freeCoderWithOldHistory();
    expect(await hiddenBefore(db, free.user.id, { name: 'all' }, daysFromToday(0))).toBe(daysFromToday(-364));
    expect(await hiddenBefore(db, free.user.id, { name: '30d' }, daysFromToday(0))).toBeNull();

    process.env.DEFAULT_PLAN = 'pro';
    resetConfig();
    expect(await defaultPlanLine(db, 'pro')).toBe('plans are on: new accounts start on the Pro plan: all of their history shown');
    const { user } = await createUser(db, { handle: `dp${Math.random().toString(36).slice(2, 9)}` });
    const [{ plan_id }] = await rows<{ plan_id: string }>(db, sql`SELECT plan_id FROM users WHERE id = ${user.id}::uuid`);
    expect(plan_id).toBe('pro');
    expect(await hiddenBefore(db, user.id, { name: 'all' }, daysFromToday(0))).toBeNull();
  });

  it('naming no plan is a configuration error that lists the plans', async () => {
    await expect(defaultPlanLine(await getDb(), 'gold')).rejects.toThrow(/^DEFAULT_PLAN: no plan "gold" \(the plans: .*free.*\)$/);
  });
});

describe('history_days of many users at once (teams, private and public leaderboards)', () => {
  it('a team\'s page, a private leaderboard and the public leaderboard count no day of a member before their own plan\'s window, and count it after an upgrade', async () => {
    const db = await getDb();
    // An operator's plan showing two days: yesterday and today.
    await db.execute(sql`INSERT INTO plans (id, name, description, price_amount, currency, features, limits, listed, position)
      VALUES ('two-days', 'Two days', 'test', 0, 'USD', '[]', '{"history_days": 2, "api_tokens": 5, "badges": 3, "team_members": 3, "private_leaderboards": 1}', false, 99)
      ON CONFLICT (id) DO NOTHING`);
    const owner = await newUser();
    const member = await newUser({ settings: { profile_public: true, share_languages: true, leaderboard: true } }, 'two-days');
    const body = {
      activities: [
        { date: daysFromToday(-5), hour: 10, language: 'Go', project_name: 'older', time: 3600 },
        { date: daysFromToday(-1), hour: 10, language: 'Rust', project_name: 'recent', time: 1800 },
      ],
    };
    expect((await call(postBatch, '/sync/activities', { token: member.token, body })).status).toBe(200);
    const team = await createTeam(db, owner.user.id, 'window');
    await joinTeam(db, member.user.id, team.inviteCode);
    await setShare(db, member.user.id, team.id, 'languages');
    const board = await createBoard(db, owner.user.id, { name: 'window' });
    await joinBoard(db, member.user.id, board.invite_code);

    const seen = async () => {
      const inTeam = (await teamFigures(db, team.id, teamDates('30d'))).find((f) => f.handle === member.user.handle);
      const ranked = (await boardEntries(db, board.id, '30d', null)).entries.find((e) => e.handle === member.user.handle);
      const byGo = (await boardEntries(db, board.id, '30d', 'go')).entries.map((e) => e.handle);
      const languages = (await sharedLanguages(db, board.id, rangeDates('30d'))).get(member.user.id);
      // The public leaderboard, rebuilt twice: afresh for this member, then shifted (nothing moved).
      await rebuildLeaderboard(db, '7d');
      await rebuildLeaderboard(db, '7d');
      const [entry] = await rows<{ millis: number }>(db, sql`SELECT total_millis::float8 AS millis FROM leaderboard_entries WHERE range = '7d' AND user_id = ${member.user.id}::uuid`);
      const publicLanguages = await rows<{ language: string }>(db, sql`SELECT language FROM leaderboard_languages WHERE range = '7d' AND user_id = ${member.user.id}::uuid ORDER BY 1`);
      return { team: [inTeam?.seconds, inTeam?.languages], board: ranked?.seconds, byGo, languages, public: [entry.millis / 1000, publicLanguages.map((l) => l.language)] };
    };
    expect(await seen()).toEqual({ team: [1800, [{ name: 'Rust', seconds: 1800 }]], board: 1800, byGo: [], languages: [{ name: 'Rust', seconds: 1800 }], public: [1800, ['Rust']] });

    expect((await setPlan(member.user.handle, 'pro')).status).toBe(200);
    expect(await seen()).toEqual({
      team: [5400, [{ name: 'Go', seconds: 3600 }, { name: 'Rust', seconds: 1800 }]],
      board: 5400,
      byGo: [member.user.handle],
      languages: [{ name: 'Go', seconds: 3600 }, { name: 'Rust', seconds: 1800 }],
      public: [5400, ['Go', 'Rust']],
    });
  });

  it('the window in SQL is the window in code, for any stored limit and time zone', async () => {
    const db = await getDb();
    const zones = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata', 'America/St_Johns'];
    const stored = [{ history_days: null }, { history_days: 365 }, { history_days: 1 }, { history_days: 0 }, { history_days: -4 }, { history_days: 2.7 },
      { history_days: '30' }, { history_days: true }, {}, { history_days: 99_999 }, { history_days: 100_000 }, { history_days: 5_000_000 }];
    for (const timeZone of zones) {
      for (const limits of stored) {
        const [row] = await rows<{ floor: string; today: string }>(db, sql`SELECT ${historyFloorSql(sql`${JSON.stringify(limits)}::jsonb`, sql`${timeZone}::text`)}::text AS floor`);
        const expected = historyFloor(effectiveLimits(limits).history_days, localDateHour(timeZone).date) ?? '-infinity';
        expect({ timeZone, limits, floor: row.floor }).toEqual({ timeZone, limits, floor: expected });
      }
    }
  });
});

describe('the plan of an account', () => {
  it('private leaderboards made and a team\'s members are bounded by the plan; the refusal names the limit and the plan that lifts it', async () => {
    const db = await getDb();
    const { user } = await newUser({}, 'free');
    await createBoard(db, user.id, { name: 'first' });
    await expect(createBoard(db, user.id, { name: 'second' })).rejects.toMatchObject({
      code: 'plan_limit',
      detail: expect.stringMatching(/Your plan \(Free\) allows 1 private leaderboard; the Pro plan allows 5/),
      extra: { errors: [{ path: 'private_leaderboards', code: 'plan_limit' }] },
    });
    // Joining others' boards is not bounded.
    const other = await createBoard(db, (await newUser()).user.id, { name: 'theirs' });
    await expect(joinBoard(db, user.id, other.invite_code)).resolves.toMatchObject({ id: other.id });

    // A Free owner's team holds 3 members; the fourth is refused without being told the owner's plan, and is not added.
    const team = await createTeam(db, user.id, 'small');
    const joiners = await Promise.all([newUser(), newUser(), newUser()]);
    await joinTeam(db, joiners[0].user.id, team.inviteCode);
    await joinTeam(db, joiners[1].user.id, team.inviteCode);
    await joinTeam(db, joiners[1].user.id, team.inviteCode); // again: changes nothing, refuses nothing
    await expect(joinTeam(db, joiners[2].user.id, team.inviteCode)).rejects.toMatchObject({
      code: 'plan_limit',
      detail: expect.stringMatching(/^This team allows 3 team members, and has them/),
    });
    await expect(joinTeam(db, joiners[2].user.id, team.inviteCode)).rejects.toSatisfy((err: ApiError) => !/Free|Pro|Team plan/.test(err.detail));
    // Two joins at once past the limit: the team's row lets one through at most.
    expect((await setPlan(user.handle, 'pro')).status).toBe(200); // 10 members
    const many = await Promise.all(Array.from({ length: 9 }, () => newUser()));
    const joins = await Promise.allSettled(many.map((m) => joinTeam(db, m.user.id, team.inviteCode)));
    expect(joins.filter((j) => j.status === 'fulfilled')).toHaveLength(7);
    expect(joins.filter((j) => j.status === 'rejected').map((j) => ((j as PromiseRejectedResult).reason as ApiError).code)).toEqual(['plan_limit', 'plan_limit']);
  });

  it('GET /me shows the plan, its limits and what is used of each', async () => {
    const { user } = await newUser({}, 'free');
    const account = await tokenWithScopes(user.id, ['account']);
    const body = await (await routeCall(getMe as Handler, 'GET', '/me', { token: account })).json();
    expect(body.plan).toEqual({
      id: 'free',
      name: 'Free',
      limits: { api_tokens: 5, badges: 3, history_days: 365, team_members: 3, private_leaderboards: 1 },
      usage: { api_tokens: 2, badges: 0, history_days: 365, team_members: 0, private_leaderboards: 0 },
    });
    const db = await getDb();
    await createBoard(db, user.id, { name: 'mine' });
    const team = await createTeam(db, user.id, 'mine');
    await joinTeam(db, (await newUser()).user.id, team.inviteCode);
    const after = await (await routeCall(getMe as Handler, 'GET', '/me', { token: account })).json();
    expect(after.plan.usage).toMatchObject({ team_members: 2, private_leaderboards: 1 });
  });

  it('an operator sets it by handle, in any case; an unknown plan is a 422 naming plan, an unknown user a 404, a wrong token a 401', async () => {
    const { user } = await newUser({}, 'free');
    const ok = await setPlan(user.handle.toUpperCase(), 'team');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ handle: user.handle, plan: { id: 'team', name: 'Team', limits: { team_members: HARD_CAPS.team_members } } });
    const unknown = await setPlan(user.handle, 'enterprise');
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({ code: 'invalid_payload', errors: [{ path: 'plan', code: 'unknown_plan' }] });
    expect((await setPlan('nobody_here', 'pro')).status).toBe(404);
    expect((await setPlan('a\u0000b', 'pro')).status).toBe(404); // no handle can hold a NUL: not asked of the database
    expect((await setPlan(user.handle, 'pro', 'wrong-token-0123456789')).status).toBe(401);
    expect((await setPlan(user.handle, 42)).status).toBe(422);
  });

  it('the admin CLI sets it too', async () => {
    const { user } = await newUser({}, 'free');
    const result = (await runCommand(await getDb(), { command: 'set-plan', handle: user.handle, plan: 'pro' })) as { plan: { id: string } };
    expect(result.plan.id).toBe('pro');
    await expect(runCommand(await getDb(), { command: 'set-plan', handle: 'nobody_here', plan: 'pro' })).rejects.toThrow(/no user/);
  });
});
