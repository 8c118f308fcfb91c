import { describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/config';
import { GET as leaderboard } from '@/app/main/api/v1/leaderboard/api/get/public/route';
import { POST as createBadge } from '@/app/main/api/v1/badges/route';
import { GET as svgRoute } from '@/app/main/api/v1/public/[site]/svg/[userUUID]/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { defaultSettings, type Settings } from '@/lib/accounts/schemas';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { getChart } from '../helpers/public';
import { documented } from '../helpers/contract';
import { encode } from '@auth/core/jwt';
import { GET as listProjects } from '@/app/main/api/v1/me/projects/route';
import { GET as daysRoute } from '@/app/main/api/v1/me/projects/[name]/days/route';
import { PUT as hiddenRoute } from '@/app/main/api/v1/me/projects/[name]/hidden/route';
import { POST as renameRoute } from '@/app/main/api/v1/me/projects/[name]/rename/route';
import { POST as splitRoute } from '@/app/main/api/v1/me/projects/[name]/split/route';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { GET as wakaDurations } from '@/app/api/wakatime/v1/users/[user]/durations/route';
import { GET as wakaGoal } from '@/app/api/wakatime/v1/users/[user]/goals/[id]/route';
import { GET as wakaGoals } from '@/app/api/wakatime/v1/users/[user]/goals/route';
import { DELETE as deleteGoal } from '@/app/main/api/v1/me/goals/[id]/route';
import { GET as listGoals, POST as postGoal } from '@/app/main/api/v1/me/goals/route';
import { GET as wakaHeartbeats } from '@/app/api/wakatime/v1/users/[user]/heartbeats/route';
import { GET as wakaProjects } from '@/app/api/wakatime/v1/users/[user]/projects/route';
import { GET as wakaProject } from '@/app/api/wakatime/v1/users/[user]/projects/[project]/route';
import { GET as wakaStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { GET as wakaStatusBar } from '@/app/api/wakatime/v1/users/[user]/status_bar/today/route';
import { GET as wakaSummaries } from '@/app/api/wakatime/v1/users/[user]/summaries/route';
import { authSecret } from '@/lib/auth/secret';
import { sessionVersion } from '@/lib/auth/sessions';
import { getDb } from '@/lib/db/client';
import { setProjectHidden } from '@/lib/projects/hidden';

// For each public surface: an anonymous viewer x the owner's settings -> the expected answer.

const today = daysFromToday(0);
const owners: Record<string, Partial<Settings>> = {
  private: {},
  public: { profile_public: true },
  'public+languages': { profile_public: true, share_languages: true },
  'public+editors': { profile_public: true, share_editors: true },
  'leaderboard only': { leaderboard: true },
  'leaderboard+languages': { leaderboard: true, share_languages: true },
  'no community stats': { profile_public: true, community_stats: false },
};

async function owner(settings: Partial<Settings>) {
  const u = await newUser({ settings: { ...defaultSettings, ...settings } });
  const activities = [{ language: 'Elixir', time: 1200, hour: 9, date: today, ide_name: 'helix' }];
  expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
  return u;
}

const range = `from=${today}&to=${today}`;

describe.each(Object.entries(owners))('owner %s', (_, settings) => {
  const s = { ...defaultSettings, ...settings };

  it('per-user charts: 404 unless public; languages and editors only if shared', async () => {
    const { user } = await owner(settings);
    const time = await getChart('time', `user=${user.handle}&${range}`);
    const language = await getChart('language', `user=${user.handle}&${range}`);
    const hitmaps = await getChart('hitmaps', `user=${user.id}&${range}`);
    const weekly = await getChart('weekly', `user=${user.id}&weeks=1`);
    for (const res of [time, language, hitmaps, weekly]) expect(res.status).toBe(s.profile_public ? 200 : 404);
    if (!s.profile_public) return;
    const t = await time.json();
    expect(t.total_seconds).toBe(1200);
    expect(t.editors.map((e: { name: string }) => e.name)).toEqual(s.share_editors ? ['Helix'] : []);
    expect((await language.json()).languages.map((l: { name: string }) => l.name)).toEqual(s.share_languages ? ['Elixir'] : []);
    expect((await weekly.json()).weeks[0].top_language).toBe(s.share_languages ? 'Elixir' : null);
  });

  it('leaderboard: listed only if opted in; languages only if shared', async () => {
    const { user } = await owner(settings);
    const byTotal = new Request('http://localhost/main/api/v1/leaderboard/api/get/public?range=7d&limit=100');
    const body = await (await documented(byTotal, await leaderboard(byTotal))).json();
    const entry = body.entries.find((e: { user: { id: string } }) => e.user.id === user.id);
    expect(Boolean(entry)).toBe(s.leaderboard);
    if (entry) expect(entry.languages.map((l: { name: string }) => l.name)).toEqual(s.share_languages ? ['Elixir'] : []);
    const elixir = new Request('http://localhost/main/api/v1/leaderboard/api/get/public?range=7d&language=Elixir&limit=100');
    const byLanguage = await (await documented(elixir, await leaderboard(elixir))).json();
    expect(byLanguage.entries.some((e: { user: { id: string } }) => e.user.id === user.id)).toBe(s.leaderboard && s.share_languages);
  });

  it('badge: shown whatever the profile settings, because the owner created it', async () => {
    const { user, token } = await owner(settings);
    const badge = await (await call(createBadge, '/badges', { token, body: { metric: 'total', range: '7d' } })).json();
    const embed = new Request(badge.url);
    const res = await documented(embed, await svgRoute(embed, { params: Promise.resolve({ site: 'github', userUUID: user.id }) }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('20 mins');
  });

  it('badge token: publishes (and so sees) a language\'s figure only while the owner shares languages', async () => {
    const { user, token } = await owner(settings);
    const res = await call(createBadge, '/badges', { token, body: { metric: 'language', range: '7d', language: 'Elixir' } });
    expect(res.status).toBe(s.share_languages ? 201 : 403);
    if (!s.share_languages) {
      expect((await res.json()).errors[0].code).toBe('languages_not_shared');
      return;
    }
    const badge = await res.json();
    const svg = await svgRoute(new Request(badge.url), { params: Promise.resolve({ site: 'github', userUUID: user.id }) });
    expect(await svg.text()).toContain('20 mins');
  });
});

describe('site-wide figures and community_stats', () => {
  it('count members and never a user who opted out', async () => {
    // Exact figures: noise and rounding off (tests/api/community-privacy.test.ts covers them).
    process.env.PUBLIC_NOISE_SECONDS = '0';
    resetConfig();
    const day = '2026-07-01';
    const post = async (u: { token: string }, time: number) =>
      call(postBatch, '/sync/activities', { token: u.token, body: { activities: [{ language: 'Go', time, hour: 8, date: day }] } });
    for (let i = 0; i < 3; i++) await post(await newUser(), 100);
    const before = await (await getChart('time', `from=${day}&to=${day}`)).json();
    expect(before.total_seconds).toBe(300);
    await post(await newUser({ settings: { ...defaultSettings, community_stats: false } }), 999);
    expect((await (await getChart('time', `from=${day}&to=${day}`)).json()).total_seconds).toBe(300);
    await post(await newUser(), 50);
    expect((await (await getChart('time', `from=${day}&to=${day}`)).json()).total_seconds).toBe(350);
  });
});

// The owner's projects x the caller: who may change them (hide, show, rename, merge, split) and
// who may learn which are hidden. The session and an `account` token are the owner; a `stats` key
// (what README Actions and WakaTime's tools hold) reads the figures as every surface but the
// owner's own list shows them; a plugin token (`sync`, `badges`) neither.

type Caller = 'session' | 'account' | 'stats' | 'plugin';
const callers: Caller[] = ['session', 'account', 'stats', 'plugin'];
const owns = (caller: Caller) => caller === 'session' || caller === 'account';

/** The cookie Auth.js sets at sign-in (what lib/auth/session.ts reads), for a user who signed in. */
async function sessionCookie(userId: string): Promise<string> {
  const name = 'authjs.session-token';
  const sv = await sessionVersion(await getDb(), userId);
  return `${name}=${await encode({ token: { sub: userId, sv }, salt: name, secret: authSecret() })}`;
}

/**
 * A user with yesterday's time in projects a, b and secret (hidden): buckets, and heartbeats of
 * secret (4 minutes); and a request as each caller would send it.
 */
async function projectOwner() {
  const { user, token: plugin } = await newUser({ timezone: 'UTC' });
  const [account, stats, cookie] = [await tokenWithScopes(user.id, ['account']), await tokenWithScopes(user.id, ['stats']), await sessionCookie(user.id)];
  const yesterday = daysFromToday(-1);
  const activities = [
    { project_name: 'a', time: 600, hour: 9 },
    { project_name: 'b', time: 1200, hour: 10 },
    { project_name: 'secret', time: 1800, hour: 11 },
  ].map((b) => ({ ...b, language: 'Go', date: yesterday, ide_name: 'vscode' }));
  expect((await call(postBatch, '/sync/activities', { token: plugin, body: { activities } })).status).toBe(200);
  const at = Date.parse(`${yesterday}T12:00:00Z`) / 1000;
  const beats = [0, 120, 240].map((s) => ({ entity: '/src/secret/x.go', time: at + s, type: 'file', language: 'Go', project: 'secret' }));
  const bulk = new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${plugin}`, 'user-agent': 'wakatime/v1.100.0 (linux-6.8.0) go1.24.4 vim/9.1 vim-wakatime/11.2.0' },
    body: JSON.stringify(beats),
  });
  expect((await postBulk(bulk, { params: Promise.resolve({ user: 'current' }) })).status).toBe(201);
  await setProjectHidden(await getDb(), user.id, 'secret', true);
  const credentials: Record<Caller, Record<string, string>> = {
    session: { cookie, 'sec-fetch-site': 'same-origin' },
    account: { authorization: `Bearer ${account}` },
    stats: { authorization: `Bearer ${stats}` },
    plugin: { authorization: `Bearer ${plugin}` },
  };
  return { user, account, stats, credentials };
}

// Any route's handler: each names its own params (the test passes what its path holds).
type ProjectHandler = (request: Request, context: { params: Promise<never> }) => Response | Promise<Response>;

/** A documented answer of a /me/projects route or a WakaTime read, as `headers` ask. */
async function ask(handler: ProjectHandler, method: string, url: string, headers: Record<string, string>, params: Record<string, string> = {}, body?: unknown) {
  const request = new Request(url, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return documented(request, await handler(request, { params: Promise.resolve(params) as Promise<never> }));
}

const me = 'http://localhost/main/api/v1/me/projects';
const waka = 'http://localhost/api/wakatime/v1/users/current';

/** GET /me/projects as the owner's `account` token reads it. */
async function ownList(account: string) {
  return (await ask(listProjects, 'GET', `${me}?range=7d`, { authorization: `Bearer ${account}` })).json();
}

describe.each(callers)("the owner's projects, asked by %s", (caller) => {
  it(owns(caller) ? 'hides, shows, renames, merges and splits' : 'changes nothing: 403 naming the `account` scope', async () => {
    const o = await projectOwner();
    const as = o.credentials[caller];
    const writes: [ProjectHandler, string, string, Record<string, string>, unknown][] = [
      [hiddenRoute, 'PUT', `${me}/secret/hidden`, { name: 'secret' }, { hidden: false }],
      [hiddenRoute, 'PUT', `${me}/secret/hidden`, { name: 'secret' }, { hidden: true }],
      [renameRoute, 'POST', `${me}/a/rename`, { name: 'a' }, { to: 'a2' }],
      [renameRoute, 'POST', `${me}/a2/rename`, { name: 'a2' }, { to: 'b' }],
      [splitRoute, 'POST', `${me}/b/split`, { name: 'b' }, { project: 'a2' }],
    ];
    for (const [handler, method, url, params, body] of writes) {
      const res = await ask(handler, method, url, as, params, body);
      expect([url, res.status]).toEqual([url, owns(caller) ? 200 : 403]);
      if (!owns(caller)) expect(await res.json()).toMatchObject({ code: 'forbidden', detail: expect.stringContaining('"account"') });
    }
    // The owner's writes took effect (a merged and split back out under its new name); a refused one changed nothing.
    const after = await ownList(o.account);
    expect(after.projects.map((p: { name: string }) => p.name).sort()).toEqual(owns(caller) ? ['a2', 'b', 'secret'] : ['a', 'b', 'secret']);
    expect(after.hidden).toEqual(['secret']);
  });

  it(owns(caller) ? 'reads which projects are hidden' : 'reads no hidden name, on any route', async () => {
    const o = await projectOwner();
    const as = o.credentials[caller];
    const list = await ask(listProjects, 'GET', `${me}?range=7d`, as);
    const days = await ask(daysRoute, 'GET', `${me}/secret/days?range=7d`, as, { name: 'secret' });
    if (caller === 'plugin') {
      expect([list.status, days.status]).toEqual([403, 403]);
      return;
    }
    const body = await list.json();
    if (owns(caller)) {
      expect(body.projects.map((p: { name: string }) => p.name)).toEqual(['secret', 'b', 'a']);
      expect(body.hidden).toEqual(['secret']);
      expect(days.status).toBe(200);
      return;
    }
    // A stats key: the hidden project is not named, as projects/{name} has it (404), its time in totals only.
    expect(body).toEqual({ projects: [expect.objectContaining({ name: 'b' }), expect.objectContaining({ name: 'a' })] });
    expect(days.status).toBe(404);
    const wakaReads: [ProjectHandler, string, Record<string, string>][] = [
      [wakaProjects, 'projects', {}],
      [wakaProjects, 'projects?q=sec', {}],
      [wakaStats, 'stats/last_7_days', { range: 'last_7_days' }],
      [wakaSummaries, 'summaries?range=Last%207%20Days', {}],
      [wakaStatusBar, 'status_bar/today', {}],
      [wakaDurations, `durations?date=${daysFromToday(-1)}`, {}],
      [wakaHeartbeats, `heartbeats?date=${daysFromToday(-1)}`, {}],
    ];
    for (const [handler, route, params] of wakaReads) {
      const res = await ask(handler, 'GET', `${waka}/${route}`, as, { user: 'current', ...params });
      expect([route, res.status]).toEqual([route, 200]);
      expect(JSON.stringify(await res.json()), route).not.toContain('secret');
    }
    // Not vacuous: the hidden project's time counts in the totals (its buckets and heartbeats), and its heartbeats are there, unnamed.
    const stats = await (await ask(wakaStats, 'GET', `${waka}/stats/last_7_days`, as, { user: 'current', range: 'last_7_days' })).json();
    expect(stats.data.total_seconds).toBe(600 + 1200 + 1800 + 240);
    const beats = await (await ask(wakaHeartbeats, 'GET', `${waka}/heartbeats?date=${daysFromToday(-1)}`, as, { user: 'current' })).json();
    expect(beats.data.map((b: { project: string | null }) => b.project)).toEqual([null, null, null]);
    // summaries?project= answers as projects/{name}: a hidden project is not found, as one never used is.
    for (const project of ['secret', 'never-used']) {
      const one = await ask(wakaProject, 'GET', `${waka}/projects/${project}`, as, { user: 'current', project });
      const summary = await ask(wakaSummaries, 'GET', `${waka}/summaries?range=Last%207%20Days&project=${project}`, as, { user: 'current' });
      expect([project, one.status, summary.status]).toEqual([project, 404, 404]);
      expect(await summary.json()).toEqual(await one.json());
    }
    const shown = await ask(wakaSummaries, 'GET', `${waka}/summaries?range=Last%207%20Days&project=b`, as, { user: 'current' });
    expect((await shown.json()).cumulative_total.seconds).toBe(1200);
  });
});

// The owner's goals x the caller: setting and dropping one changes the account (the session or
// `account`); reading them is the figures' (`stats` too), and to a `stats` key no goal names a
// hidden project, as no other read does.

const goalsUrl = 'http://localhost/main/api/v1/me/goals';

/** The project owner with a goal on the hidden project `secret`, set with their `account` token. */
async function goalOwner() {
  const o = await projectOwner();
  const res = await ask(postGoal, 'POST', goalsUrl, o.credentials.account, {}, { period: 'day', seconds: 600, project: 'secret', title: 'secret sprint' });
  expect(res.status).toBe(201);
  return { ...o, goal: (await res.json()) as { id: string } };
}

/** The goals' ids as the owner's `account` token reads them. */
async function goalIds(o: { credentials: Record<Caller, Record<string, string>> }) {
  return (await (await ask(listGoals, 'GET', goalsUrl, o.credentials.account)).json()).goals.map((g: { id: string }) => g.id);
}

describe.each(callers)("the owner's goals, asked by %s", (caller) => {
  it(owns(caller) ? 'sets and drops a goal' : 'sets and drops none: 403 naming the `account` scope', async () => {
    const o = await goalOwner();
    const as = o.credentials[caller];
    const created = await ask(postGoal, 'POST', goalsUrl, as, {}, { period: 'week', seconds: 3600 });
    const dropped = await ask(deleteGoal, 'DELETE', `${goalsUrl}/${o.goal.id}`, as, { id: o.goal.id });
    expect([created.status, dropped.status]).toEqual(owns(caller) ? [201, 204] : [403, 403]);
    if (!owns(caller)) {
      for (const res of [created, dropped]) expect(await res.json()).toMatchObject({ code: 'forbidden', detail: expect.stringContaining('"account"') });
      expect(await goalIds(o)).toEqual([o.goal.id]);
      return;
    }
    expect(await goalIds(o)).toEqual([(await created.json()).id]);
  });

  it(caller === 'plugin' ? 'reads no goal' : owns(caller) ? 'reads a goal on a hidden project as stored' : 'reads no hidden name in any goal', async () => {
    const o = await goalOwner();
    const as = o.credentials[caller];
    const list = await ask(listGoals, 'GET', goalsUrl, as);
    if (caller === 'plugin') {
      expect(list.status).toBe(403);
      return;
    }
    const [goal] = (await list.json()).goals;
    if (owns(caller)) {
      expect(goal).toMatchObject({ id: o.goal.id, project: 'secret', title: 'secret sprint' });
      return;
    }
    // A stats key: the title as made for a hidden project, no project; its time still counts (1800 s of secret yesterday, none today).
    expect(goal).toMatchObject({ id: o.goal.id, project: null, title: 'Code 10 mins per day on a hidden project', streak_periods: 1 });
    const wakaReads: [ProjectHandler, string, Record<string, string>][] = [
      [wakaGoals, 'goals', {}],
      [wakaGoal, `goals/${o.goal.id}`, { id: o.goal.id }],
    ];
    for (const [handler, route, params] of wakaReads) {
      const res = await ask(handler, 'GET', `${waka}/${route}`, as, { user: 'current', ...params });
      expect([route, res.status]).toEqual([route, 200]);
      expect(JSON.stringify(await res.json()), route).not.toContain('secret');
    }
    expect(JSON.stringify(goal)).not.toContain('secret');
  });
});
