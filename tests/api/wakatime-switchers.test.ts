import { describe, expect, it } from 'vitest';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { GET as getDayHeartbeats } from '@/app/api/wakatime/v1/users/[user]/heartbeats/route';
import { POST as postPluginErrors } from '@/app/api/wakatime/v1/users/[user]/plugins/errors/route';
import { GET as getUnknown, POST as postUnknown } from '@/app/api/wakatime/v1/[...rest]/route';
import { GET as getUser } from '@/app/api/wakatime/v1/users/[user]/route';
import { GET as getStats } from '@/app/api/wakatime/v1/users/[user]/stats/route';
import { GET as getRangedStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { GET as getSummaries } from '@/app/api/wakatime/v1/users/[user]/summaries/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { issueToken } from '@/lib/accounts/tokens';
import { getDb } from '@/lib/db/client';
import { metrics } from '@/lib/metrics/registry';
import { setProjectHidden } from '@/lib/projects/hidden';
import { daysBetween } from '@/lib/dates';
import { localDateHour } from '@/lib/local-time';
import { rangeText } from '@/lib/wakatime/reading/reads';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// What switchers' tools send the WakaTime-compatible routes, in the forms they send it: Wakapi's
// Bearer base64(key), oh-my-posh's and wakatime_exporter's `summaries?start=today&end=today`,
// WakaTime's documented `stats/{YYYY}` and `stats/{YYYY-MM}`, stats' project and language
// filters, a README tool reading a public profile with its owner's key, wakatime-cli's plugin
// error reports, and heartbeats read back with `is_write` as they were sent.

const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;
/** Wakapi's form (its README's Prometheus example): the key in base64 as a Bearer token. */
const wakapiBearer = (key: string) => `Bearer ${Buffer.from(key).toString('base64')}`;
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

async function wakaUser(settings: Record<string, boolean> = {}, timezone = 'UTC') {
  const u = await newUser({ timezone, settings: { profile_public: true, share_languages: true, share_editors: true, ...settings } });
  const { token } = await issueToken(await getDb(), u.user.id, { name: 'cli', format: 'uuid' });
  return { ...u, key: token };
}

/** A GET under users/{user}, checked against openapi.json. */
async function get(handler: Handler, route: string, opts: { auth?: string; user?: string; params?: Record<string, string> } = {}): Promise<Response> {
  const user = opts.user ?? 'current';
  const url = `http://localhost/api/wakatime/v1/users/${user}/${route}`.replace(/\/$/, '').replace(/\/\?/, '?');
  const request = new Request(url, { headers: opts.auth ? { authorization: opts.auth } : {} });
  return expectDocumented('GET', url, await handler(request, { params: Promise.resolve({ user, ...opts.params }) }));
}

async function ok(res: Response) {
  expect(res.status).toBe(200);
  return res.json();
}

/** Coding time as sync buckets: `[date, hour, language, project, seconds]`. */
async function buckets(userId: string, list: [string, number, string, string, number][]) {
  const token = await tokenWithScopes(userId, ['sync']);
  const res = await call(postBatch, '/sync/activities', {
    token,
    body: { activities: list.map(([date, hour, language, project_name, time]) => ({ date, hour, language, project_name, time })) },
  });
  expect(res.status).toBe(200);
}

describe("Wakapi's Bearer form", () => {
  it('takes the key in base64 as a Bearer token, as Wakapi does, and the plain key still; anything else is 401', async () => {
    const u = await wakaUser();
    await buckets(u.user.id, [[daysFromToday(0), 0, 'Go', 'api', 600]]);
    for (const auth of [wakapiBearer(u.key), `Bearer ${u.key}`, basic(u.key), `bearer ${Buffer.from(u.key).toString('base64')}`]) {
      const { data } = await ok(await get(getSummaries, 'summaries?range=Today', { auth }));
      expect([auth, data[0].grand_total.total_seconds]).toEqual([auth, 600]);
    }
    // A key of another format in base64 too (a Codetally token, ct_...).
    const token = await tokenWithScopes(u.user.id, ['stats']);
    expect((await get(getSummaries, 'summaries?range=Today', { auth: wakapiBearer(token) })).status).toBe(200);
    for (const auth of [wakapiBearer('0b7c0a4e-2222-4333-8444-555566667777'), wakapiBearer('not a key'), 'Bearer bm90IGEga2V5']) {
      const res = await get(getSummaries, 'summaries?range=Today', { auth });
      expect([auth, res.status]).toEqual([auth, 401]);
      expect(Object.keys(await res.json())).toEqual(['error']);
    }
  });
});

describe('summaries asked as oh-my-posh and wakatime_exporter ask', () => {
  it('takes a range name as start and end, and gives cummulative_total beside cumulative_total', async () => {
    const u = await wakaUser();
    await buckets(u.user.id, [
      [daysFromToday(0), 0, 'Go', 'api', 900],
      [daysFromToday(-1), 10, 'Go', 'api', 300],
      [daysFromToday(-8), 10, 'Go', 'api', 60],
    ]);
    // oh-my-posh's request, at Wakapi's layout of WakaTime's routes and WakaTime's own alike.
    const today = await ok(await get(getSummaries, 'summaries?start=today&end=today', { auth: basic(u.key) }));
    expect(today.data.map((d: { range: { date: string } }) => d.range.date)).toEqual([daysFromToday(0)]);
    expect(today.cumulative_total).toMatchObject({ seconds: 900, text: '15 mins', digital: '0:15', decimal: '0.25' });
    expect(today.cummulative_total).toEqual(today.cumulative_total);
    // Names in any case and with underscores; start is the first date of its range, end the last of its own.
    const week = await ok(await get(getSummaries, 'summaries?start=Last%207%20Days&end=today', { auth: basic(u.key) }));
    expect([week.data.length, week.cumulative_total.seconds]).toEqual([7, 1200]);
    const yesterday = await ok(await get(getSummaries, 'summaries?start=yesterday&end=YESTERDAY', { auth: basic(u.key) }));
    expect([yesterday.data[0].range.date, yesterday.cummulative_total.seconds]).toEqual([daysFromToday(-1), 300]);
    expect((await ok(await get(getSummaries, 'summaries?start=last_14_days&end=today', { auth: basic(u.key) }))).cumulative_total.seconds).toBe(1260);
    // A date and a name together; a name that is no range is a 400 naming the parameter.
    expect((await ok(await get(getSummaries, `summaries?start=${daysFromToday(-1)}&end=today`, { auth: basic(u.key) }))).data).toHaveLength(2);
    // A name an object has of its own kind (constructor, __proto__) is no range either.
    const notRanges = [['start=tomorrow&end=today', 'start'], ['start=today&end=forever', 'end'], ['start=today', 'end'], ['start=constructor&end=constructor', 'start'], ['start=today&end=__proto__', 'end']];
    for (const [query, field] of notRanges) {
      const res = await get(getSummaries, `summaries?${query}`, { auth: basic(u.key) });
      expect([query, res.status]).toEqual([query, 400]);
      expect((await res.json()).error).toMatch(new RegExp(`^${field} must be a date`));
    }
  });

  it("writes each day's range.text as WakaTime does, today included; the status bar's stays Today", async () => {
    const u = await wakaUser();
    const { data } = await ok(await get(getSummaries, 'summaries?start=yesterday&end=today', { auth: basic(u.key) }));
    expect(data.map((d: { range: { text: string } }) => d.range.text)).toEqual([rangeText(daysFromToday(-1)), rangeText(daysFromToday(0))]);
    expect(rangeText('2026-12-04')).toBe('Fri Dec 4th 2026');
  });
});

describe('stats of a year and of a month', () => {
  it("answers stats/{YYYY} and stats/{YYYY-MM} in the user's timezone, the days counted up to today", async () => {
    // Far east of UTC: the user's dates are not UTC's.
    const u = await wakaUser({}, 'Pacific/Kiritimati');
    const today = localDateHour('Pacific/Kiritimati').date;
    const [year, month] = [today.slice(0, 4), today.slice(0, 7)];
    const lastYear = String(Number(year) - 1);
    await buckets(u.user.id, [
      [today, 0, 'Go', 'api', 600],
      [`${lastYear}-03-10`, 9, 'Rust', 'core', 1800],
      [`${lastYear}-03-31`, 23, 'Rust', 'core', 60],
      [`${lastYear}-04-01`, 0, 'Rust', 'core', 120],
    ]);
    const stats = async (range: string) => (await ok(await get(getRangedStats, `stats/${range}`, { auth: basic(u.key), params: { range } }))).data;
    const thisYear = await stats(year);
    expect(thisYear).toMatchObject({ range: year, human_readable_range: year, total_seconds: 600, is_including_today: true, timezone: 'Pacific/Kiritimati' });
    // Its instants: the first and last of the year in the user's zone (UTC+14).
    expect([thisYear.start, thisYear.end]).toEqual([`${lastYear}-12-31T10:00:00Z`, `${year}-12-31T09:59:59Z`]);
    expect(thisYear.days_including_holidays).toBe(daysBetween(`${year}-01-01`, today) + 1);
    expect((await stats(month)).total_seconds).toBe(600);
    const past = await stats(lastYear);
    expect(past).toMatchObject({ total_seconds: 1980, is_including_today: false, days_including_holidays: Number(lastYear) % 4 === 0 ? 366 : 365, best_day: { date: `${lastYear}-03-10`, total_seconds: 1800 } });
    expect(past.languages.map((l: { name: string }) => l.name)).toEqual(['Rust']);
    const march = await stats(`${lastYear}-03`);
    expect(march).toMatchObject({ human_readable_range: `March ${lastYear}`, total_seconds: 1860, days_including_holidays: 31, days_minus_holidays: 2 });
    expect((await stats(`${lastYear}-04`)).total_seconds).toBe(120);
    // A period not begun yet: nothing in it, no day counted.
    expect(await stats('2099-01')).toMatchObject({ total_seconds: 0, days_including_holidays: 0, best_day: null, is_including_today: false });
    for (const range of ['1999', `${year}-13`, `${year}-00`, `${year}-1`, '20261', 'this_year']) {
      const res = await get(getRangedStats, `stats/${range}`, { auth: basic(u.key), params: { range } });
      expect([range, res.status]).toEqual([range, 404]);
    }
  });

  it("answers a public user's year and month under the same sharing rules, from any origin; a private one is 404", async () => {
    const open = await wakaUser({ share_editors: false });
    const year = daysFromToday(0).slice(0, 4);
    await buckets(open.user.id, [[daysFromToday(0), 0, 'Go', 'secret-project', 600]]);
    for (const range of [year, daysFromToday(0).slice(0, 7)]) {
      const res = await get(getRangedStats, `stats/${range}`, { user: open.user.handle, params: { range } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const { data } = await ok(res);
      expect(data).toMatchObject({ total_seconds: 600, projects: [], editors: [], is_editor_usage_visible: false, start: `${year}-${range.length === 4 ? '01' : range.slice(5)}-01T00:00:00Z` });
      expect(data).not.toHaveProperty('timezone');
      expect(JSON.stringify(data)).not.toContain('secret-project');
    }
    const closed = await wakaUser({ profile_public: false });
    expect((await get(getRangedStats, `stats/${year}`, { user: closed.user.handle, params: { range: year } })).status).toBe(404);
  });
});

describe('stats filtered by project and language', () => {
  it('gives the figures of that project or language alone, as summaries?project= does; a public answer refuses a filter by name', async () => {
    const u = await wakaUser();
    const day = daysFromToday(-1);
    await buckets(u.user.id, [
      [day, 9, 'Go', 'api', 1200],
      [day, 10, 'TypeScript', 'web', 600],
      [day, 11, 'Go', 'web', 300],
      [daysFromToday(-2), 11, 'Go', 'hidden-one', 60],
    ]);
    await setProjectHidden(await getDb(), u.user.id, 'hidden-one', true);
    const stats = async (query: string) => (await ok(await get(getRangedStats, `stats/last_7_days?${query}`, { auth: basic(u.key), params: { range: 'last_7_days' } }))).data;
    const web = await stats('project=web');
    expect([web.total_seconds, web.projects.map((p: { name: string }) => p.name)]).toEqual([900, ['web']]);
    expect(web.languages.map((l: { name: string; total_seconds: number }) => [l.name, l.total_seconds])).toEqual([['TypeScript', 600], ['Go', 300]]);
    expect(web.best_day).toMatchObject({ date: day, total_seconds: 900 });
    // A language by name in any case; a hidden project's time counts, its name does not show.
    const go = await stats('language=go');
    expect(go.total_seconds).toBe(1560);
    expect(go.projects.map((p: { name: string; total_seconds: number }) => [p.name, p.total_seconds])).toEqual([['api', 1200], ['web', 300]]);
    expect(go.languages.map((l: { name: string }) => l.name)).toEqual(['Go']);
    expect((await stats('project=web&language=Go')).total_seconds).toBe(300);
    // The unfiltered stats (stats, without a range) are not the filtered ones from memory.
    const all = await ok(await get(getStats, 'stats', { auth: basic(u.key) }));
    expect(all.data.total_seconds).toBe(2160);
    const filtered = await ok(await get(getStats, 'stats?project=api', { auth: basic(u.key) }));
    expect(filtered.data.total_seconds).toBe(1200);
    // A project GET projects does not list: 404; text PostgreSQL refuses: 400 naming the parameter.
    for (const name of ['hidden-one', 'never-used']) expect((await get(getRangedStats, `stats/last_7_days?project=${name}`, { auth: basic(u.key), params: { range: 'last_7_days' } })).status).toBe(404);
    for (const [query, field] of [['project=a%00b', 'project'], ['language=%00', 'language'], ['language=', 'language']]) {
      const res = await get(getRangedStats, `stats/last_7_days?${query}`, { auth: basic(u.key), params: { range: 'last_7_days' } });
      expect([query, res.status]).toEqual([query, 400]);
      expect((await res.json()).error).toMatch(new RegExp(`^${field} `));
    }
    // The public answer is never filtered, nor silently unfiltered.
    for (const query of ['project=web', 'language=Go']) {
      const res = await get(getRangedStats, `stats/last_7_days?${query}`, { user: u.user.handle, params: { range: 'last_7_days' } });
      expect([query, res.status]).toEqual([query, 400]);
      expect((await res.json()).error).toContain(query.split('=')[0]);
    }
  });
});

describe("a public user's figures read with another user's key", () => {
  it('answers as without a key: the public profile and figures, 404 for a private one; the own handle with the own key stays whole', async () => {
    const reader = await wakaUser();
    const open = await wakaUser({ share_editors: false });
    await buckets(open.user.id, [[daysFromToday(-1), 9, 'Go', 'private-name', 600]]);
    const closed = await wakaUser({ profile_public: false });
    for (const auth of [basic(reader.key), `Bearer ${reader.key}`, wakapiBearer(reader.key)]) {
      const withKey = await ok(await get(getUser, '', { user: open.user.handle, auth }));
      const without = await ok(await get(getUser, '', { user: open.user.handle }));
      expect(withKey).toEqual(without);
      expect(withKey.data).not.toHaveProperty('timezone');
      for (const [handler, route, params] of [[getStats, 'stats', {}], [getRangedStats, 'stats/last_30_days', { range: 'last_30_days' }]] as const) {
        const seen = await get(handler, route, { user: open.user.handle, auth, params });
        expect(seen.headers.get('cache-control')).toContain('public');
        const body = await ok(seen);
        expect(body).toEqual(await ok(await get(handler, route, { user: open.user.handle, params })));
        expect(body.data).toMatchObject({ total_seconds: 600, projects: [] });
        expect(JSON.stringify(body)).not.toContain('private-name');
      }
      for (const [handler, route, params] of [[getUser, '', {}], [getStats, 'stats', {}], [getRangedStats, 'stats/last_7_days', { range: 'last_7_days' }]] as const) {
        const res = await get(handler, route, { user: closed.user.handle, auth, params });
        expect([route, res.status]).toEqual([route, 404]);
      }
    }
    // The owner's own handle with the owner's key: the owner's whole figures.
    const own = await ok(await get(getStats, 'stats', { user: open.user.handle, auth: basic(open.key) }));
    expect(own.data.projects.map((p: { name: string }) => p.name)).toEqual(['private-name']);
    // A wrong key is still a 401, not a public answer.
    expect((await get(getStats, 'stats', { user: open.user.handle, auth: basic('0b7c0a4e-2222-4333-8444-555566667777') })).status).toBe(401);
    // Routes with no public form still refuse another user's path.
    expect((await get(getSummaries, 'summaries?range=Today', { user: open.user.handle, auth: basic(reader.key) })).status).toBe(403);
  });
});

describe("wakatime-cli's plugin error reports, and paths the API does not have", () => {
  it('answers plugins/errors 201 {} and counts it, keeping nothing; an unknown path is a JSON 404 for every method', async () => {
    const u = await wakaUser();
    const counted = async () => (await metrics().pluginErrors.get()).values.reduce((sum, v) => sum + v.value, 0);
    const before = await counted();
    const url = 'http://localhost/api/wakatime/v1/users/current/plugins/errors';
    const body = JSON.stringify({ message: 'panic: boom', stacktrace: '/home/ada/secret/file.go:12', editor: 'vscode/1.95.0', plugin: 'vscode-wakatime/25.0.0' });
    const res = await postPluginErrors(new Request(url, { method: 'POST', headers: { authorization: basic(u.key), 'content-type': 'application/json' }, body }), { params: Promise.resolve({ user: 'current' }) });
    await expectDocumented('POST', url, res);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({});
    expect(await counted()).toBe(before + 1);
    const unkeyed = await postPluginErrors(new Request(url, { method: 'POST', body }), { params: Promise.resolve({ user: 'current' }) });
    expect(unkeyed.status).toBe(401);

    for (const [handler, method] of [[getUnknown, 'GET'], [postUnknown, 'POST']] as const) {
      const missing = await handler(new Request('http://localhost/api/wakatime/v1/users/current/nothing_here', { method }), { params: Promise.resolve({ rest: ['users', 'current', 'nothing_here'] }) });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(await missing.json())).toEqual(['error']);
    }
  });
});

describe('heartbeats read back', () => {
  it('carry is_write as each heartbeat was sent: true, else false', async () => {
    const u = await wakaUser();
    const now = Math.floor(Date.now() / 1000);
    const t = Math.max(now - 1800, Math.floor(now / 86_400) * 86_400);
    const beats = [true, false, undefined, 'true', true].map((isWrite, i) => ({ entity: `/src/f${i}.ts`, time: t + i * 60, language: 'TypeScript', project: 'w', ...(isWrite === undefined ? {} : { is_write: isWrite }) }));
    const url = 'http://localhost/api/wakatime/v1/users/current/heartbeats.bulk';
    const sent = await postBulk(new Request(url, { method: 'POST', headers: { authorization: basic(u.key), 'content-type': 'application/json' }, body: JSON.stringify(beats) }), { params: Promise.resolve({ user: 'current' }) });
    expect(sent.status).toBe(201);
    const date = new Date(t * 1000).toISOString().slice(0, 10);
    const { data } = await ok(await get(getDayHeartbeats, `heartbeats?date=${date}`, { auth: basic(u.key) }));
    const mine = data.filter((h: { project: string }) => h.project === 'w');
    expect(mine.map((h: { is_write: boolean }) => h.is_write)).toEqual([true, false, false, false, true]);
  });
});
