import { afterEach, describe, expect, it, vi } from 'vitest';
import { GET as getWakaGoal } from '@/app/api/wakatime/v1/users/[user]/goals/[id]/route';
import { GET as getWakaGoals } from '@/app/api/wakatime/v1/users/[user]/goals/route';
import { DELETE as deleteGoal, PATCH as patchGoal } from '@/app/main/api/v1/me/goals/[id]/route';
import { GET as listGoals, POST as postGoal } from '@/app/main/api/v1/me/goals/route';
import { GET as exportMe } from '@/app/main/api/v1/me/export/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { issueToken } from '@/lib/accounts/tokens';
import { addDays, isoWeekStart } from '@/lib/dates';
import { getDb } from '@/lib/db/client';
import { ownGoalsWithHistory } from '@/lib/figures/goals';
import { localDateHour } from '@/lib/local-time';
import { setProjectHidden } from '@/lib/projects/hidden';
import { call, newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// Goals: setting, changing, listing and dropping them, their progress, streaks and history, weekends
// ignored, names the owner has no time in refused, and WakaTime's shape.

type Bucket = { date: string; hour: number; language: string; time: number; project_name?: string };

async function owner(timezone = 'UTC') {
  const u = await newUser({ timezone });
  const { token: key } = await issueToken(await getDb(), u.user.id, { name: 'vim', format: 'uuid' }); // sync + stats
  return { ...u, key, account: await tokenWithScopes(u.user.id, ['account']), today: localDateHour(timezone).date };
}

async function send(token: string, activities: Bucket[]) {
  const res = await call(postBatch, '/sync/activities', { token, body: { activities } });
  expect(res.status).toBe(200);
}

const create = (token: string, body: unknown) => call(postGoal, '/me/goals', { token, body });

async function goalsOf(token: string) {
  const url = 'http://localhost/main/api/v1/me/goals';
  const res = await expectDocumented('GET', url, await listGoals(new Request(url, { headers: { authorization: `Bearer ${token}` } })));
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  return (await res.json()).goals;
}

async function drop(token: string, id: string) {
  const url = `http://localhost/main/api/v1/me/goals/${id}`;
  const request = new Request(url, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  return expectDocumented('DELETE', url, await deleteGoal(request, { params: Promise.resolve({ id }) }));
}

async function patch(token: string, id: string, body: unknown, raw?: string) {
  const url = `http://localhost/main/api/v1/me/goals/${id}`;
  const request = new Request(url, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: raw ?? JSON.stringify(body) });
  return expectDocumented('PATCH', url, await patchGoal(request, { params: Promise.resolve({ id }) }));
}

async function waka(key: string, id?: string) {
  const url = `http://localhost/api/wakatime/v1/users/current/goals${id ? `/${id}` : ''}`;
  const request = new Request(url, { headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}` } });
  const params = Promise.resolve({ user: 'current', ...(id ? { id } : {}) });
  return expectDocumented('GET', url, id ? await getWakaGoal(request, { params }) : await getWakaGoals(request, { params }));
}

describe('/me/goals', () => {
  it('sets, lists and drops goals; another user can neither see nor drop them', async () => {
    const u = await owner();
    const res = await create(u.account, { period: 'day', seconds: 3600 });
    expect(res.status).toBe(201);
    const goal = await res.json();
    expect(goal).toEqual({
      id: expect.any(String),
      period: 'day',
      seconds: 3600,
      language: null,
      project: null,
      title: 'Code 1 hr per day',
      ignore_weekends: false,
      progress: { period_start: u.today, actual_seconds: 0, done: false, ignored: false },
      streak_periods: 0,
    });
    expect(res.headers.get('location')).toBe(`/main/api/v1/me/goals/${goal.id}`);
    await send(u.token, [{ date: u.today, hour: 0, language: 'Go', time: 60 }]);
    const named = await (await create(u.account, { period: 'week', seconds: 36_000, language: 'Go', title: '  Ten hours of Go ' })).json();
    expect(named.title).toBe('Ten hours of Go');
    expect((await goalsOf(u.account)).map((g: { id: string }) => g.id)).toEqual([goal.id, named.id]);
    // The export holds every goal as stored (the title as given, or none).
    const exported = await (await exportMe(new Request('http://localhost/main/api/v1/me/export', { headers: { authorization: `Bearer ${u.account}` } }))).json();
    expect(exported.goals).toMatchObject([
      { id: goal.id, period: 'day', seconds: 3600, language: null, project: null, title: null },
      { id: named.id, period: 'week', seconds: 36_000, language: 'Go', project: null, title: 'Ten hours of Go' },
    ]);

    const other = await owner();
    expect(await goalsOf(other.account)).toEqual([]);
    expect((await drop(other.account, goal.id)).status).toBe(404);
    expect((await drop(u.account, goal.id)).status).toBe(204);
    expect((await drop(u.account, goal.id)).status).toBe(404);
    expect((await drop(u.account, 'not-a-uuid')).status).toBe(404);
    expect((await goalsOf(u.account)).map((g: { id: string }) => g.id)).toEqual([named.id]);
  });

  it('reads with a stats key too, but sets and drops goals only with account: stats gets 403 naming it', async () => {
    const u = await owner();
    const stats = await tokenWithScopes(u.user.id, ['stats']);
    const { id } = await (await create(u.account, { period: 'day', seconds: 600 })).json();
    expect((await goalsOf(stats)).map((g: { id: string }) => g.id)).toEqual([id]);
    for (const refused of [await create(stats, { period: 'day', seconds: 600 }), await drop(stats, id)]) {
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'forbidden', detail: expect.stringContaining('"account"') });
    }
    expect((await goalsOf(u.account)).map((g: { id: string }) => g.id)).toEqual([id]);
    expect((await create(u.token, { period: 'day', seconds: 600 })).status).toBe(403); // sync + badges
    expect((await drop(u.token, id)).status).toBe(403);
  });

  it('names no hidden project to a stats key, in /me/goals and in WakaTime\'s shape; the owner reads it as stored', async () => {
    const u = await owner();
    const stats = await tokenWithScopes(u.user.id, ['stats']);
    await send(u.token, [
      { date: u.today, hour: 0, language: 'Go', time: 900, project_name: 'acme-secret' },
      { date: u.today, hour: 1, language: 'Go', time: 300, project_name: 'web' },
    ]);
    const bodies = [
      { period: 'day', seconds: 600, project: 'acme-secret' },
      { period: 'week', seconds: 3600, project: 'ACME-Secret', title: 'Ship acme-secret v2' },
      { period: 'day', seconds: 600, language: 'Go', title: 'Go, then Acme-Secret' },
      { period: 'day', seconds: 600, project: 'web', title: 'Web daily' },
    ];
    const ids: string[] = [];
    for (const body of bodies) ids.push((await (await create(u.account, body)).json()).id);
    const named = (value: unknown) => JSON.stringify(value).toLowerCase().includes('acme-secret');
    const wakaList = async () => (await (await waka(u.key)).json()).data;
    // Not vacuous: shown while the project is not hidden, to every reader.
    expect(named(await goalsOf(stats))).toBe(true);
    expect(named(await wakaList())).toBe(true);

    await setProjectHidden(await getDb(), u.user.id, 'acme-secret', true);
    const madeTitles = ['Code 10 mins per day on a hidden project', 'Code 1 hr per week on a hidden project', 'Code 10 mins per day in Go', 'Web daily'];
    const seenByStats = await goalsOf(stats);
    expect(named(seenByStats)).toBe(false);
    expect(seenByStats.map((g: { project: string | null; title: string }) => [g.project, g.title])).toEqual([
      [null, madeTitles[0]],
      [null, madeTitles[1]],
      [null, madeTitles[2]],
      ['web', 'Web daily'],
    ]);
    // Its time still counts toward the goal.
    expect(seenByStats[0].progress).toMatchObject({ actual_seconds: 900, done: true });

    const data = await wakaList();
    expect(named(data)).toBe(false);
    expect(data.map((g: { id: string; title: string; custom_title: string | null; projects: string[] }) => [g.id, g.title, g.custom_title, g.projects])).toEqual([
      [ids[0], madeTitles[0], null, []],
      [ids[1], madeTitles[1], null, []],
      [ids[2], madeTitles[2], null, []],
      [ids[3], 'Web daily', 'Web daily', ['web']],
    ]);
    expect(named(await (await waka(u.key, ids[1])).json())).toBe(false);
    expect((await (await waka(u.key, ids[0])).json()).data.chart_data.at(-1).actual_seconds).toBe(900);

    // The owner (an account token; the dashboard's session alike) reads each goal as stored.
    expect((await goalsOf(u.account)).map((g: { project: string | null; title: string }) => [g.project, g.title])).toEqual([
      ['acme-secret', madeTitles[0]],
      ['acme-secret', 'Ship acme-secret v2'],
      [null, 'Go, then Acme-Secret'],
      ['web', 'Web daily'],
    ]);
  });

  it.each([
    [{ period: 'month', seconds: 3600 }, 'period'],
    [{ period: 'day' }, 'seconds'],
    [{ period: 'day', seconds: 30 }, 'seconds'],
    [{ period: 'day', seconds: 1.5 }, 'seconds'],
    [{ period: 'day', seconds: 86_401 }, 'seconds'],
    [{ period: 'week', seconds: 604_801 }, 'seconds'],
    [{ period: 'day', seconds: 3600, language: '' }, 'language'],
    [{ period: 'day', seconds: 3600, project: 'x'.repeat(201) }, 'project'],
    [{ period: 'day', seconds: 3600, title: 'a\u0000b' }, 'title'],
  ])('refuses %j with 422 naming %s', async (body, field) => {
    const u = await owner();
    const res = await create(u.account, body);
    expect(res.status).toBe(422);
    expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  it('keeps at most 20 goals a user: the 21st is refused, naming the limit, until one is dropped', async () => {
    const u = await owner();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await (await create(u.account, { period: 'day', seconds: 60 * (i + 1) })).json()).id);
    const refused = await create(u.account, { period: 'day', seconds: 3600 });
    expect(refused.status).toBe(422);
    const body = await refused.json();
    expect(body.code).toBe('invalid_payload');
    expect(body.errors).toEqual([{ path: '', code: 'too_many_goals', message: 'delete a goal first: at most 20' }]);
    expect(await goalsOf(u.account)).toHaveLength(20);
    expect((await drop(u.account, ids[0])).status).toBe(204);
    expect((await create(u.account, { period: 'day', seconds: 3600 })).status).toBe(201);
  });

  it('counts a goal\'s language and project (any case), each hour capped at 3600 s', async () => {
    const u = await owner();
    await send(u.token, [
      { date: u.today, hour: 0, language: 'Go', time: 1800, project_name: 'api' },
      { date: u.today, hour: 1, language: 'Rust', time: 1200, project_name: 'api' },
      { date: u.today, hour: 2, language: 'Go', time: 600, project_name: 'web' },
      // An hour holding 6000 s counts 3600: 1800 of Go and 1800 of TypeScript.
      { date: u.today, hour: 3, language: 'Go', time: 3000, project_name: 'web' },
      { date: u.today, hour: 3, language: 'TypeScript', time: 3000, project_name: 'web' },
    ]);
    const want = [
      [{}, 1800 + 1200 + 600 + 3600],
      [{ language: 'go' }, 1800 + 600 + 1800],
      [{ project: 'API' }, 1800 + 1200],
      [{ language: 'Go', project: 'web' }, 600 + 1800],
      [{ language: 'TypeScript', project: 'api' }, 0],
    ] as const;
    for (const [filter] of want) await create(u.account, { period: 'day', seconds: 3000, ...filter });
    const goals = await goalsOf(u.account);
    expect(goals.map((g: { progress: { actual_seconds: number; done: boolean } }) => g.progress)).toEqual(
      want.map(([, seconds]) => ({ period_start: u.today, actual_seconds: seconds, done: seconds >= 3000, ignored: false })),
    );
    // Stored as the owner's time spells them, whatever the case asked.
    expect(goals.map((g: { title: string }) => g.title)).toEqual([
      'Code 50 mins per day',
      'Code 50 mins per day in Go',
      'Code 50 mins per day on api',
      'Code 50 mins per day in Go on web',
      'Code 50 mins per day in TypeScript on api',
    ]);
  });

  it('counts streaks back from the current period once it is met, else from the one before', async () => {
    const u = await owner('Pacific/Auckland');
    const t = u.today;
    await send(u.token, [
      { date: addDays(t, -1), hour: 9, language: 'Go', time: 1800 },
      { date: addDays(t, -2), hour: 9, language: 'Go', time: 2000 },
      { date: addDays(t, -3), hour: 9, language: 'Go', time: 100 },
      { date: addDays(t, -4), hour: 9, language: 'Go', time: 1800 },
    ]);
    const { id } = await (await create(u.account, { period: 'day', seconds: 1800 })).json();
    const progress = async () => (await goalsOf(u.account)).find((g: { id: string }) => g.id === id);
    expect(await progress()).toMatchObject({ progress: { period_start: t, actual_seconds: 0, done: false }, streak_periods: 2 });
    await send(u.token, [{ date: t, hour: 0, language: 'Go', time: 1800 }]);
    expect(await progress()).toMatchObject({ progress: { actual_seconds: 1800, done: true }, streak_periods: 3 });
  });

  it('counts a streak longer than the first window it reads', async () => {
    const u = await owner();
    const days = Array.from({ length: 100 }, (_, i) => ({ date: addDays(u.today, -i), hour: 12, language: 'Go', time: 600 }));
    await send(u.token, days);
    await create(u.account, { period: 'day', seconds: 600 });
    expect((await goalsOf(u.account))[0].streak_periods).toBe(100);
  });

  it('judges week goals by ISO week (Monday first) in the owner\'s timezone', async () => {
    const u = await owner('America/Los_Angeles');
    const monday = isoWeekStart(u.today);
    await send(u.token, [
      { date: monday, hour: 8, language: 'Go', time: 3600 },
      { date: addDays(monday, -1), hour: 8, language: 'Go', time: 3600 }, // Sunday: the week before
      { date: addDays(monday, -7), hour: 8, language: 'Go', time: 3600 },
    ]);
    await create(u.account, { period: 'week', seconds: 7200 });
    const [goal] = await goalsOf(u.account);
    expect(goal.progress).toEqual({ period_start: monday, actual_seconds: 3600, done: false, ignored: false });
    expect(goal.streak_periods).toBe(1);
  });
});

describe('WakaTime goals', () => {
  it('lists goals and shows one the way wakatime-cli --today-goal reads it', async () => {
    const u = await owner('America/Sao_Paulo');
    await send(u.token, [
      { date: u.today, hour: 10, language: 'Go', time: 3600 },
      { date: u.today, hour: 11, language: 'Go', time: 1200 },
      { date: addDays(u.today, -1), hour: 11, language: 'Go', time: 600 },
      { date: addDays(u.today, -2), hour: 11, language: 'Go', time: 3600 },
    ]);
    const { id } = await (await create(u.account, { period: 'day', seconds: 3600, language: 'Go' })).json();

    const list = await waka(u.key);
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('private, no-store');
    const listed = await list.json();
    expect(listed.data.map((g: { id: string }) => g.id)).toEqual([id]);

    const res = await waka(u.key, id);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ id, title: 'Code 1 hr per day in Go', delta: 'day', seconds: 3600, status: 'success', languages: ['Go'], projects: [] });
    expect(data.chart_data).toHaveLength(7);
    const [dayBefore, yesterday, today] = data.chart_data.slice(-3);
    // What wakatime-cli prints: the last entry's actual_seconds_text.
    expect(today).toMatchObject({ actual_seconds: 4800, actual_seconds_text: '1 hr 20 mins', goal_seconds: 3600, goal_seconds_text: '1 hr', range_status: 'success' });
    expect(today.range).toMatchObject({ date: u.today, text: 'Today', timezone: 'America/Sao_Paulo' });
    // Sao Paulo is three hours behind UTC all year: its day runs 03:00 to 02:59:59 UTC.
    expect(today.range.start).toBe(`${u.today}T03:00:00Z`);
    expect(today.range.end).toBe(`${addDays(u.today, 1)}T02:59:59Z`);
    expect(yesterday).toMatchObject({ actual_seconds: 600, actual_seconds_text: '10 mins', range_status: 'fail', range: { text: 'Yesterday' } });
    expect(dayBefore).toMatchObject({ actual_seconds: 3600, range_status: 'success' });
    expect(data.chart_data.map((c: { range: { date: string } }) => c.range.date)).toEqual(Array.from({ length: 7 }, (_, i) => addDays(u.today, i - 6)));
  });

  it('says pending while the current period is not met, and 0 secs with no time', async () => {
    const u = await owner();
    const { id } = await (await create(u.account, { period: 'week', seconds: 3600 })).json();
    const { data } = await (await waka(u.key, id)).json();
    expect(data.status).toBe('pending');
    expect(data.chart_data.at(-1)).toMatchObject({ actual_seconds: 0, actual_seconds_text: '0 secs', range_status: 'pending', range: { date: isoWeekStart(u.today), text: 'This week' } });
    expect(data.chart_data.at(-2).range.text).toBe('Last week');
  });

  it('answers another user\'s goal, or no goal, with 404 in WakaTime\'s shape', async () => {
    const [a, b] = [await owner(), await owner()];
    const { id } = await (await create(a.account, { period: 'day', seconds: 600 })).json();
    const res = await waka(b.key, id);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: expect.any(String) });
    expect((await waka(a.key, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('PATCH /me/goals/{id}', () => {
  it('changes any field and answers the goal as now judged; null clears language, project or title', async () => {
    const u = await owner();
    await send(u.token, [{ date: u.today, hour: 1, language: 'Go', time: 1200, project_name: 'api' }]);
    const { id } = await (await create(u.account, { period: 'day', seconds: 3600, title: 'Daily' })).json();
    const res = await patch(u.account, id, { seconds: 1200, language: 'go', project: 'API', title: 'Twenty minutes', ignore_weekends: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id,
      period: 'day',
      seconds: 1200,
      language: 'Go',
      project: 'api',
      title: 'Twenty minutes',
      ignore_weekends: true,
      progress: { period_start: u.today, actual_seconds: 1200, done: expect.any(Boolean), ignored: expect.any(Boolean) },
      streak_periods: expect.any(Number),
    });
    const [listed] = await goalsOf(u.account);
    expect(listed).toMatchObject({ id, seconds: 1200, language: 'Go', project: 'api', title: 'Twenty minutes', ignore_weekends: true });

    const cleared = await (await patch(u.account, id, { language: null, project: null, title: null, period: 'week' })).json();
    expect(cleared).toMatchObject({ period: 'week', seconds: 1200, language: null, project: null, title: 'Code 20 mins per week', ignore_weekends: true });
    expect((await (await patch(u.account, id, { ignore_weekends: false })).json()).ignore_weekends).toBe(false);
  });

  it.each([
    [{}, ''],
    [{ period: 'month' }, 'period'],
    [{ seconds: 30 }, 'seconds'],
    [{ seconds: 90.5 }, 'seconds'],
    [{ title: 'a\u0000b' }, 'title'],
    [{ title: '\ud800' }, 'title'],
    [{ language: '' }, 'language'],
    [{ ignore_weekends: 'yes' }, 'ignore_weekends'],
    // Checked on the goal as it would be stored: 100 000 s fit a week, not a day.
    [{ period: 'day' }, 'seconds'],
    [{ seconds: 86_401 * 7 }, 'seconds'],
  ])('refuses %j with 422 naming "%s", changing nothing', async (body, field) => {
    const u = await owner();
    const created = await (await create(u.account, { period: 'week', seconds: 100_000 })).json();
    const res = await patch(u.account, created.id, body);
    expect(res.status).toBe(422);
    const problem = await res.json();
    expect(problem.code).toBe('invalid_payload');
    expect(problem.errors.map((e: { path: string }) => e.path)).toContain(field);
    expect(problem.errors.find((e: { path: string }) => e.path === field).message).toMatch(field ? new RegExp(`^${field}: `) : /at least one of/);
    expect(await goalsOf(u.account)).toEqual([created]);
  });

  it('answers 404 for another user\'s goal, an unknown or malformed id; 403 to a stats key; 400 for a body that is not JSON', async () => {
    const [a, b] = [await owner(), await owner()];
    const goal = await (await create(a.account, { period: 'day', seconds: 600 })).json();
    for (const res of [await patch(b.account, goal.id, { seconds: 60 }), await patch(a.account, '00000000-0000-4000-8000-000000000000', { seconds: 60 }), await patch(a.account, 'nope', { seconds: 60 })]) {
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('not_found');
    }
    const stats = await tokenWithScopes(a.user.id, ['stats']);
    const refused = await patch(stats, goal.id, { seconds: 60 });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'forbidden', detail: expect.stringContaining('"account"') });
    expect((await patch(a.account, goal.id, undefined, '{"seconds":')).status).toBe(400);
    expect(await goalsOf(a.account)).toEqual([goal]);
  });
});

describe('a goal names only a language or project the owner has time in', () => {
  it('refuses another with 422 naming the field, matches any case and stores the owner\'s spelling', async () => {
    const u = await owner();
    const other = await owner();
    await send(u.token, [{ date: addDays(u.today, -30), hour: 1, language: 'TypeScript', time: 600, project_name: 'Web-App' }]);
    // Another user's time in a language is no reason to accept it (nor to say they have it).
    await send(other.token, [{ date: u.today, hour: 1, language: 'Rust', time: 600, project_name: 'engine' }]);
    const refusals = [
      [{ period: 'day', seconds: 600, language: 'Rust' }, 'language', 'language: you have no time in this language yet'],
      [{ period: 'day', seconds: 600, project: 'engine' }, 'project', 'project: you have no time on this project yet'],
      [{ period: 'day', seconds: 600, language: 'typescript', project: 'nope' }, 'project', 'project: you have no time on this project yet'],
    ] as const;
    for (const [body, path, message] of refusals) {
      const res = await create(u.account, body);
      expect(res.status).toBe(422);
      expect((await res.json()).errors).toEqual([{ path, code: `unknown_${path}`, message }]);
    }
    expect(await goalsOf(u.account)).toEqual([]);

    const made = await create(u.account, { period: 'day', seconds: 600, language: 'TYPESCRIPT', project: 'web-app' });
    expect(made.status).toBe(201);
    const goal = await made.json();
    expect([goal.language, goal.project, goal.title]).toEqual(['TypeScript', 'Web-App', 'Code 10 mins per day in TypeScript on Web-App']);

    // PATCH checks a changed name the same way, and leaves the goal as it was when it refuses.
    const res = await patch(u.account, goal.id, { language: 'Rust' });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([{ path: 'language', code: 'unknown_language', message: 'language: you have no time in this language yet' }]);
    expect((await patch(u.account, goal.id, { project: 'ENGINE' })).status).toBe(422);
    expect(await goalsOf(u.account)).toEqual([goal]);
  });
});

describe('ignore_weekends, on a fixed date', () => {
  // Friday 20 November 2026, 20:00 UTC: already Saturday the 21st, 09:00, in Auckland (UTC+13).
  const now = new Date('2026-11-20T20:00:00Z');
  const day = (d: number) => `2026-11-${String(d).padStart(2, '0')}`;
  afterEach(() => vi.useRealTimers());

  async function weekOfTime() {
    vi.useFakeTimers({ toFake: ['Date'], now });
    const u = await owner('Pacific/Auckland');
    expect(u.today).toBe(day(21));
    // Thursday 12th missed; Friday 13th met; the weekend of 14/15 (3600 s on the Saturday);
    // Monday 16th to Friday 20th met; today, Saturday 21st, 600 s.
    await send(u.token, [
      { date: day(12), hour: 9, language: 'Go', time: 100 },
      { date: day(13), hour: 9, language: 'Go', time: 1800 },
      { date: day(14), hour: 9, language: 'Go', time: 3600 },
      ...[16, 17, 18, 19, 20].map((d) => ({ date: day(d), hour: 9, language: 'Go', time: 1800 })),
      { date: day(21), hour: 8, language: 'Go', time: 600 },
    ]);
    return u;
  }

  it('a day goal neither meets nor misses a weekend day, its streak steps over one, its history leaves them out and chart_data lists them as ignored', async () => {
    const u = await weekOfTime();
    const plain = await (await create(u.account, { period: 'day', seconds: 1800 })).json();
    const weekdays = await (await create(u.account, { period: 'day', seconds: 1800, ignore_weekends: true })).json();
    expect(weekdays.ignore_weekends).toBe(true);
    // The clock stands still here: both goals were made at the same instant, so find each by id.
    const listed = await goalsOf(u.account);
    const [p, w] = [plain.id, weekdays.id].map((id) => listed.find((g: { id: string }) => g.id === id));
    // Every day counts: today not met yet, and Sunday the 15th broke the run after Monday the 16th.
    expect(p).toMatchObject({ ignore_weekends: false, progress: { period_start: day(21), actual_seconds: 600, done: false, ignored: false }, streak_periods: 5 });
    // Weekends ignored: today is neither, the run goes on over the weekend to Friday the 13th.
    expect(w).toMatchObject({ ignore_weekends: true, progress: { period_start: day(21), actual_seconds: 600, done: false, ignored: true }, streak_periods: 6 });

    const plainChart = (await (await waka(u.key, plain.id)).json()).data;
    expect(plainChart.ignore_days).toEqual([]);
    expect(plainChart.chart_data.map((c: { range: { date: string }; range_status: string }) => [c.range.date, c.range_status])).toEqual([
      [day(15), 'fail'],
      ...[16, 17, 18, 19, 20].map((d) => [day(d), 'success']),
      [day(21), 'pending'],
    ]);
    const chart = (await (await waka(u.key, weekdays.id)).json()).data;
    expect(chart.ignore_days).toEqual(['saturday', 'sunday']);
    // A weekend day is listed as WakaTime lists it, ignored, so today (a Saturday) is still the
    // last entry, what wakatime-cli --today-goal prints.
    expect(chart.chart_data.map((c: { range: { date: string }; range_status: string }) => [c.range.date, c.range_status])).toEqual([
      [day(15), 'ignored'],
      ...[16, 17, 18, 19, 20].map((d) => [day(d), 'success']),
      [day(21), 'ignored'],
    ]);
    expect(chart.chart_data.at(-1)).toMatchObject({ actual_seconds: 600, range: { text: 'Today' }, range_status_reason: 'coded 10 mins on a day your daily goal ignores' });
    expect(chart.status).toBe('ignored');

    // The Goals page's history: the last 14 days, the weekends left out, judged as chart_data is.
    const shown = await ownGoalsWithHistory(await getDb(), u.user);
    const page = [plain.id, weekdays.id].map((id) => shown.find((g) => g.id === id)!);
    expect(page[0].history.map((h) => h.start)).toEqual(Array.from({ length: 14 }, (_, i) => day(8 + i)));
    expect(page[1].history.map((h) => [h.start, h.seconds, h.status])).toEqual([
      [day(9), 0, 'fail'],
      [day(10), 0, 'fail'],
      [day(11), 0, 'fail'],
      [day(12), 100, 'fail'],
      [day(13), 1800, 'success'],
      ...[16, 17, 18, 19, 20].map((d) => [day(d), 1800, 'success']),
    ]);
    expect(page[1].history.slice(-5).map((h) => [h.start, h.seconds, h.status])).toEqual(
      chart.chart_data
        .filter((c: { range_status: string }) => c.range_status !== 'ignored')
        .map((c: { range: { date: string }; actual_seconds: number; range_status: string }) => [c.range.date, c.actual_seconds, c.range_status]),
    );
  });

  it('a week goal that ignores weekends counts no weekend time; switching it with PATCH judges it again', async () => {
    const u = await weekOfTime();
    const { id } = await (await create(u.account, { period: 'week', seconds: 9600 })).json();
    // This week: 5 x 1800 on weekdays and 600 today, a Saturday.
    expect((await goalsOf(u.account))[0].progress).toEqual({ period_start: day(16), actual_seconds: 9600, done: true, ignored: false });
    const changed = await (await patch(u.account, id, { ignore_weekends: true })).json();
    expect(changed.progress).toEqual({ period_start: day(16), actual_seconds: 9000, done: false, ignored: false });
    const { data } = await (await waka(u.key, id)).json();
    expect(data.ignore_days).toEqual(['saturday', 'sunday']);
    // The week before: Thursday's 100 and Friday's 1800 count, the Saturday's 3600 does not.
    expect(data.chart_data.slice(-2).map((c: { actual_seconds: number; range_status: string }) => [c.actual_seconds, c.range_status])).toEqual([
      [1900, 'fail'],
      [9000, 'pending'],
    ]);
    expect(data.chart_data).toHaveLength(7);
  });
});
