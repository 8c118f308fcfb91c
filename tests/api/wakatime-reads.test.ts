import { describe, expect, it } from 'vitest';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { GET as getDurations } from '@/app/api/wakatime/v1/users/[user]/durations/route';
import { GET as getDayHeartbeats } from '@/app/api/wakatime/v1/users/[user]/heartbeats/route';
import { GET as getProjects } from '@/app/api/wakatime/v1/users/[user]/projects/route';
import { GET as getLeaders } from '@/app/api/wakatime/v1/leaders/route';
import { GET as getPublicBoard } from '@/app/main/api/v1/leaderboard/api/get/public/route';
import { GET as getUser } from '@/app/api/wakatime/v1/users/[user]/route';
import { GET as getEditors } from '@/app/api/wakatime/v1/editors/route';
import { GET as getMeta } from '@/app/api/wakatime/v1/meta/route';
import { GET as getLanguages } from '@/app/api/wakatime/v1/program_languages/route';
import { GET as getProject } from '@/app/api/wakatime/v1/users/[user]/projects/[project]/route';
import { GET as getCommits } from '@/app/api/wakatime/v1/users/[user]/projects/[project]/commits/route';
import { GET as getMachines } from '@/app/api/wakatime/v1/users/[user]/machine_names/route';
import { GET as getStatusBar } from '@/app/api/wakatime/v1/users/[user]/status_bar/today/route';
import { GET as getRangedStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { GET as getSummaries } from '@/app/api/wakatime/v1/users/[user]/summaries/route';
import { GET as getUserAgents } from '@/app/api/wakatime/v1/users/[user]/user_agents/route';
import { GET as getTeams } from '@/app/api/wakatime/v1/users/[user]/teams/route';
import { GET as getTeamMembers } from '@/app/api/wakatime/v1/users/[user]/teams/[team]/members/route';
import { GET as getMemberSummaries } from '@/app/api/wakatime/v1/users/[user]/teams/[team]/members/[member]/summaries/route';
import { GET as getOrgs } from '@/app/api/wakatime/v1/users/[user]/orgs/route';
import { GET as getDashboards } from '@/app/api/wakatime/v1/users/[user]/orgs/[org]/dashboards/route';
import { GET as getDashboardMembers } from '@/app/api/wakatime/v1/users/[user]/orgs/[org]/dashboards/[dashboard]/members/route';
import { GET as getDashboardSummaries } from '@/app/api/wakatime/v1/users/[user]/orgs/[org]/dashboards/[dashboard]/members/[member]/summaries/route';
import { GET as getDashboardDurations } from '@/app/api/wakatime/v1/users/[user]/orgs/[org]/dashboards/[dashboard]/members/[member]/durations/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { createTeam, joinTeam, setShare } from '@/lib/teams/teams';
import { issueToken } from '@/lib/accounts/tokens';
import { getDb } from '@/lib/db/client';
import { setProjectHidden } from '@/lib/projects/hidden';
import { rangeText } from '@/lib/wakatime/reading/reads';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// What WakaTime's tools read back, from the buckets over all history: categories as WakaTime
// names them, machines with their ids, systems, the AI and human line changes, WakaTime's daily
// average and range text, the machine and User-Agent lists; and on the public stats route, none
// of the AI figures or machines unless the owner shares them.

const claude = 'Claude/2.1.5 wakatime/v2.1.0 (linux-6.8.0) go1.24.4 vscode/1.100.0 vscode-wakatime/25.3.0';
// As WakaTime's browser extension writes it (tests/fixtures/wakatime-clients/browser-extension.json).
const firefox = 'Firefox/133.0 linux_x86_64 firefox-wakatime/4.1.0';
const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;
/** A date as Raycast's WakaTime extension keys it: date-fns' `format(date, "E MMM do yyyy").toLowerCase()`, written out apart from the code under test. */
function raycastDay(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  const part = (options: Intl.DateTimeFormatOptions) => d.toLocaleString('en-US', { ...options, timeZone: 'UTC' });
  const n = d.getUTCDate();
  const suffix = n >= 11 && n <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${part({ weekday: 'short' })} ${part({ month: 'short' })} ${n}${suffix} ${d.getUTCFullYear()}`.toLowerCase();
}
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

async function wakaUser(settings: Record<string, boolean> = {}) {
  const u = await newUser({ timezone: 'UTC', settings: { profile_public: true, share_languages: true, share_editors: true, ...settings } });
  const { token } = await issueToken(await getDb(), u.user.id, { name: 'cli', format: 'uuid' });
  return { ...u, key: token };
}

async function bulk(key: string, beats: unknown[], headers: Record<string, string>) {
  const request = new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic(key), ...headers },
    body: JSON.stringify(beats),
  });
  expect((await postBulk(request, { params: Promise.resolve({ user: 'current' }) })).status).toBe(201);
}

type ReadOptions = { key?: string; user?: string; params?: Record<string, string> };

/** The documented answer of a GET under users/{user}. */
async function answer(handler: Handler, route: string, opts: ReadOptions = {}): Promise<Response> {
  const user = opts.user ?? 'current';
  const url = `http://localhost/api/wakatime/v1/users/${user}${route ? `/${route}` : ''}`;
  const request = new Request(url, { headers: opts.key ? { authorization: basic(opts.key) } : {} });
  return expectDocumented('GET', url, await handler(request, { params: Promise.resolve({ user, ...opts.params }) }));
}

async function read(handler: Handler, route: string, opts: ReadOptions = {}) {
  const res = await answer(handler, route, opts);
  expect(res.status).toBe(200);
  return res.json();
}

/**
 * Two days ago, an AI agent's half hour on a desk machine (30 lines added by AI, 4 by hand) and
 * 20 minutes of debugging on a laptop in another hour; 40 days ago, sync buckets of an hour's
 * coding on the laptop and a quarter hour of code review.
 */
async function history() {
  const u = await wakaUser();
  const twoDaysAgo = daysFromToday(-2);
  const at = Date.parse(`${twoDaysAgo}T09:00:00Z`) / 1000;
  await bulk(
    u.key,
    [0, 600, 1200, 1800].map((s, i) => ({ entity: 'a.ts', time: at + s, language: 'TypeScript', project: 'app', category: 'ai coding', ai_line_changes: i === 0 ? 30 : 0, human_line_changes: i === 1 ? 4 : 0 })),
    { 'user-agent': claude, 'x-machine-name': 'desk' },
  );
  await bulk(
    u.key,
    [0, 600, 1200].map((s) => ({ entity: 'b.go', time: at + 7200 + s, language: 'Go', project: 'api', category: 'debugging' })),
    { 'user-agent': firefox, 'x-machine-name': 'laptop' },
  );
  const oldDate = daysFromToday(-40);
  const token = await tokenWithScopes(u.user.id, ['sync']);
  const res = await call(postBatch, '/sync/activities', {
    token,
    body: {
      activities: [
        { date: oldDate, hour: 14, language: 'Go', time: 3600, project_name: 'api', machine: 'laptop' },
        { date: oldDate, hour: 15, language: 'Go', time: 900, project_name: 'api', category: 'code reviewing', machine: 'laptop' },
      ],
    },
  });
  expect(res.status).toBe(200);
  return { u, twoDaysAgo, oldDate };
}

const named = (list: { name: string; total_seconds: number }[]) => list.map((d) => [d.name, d.total_seconds]);

describe("WakaTime's reads over all history", () => {
  it('give categories as WakaTime names them, machines with their ids, systems and the line changes, per day and over a range', async () => {
    const { u, twoDaysAgo, oldDate } = await history();
    const { data: machines } = await read(getMachines, 'machine_names', { key: u.key });
    expect(machines.map((m: { name: string }) => m.name).sort()).toEqual(['desk', 'laptop']);
    const idOf = Object.fromEntries(machines.map((m: { name: string; id: string }) => [m.name, m.id]));
    expect(idOf.desk).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(machines.find((m: { name: string }) => m.name === 'laptop')).toMatchObject({ value: 'laptop', created_at: `${oldDate}T00:00:00Z` });

    const summaries = await read(getSummaries, `summaries?start=${oldDate}&end=${twoDaysAgo}`, { key: u.key });
    const day = (date: string) => summaries.data.find((d: { range: { date: string } }) => d.range.date === date);
    const recent = day(twoDaysAgo);
    expect(named(recent.categories)).toEqual([['AI Coding', 1800], ['Debugging', 1200]]);
    expect(recent.machines.map((m: { name: string; total_seconds: number; machine_name_id: string }) => [m.name, m.total_seconds, m.machine_name_id])).toEqual([
      ['desk', 1800, idOf.desk],
      ['laptop', 1200, idOf.laptop],
    ]);
    expect(named(recent.operating_systems)).toEqual([['Linux', 3000]]);
    expect(recent.grand_total).toMatchObject({ total_seconds: 3000, ai_additions: 30, ai_deletions: 0, human_additions: 4, human_deletions: 0 });
    expect(recent.range.text).toBe(rangeText(twoDaysAgo));
    // Forty days back, past the 14 days heartbeats are kept: the buckets still know it all.
    const old = day(oldDate);
    expect(named(old.categories)).toEqual([['Coding', 3600], ['Code Reviewing', 900]]);
    expect(named(old.machines)).toEqual([['laptop', 4500]]);
    // Systems of buckets that never named one are left out, never made up.
    expect(old.operating_systems).toEqual([]);
    // WakaTime's daily average: the total over the two days with coding; the other 37 are holidays.
    expect(summaries.daily_average).toMatchObject({ days_including_holidays: 39, days_minus_holidays: 2, holidays: 37, seconds: 3750 });
    expect(summaries.cumulative_total.seconds).toBe(7500);

    // One project's figures alone: its languages, editors and time, the hour cap kept.
    const api = await read(getSummaries, `summaries?start=${oldDate}&end=${twoDaysAgo}&project=api`, { key: u.key });
    expect(api.cumulative_total.seconds).toBe(5700);
    const apiOld = api.data.find((d: { range: { date: string } }) => d.range.date === oldDate);
    expect([named(apiOld.projects), named(apiOld.languages), named(apiOld.categories)]).toEqual([[['api', 4500]], [['Go', 4500]], [['Coding', 3600], ['Code Reviewing', 900]]]);
    const apiRecent = api.data.find((d: { range: { date: string } }) => d.range.date === twoDaysAgo);
    expect([named(apiRecent.editors), apiRecent.grand_total.ai_additions]).toEqual([[['Firefox', 1200]], 0]);

    const { data: stats } = await read(getRangedStats, 'stats/last_year', { key: u.key, params: { range: 'last_year' } });
    expect(named(stats.categories)).toEqual([['Coding', 3600], ['AI Coding', 1800], ['Debugging', 1200], ['Code Reviewing', 900]]);
    expect(named(stats.machines)).toEqual([['laptop', 5700], ['desk', 1800]]);
    expect(stats.grand_total).toMatchObject({ ai_additions: 30, human_additions: 4 });
    expect(stats.best_day).toEqual({ date: oldDate, total_seconds: 4500, text: '1 hr 15 mins' });
    expect(stats).toMatchObject({ days_minus_holidays: 2, daily_average: 3750, total_seconds: 7500 });
    expect(stats.holidays).toBe(stats.days_including_holidays - 2);
  });

  it("list projects with WakaTime's fields: the last heartbeat's time, the page and a link", async () => {
    const { u, twoDaysAgo, oldDate } = await history();
    const listed = await read(getProjects, 'projects', { key: u.key });
    const at = Date.parse(`${twoDaysAgo}T09:00:00Z`);
    expect(listed).toMatchObject({ total: 2, total_pages: 1, page: 1, prev_page: null, next_page: null });
    expect(listed.data).toEqual([
      expect.objectContaining({ name: 'api', urlencoded_name: 'api', last_heartbeat_at: new Date(at + 8400_000).toISOString(), created_at: `${oldDate}T00:00:00Z`, url: 'http://localhost/dashboard/projects/api' }),
      expect.objectContaining({ name: 'app', last_heartbeat_at: new Date(at + 1800_000).toISOString(), created_at: `${twoDaysAgo}T00:00:00Z`, human_readable_last_heartbeat_at: expect.stringMatching(/^[12] days? ago$/) }),
    ]);
    expect((await read(getProjects, 'projects?page=2', { key: u.key })).data).toEqual([]);
    // One project, as the list gives it; its commits in WakaTime's shape, none (no repository is linked).
    expect((await read(getProject, 'projects/api', { key: u.key, params: { project: 'api' } })).data).toEqual(listed.data[0]);
    expect(await read(getCommits, 'projects/app/commits', { key: u.key, params: { project: 'app' } })).toMatchObject({ commits: [], total: 0, project: listed.data[1] });
    // A name no write could store is no project either, never a 500.
    const nul = 'http://localhost/api/wakatime/v1/users/current/projects/a%00b';
    const refused = await getProject(new Request(nul, { headers: { authorization: basic(u.key) } }), { params: Promise.resolve({ user: 'current', project: 'a\u0000b' }) });
    expect((await expectDocumented('GET', nul, refused)).status).toBe(404);
    const url = 'http://localhost/api/wakatime/v1/users/current/projects/nothing';
    const missing = await getProject(new Request(url, { headers: { authorization: basic(u.key) } }), { params: Promise.resolve({ user: 'current', project: 'nothing' }) });
    expect((await expectDocumented('GET', url, missing)).status).toBe(404);
  });

  it("name every day of summaries as WakaTime does, today and yesterday included, which Raycast's activity change keys days by", async () => {
    const u = await wakaUser();
    const [today, yesterday] = [daysFromToday(0), daysFromToday(-1)];
    const sync = await call(postBatch, '/sync/activities', {
      token: u.token!,
      body: { activities: [{ date: yesterday, hour: 9, language: 'Go', time: 1800 }, { date: today, hour: 0, language: 'Go', time: 2700 }] },
    });
    expect(sync.status).toBe(200);
    const { data } = await read(getSummaries, `summaries?start=${daysFromToday(-2)}&end=${today}`, { key: u.key });
    expect(data.map((d: { range: { text: string } }) => d.range.text)).toEqual([-2, -1, 0].map((n) => rangeText(daysFromToday(n))));
    // The extension's own arithmetic: today's time against yesterday's, each day keyed by
    // date-fns' format(date, "E MMM do yyyy").toLowerCase() of its own clock's dates.
    const days = Object.fromEntries(data.map((d: { range: { text: string }; grand_total: { total_seconds: number } }) => [d.range.text.toLowerCase(), d.grand_total.total_seconds]));
    expect(Math.floor((Math.abs(days[raycastDay(today)] - days[raycastDay(yesterday)]) / days[raycastDay(yesterday)]) * 1e2)).toBe(50);
    expect(raycastDay('2026-12-04')).toBe('fri dec 4th 2026');
  });

  it('answer the status bar at status_bar/today, and list the User-Agents heartbeats came with', async () => {
    const u = await wakaUser();
    const t = Math.max(Math.floor(Date.now() / 1000) - 900, Math.floor(Date.now() / 86_400_000) * 86_400);
    // Five minutes from the browser, credited up to the agent's first heartbeat; five from the agent.
    await bulk(u.key, [{ entity: 'github.com', time: t, language: 'TypeScript', project: 'app' }], { 'user-agent': firefox });
    await bulk(u.key, [300, 600].map((s) => ({ entity: 'b.ts', time: t + s, language: 'TypeScript', project: 'app', category: 'ai coding' })), { 'user-agent': claude });
    const { data } = await read(getStatusBar, 'status_bar/today', { key: u.key });
    expect(data.range.text).toBe('Today');
    expect(named(data.categories)).toEqual([['AI Coding', 300], ['Coding', 300]]);
    const { data: agents } = await read(getUserAgents, 'user_agents', { key: u.key });
    const byValue = Object.fromEntries(agents.map((a: { value: string }) => [a.value, a]));
    expect(Object.keys(byValue).sort()).toEqual([claude, firefox].sort());
    expect(byValue[firefox]).toMatchObject({ editor: 'Firefox', is_browser_extension: true, is_desktop_app: false, version: '4.1.0' });
    expect(byValue[claude]).toMatchObject({ editor: 'VS Code', os: 'Linux', is_browser_extension: false, version: '25.3.0' });
    // A User-Agent PostgreSQL cannot store as text (an unpaired surrogate) is not recorded, and its heartbeat still counts.
    await bulk(u.key, [{ entity: 'c.ts', time: t + 660, language: 'TypeScript', project: 'app', user_agent: '\ud800' }], { 'user-agent': claude });
    expect((await read(getUserAgents, 'user_agents', { key: u.key })).data).toHaveLength(2);
  });
});

describe('one day read back', () => {
  it('gives the heartbeats of a date with digests for entities, and durations sliced as asked, a hidden project as null', async () => {
    const u = await wakaUser();
    const date = daysFromToday(-1);
    const at = Date.parse(`${date}T09:00:00Z`) / 1000;
    await bulk(
      u.key,
      [
        { entity: '/home/ada/secret/a.ts', time: at, language: 'TypeScript', project: 'app', ai_line_changes: 3 },
        { entity: '/home/ada/secret/b.go', time: at + 300, language: 'Go', project: 'app' },
        { entity: '/home/ada/secret/b.go', time: at + 600, language: 'Go', project: 'app' },
        // 40 minutes later: a gap too long to join.
        { entity: '/home/ada/secret/c.go', time: at + 3000, language: 'Go', project: 'app' },
        { entity: '/home/ada/secret/c.go', time: at + 3120, language: 'Go', project: 'app' },
      ],
      { 'user-agent': claude, 'x-machine-name': 'desk' },
    );
    const beats = await read(getDayHeartbeats, `heartbeats?date=${date}`, { key: u.key });
    expect(beats.timezone).toBe('UTC');
    expect(beats.start).toBe(`${date}T00:00:00.000Z`);
    expect(beats.data.map((b: { time: number; language: string; project: string }) => [b.time, b.language, b.project])).toEqual([
      [at, 'TypeScript', 'app'],
      [at + 300, 'Go', 'app'],
      [at + 600, 'Go', 'app'],
      [at + 3000, 'Go', 'app'],
      [at + 3120, 'Go', 'app'],
    ]);
    expect(beats.data[0]).toMatchObject({ ai_line_changes: 3, ai_agent: 'Claude', category: 'coding', editor: 'VS Code', operating_system: 'Linux' });
    expect(JSON.stringify(beats)).not.toContain('secret');
    // A day before the 14 days heartbeats are kept answers nothing, not an error.
    expect((await read(getDayHeartbeats, `heartbeats?date=${daysFromToday(-30)}`, { key: u.key })).data).toEqual([]);

    const byProject = await read(getDurations, `durations?date=${date}`, { key: u.key });
    expect(byProject.data).toEqual([
      { time: at, duration: 600, project: 'app' },
      { time: at + 3000, duration: 120, project: 'app' },
    ]);
    const byLanguage = await read(getDurations, `durations?date=${date}&slice_by=language`, { key: u.key });
    expect(byLanguage.data).toEqual([
      { time: at, duration: 300, project: 'app', language: 'TypeScript' },
      { time: at + 300, duration: 300, project: 'app', language: 'Go' },
      { time: at + 3000, duration: 120, project: 'app', language: 'Go' },
    ]);
    const { data: machines } = await read(getMachines, 'machine_names', { key: u.key });
    const byMachine = await read(getDurations, `durations?date=${date}&slice_by=machine`, { key: u.key });
    expect(byMachine.data.map((d: { machine_name_id: string }) => d.machine_name_id)).toEqual([machines[0].id, machines[0].id]);
    expect((await read(getDurations, `durations?date=${date}&project=other`, { key: u.key })).data).toEqual([]);

    await setProjectHidden(await getDb(), u.user.id, 'app', true);
    expect((await read(getDurations, `durations?date=${date}`, { key: u.key })).data.map((d: { project: string | null }) => d.project)).toEqual([null, null]);
    expect((await read(getDayHeartbeats, `heartbeats?date=${date}`, { key: u.key })).data.map((d: { project: string | null }) => d.project)).toEqual([null, null, null, null, null]);
  });
});

describe("the public stats route, without the owner's consent", () => {
  async function publicStats(handle: string) {
    return (await read(getRangedStats, 'stats/last_year', { user: handle, params: { range: 'last_year' } })).data;
  }

  it('folds AI Coding into Coding and leaves out the line changes and machines; with share_ai and share_machines they show', async () => {
    const { u } = await history();
    const hidden = await publicStats(u.user.handle);
    expect(named(hidden.categories)).toEqual([['Coding', 5400], ['Debugging', 1200], ['Code Reviewing', 900]]);
    expect(hidden.machines).toEqual([]);
    expect(hidden.grand_total).not.toHaveProperty('ai_additions');
    expect(hidden.grand_total).not.toHaveProperty('human_additions');
    const text = JSON.stringify(hidden);
    for (const secret of ['desk', 'laptop', 'AI Coding', 'Claude']) expect(text).not.toContain(secret);

    const shared = await wakaUser({ share_ai: true, share_machines: true });
    const at = Date.parse(`${daysFromToday(-1)}T09:00:00Z`) / 1000;
    await bulk(shared.key, [0, 600].map((s) => ({ entity: 'a.ts', time: at + s, language: 'TypeScript', project: 'app', category: 'ai coding', ai_line_changes: s ? 0 : 12 })), {
      'user-agent': claude,
      'x-machine-name': 'desk',
    });
    const shown = await publicStats(shared.user.handle);
    expect(named(shown.categories)).toEqual([['AI Coding', 600]]);
    expect(named(shown.machines)).toEqual([['desk', 600]]);
    expect(shown.grand_total).toMatchObject({ ai_additions: 12 });
  });

  it("counts an AI agent's own plugin (claude-code-wakatime) in Other among the editors; with share_ai it is named", async () => {
    const agentPlugin = 'wakatime/v1.115.0 (linux-6.8.0-x86_64) go1.24.4 claude-code-wakatime/1.2.0';
    const at = Date.parse(`${daysFromToday(-1)}T10:00:00Z`) / 1000;
    const editorsOf = async (settings: Record<string, boolean>) => {
      const u = await wakaUser(settings);
      await bulk(u.key, [0, 600].map((s) => ({ entity: 'a.ts', time: at + s, language: 'TypeScript', project: 'app', category: 'ai coding' })), { 'user-agent': agentPlugin });
      await bulk(u.key, [0, 300].map((s) => ({ entity: 'b.go', time: at + 3600 + s, language: 'Go', project: 'api' })), { 'user-agent': claude });
      return publicStats(u.user.handle);
    };
    const hidden = await editorsOf({});
    expect(named(hidden.editors)).toEqual([['Other', 600], ['VS Code', 300]]);
    expect(JSON.stringify(hidden)).not.toContain('Claude');
    const shown = await editorsOf({ share_ai: true });
    expect(named(shown.editors)).toEqual([['Claude Code', 600], ['VS Code', 300]]);
  });
});

describe('GET /leaders', () => {
  async function leaders(query: string, key?: string) {
    const url = `http://localhost/api/wakatime/v1/leaders${query}`;
    const request = new Request(url, { headers: key ? { authorization: basic(key) } : {} });
    const res = await expectDocumented('GET', url, await getLeaders(request));
    expect(res.status).toBe(200);
    return res.json();
  }

  it("ranks the public leaderboard's members in WakaTime's shape; a key adds where its owner stands", async () => {
    const listed = { profile_public: true, leaderboard: true, share_languages: true };
    const [ann, bob, hidden] = [await wakaUser(listed), await wakaUser(listed), await wakaUser({ leaderboard: false })];
    const today = daysFromToday(0);
    for (const [u, seconds] of [[ann, 3000], [bob, 2000], [hidden, 3500]] as const) {
      const token = await tokenWithScopes(u.user.id, ['sync']);
      expect((await call(postBatch, '/sync/activities', { token, body: { activities: [{ date: today, hour: 0, language: 'Go', time: seconds }] } })).status).toBe(200);
    }
    const board = await (await getPublicBoard(new Request('http://localhost/main/api/v1/leaderboard/api/get/public?range=7d&limit=100'))).json();
    const open = await leaders('');
    expect(open.data.map((d: { rank: number; user: { username: string }; running_total: { total_seconds: number } }) => [d.rank, d.user.username, d.running_total.total_seconds])).toEqual(
      board.entries.map((e: { rank: number; user: { handle: string }; total_seconds: number }) => [e.rank, e.user.handle, e.total_seconds]),
    );
    const handles = open.data.map((d: { user: { username: string } }) => d.user.username);
    expect(handles).toEqual(expect.arrayContaining([ann.user.handle, bob.user.handle]));
    expect(handles).not.toContain(hidden.user.handle);
    expect(open).toMatchObject({ current_user: null, page: 1, language: null, range: { end_date: today } });
    const annEntry = open.data.find((d: { user: { username: string } }) => d.user.username === ann.user.handle);
    expect(annEntry.running_total).toMatchObject({ total_seconds: 3000, human_readable_total: '50 mins', languages: [{ name: 'Go', total_seconds: 3000 }] });
    // An empty api_key is no key.
    expect((await leaders('?api_key=')).current_user).toBeNull();
    // A page that is not a whole number from 1 is the asker's mistake, named.
    const badUrl = 'http://localhost/api/wakatime/v1/leaders?page=0';
    const bad = await expectDocumented('GET', badUrl, await getLeaders(new Request(badUrl)));
    expect([bad.status, (await bad.json()).error]).toEqual([400, expect.stringMatching(/page/)]);

    const mine = await leaders('', bob.key);
    expect(mine.current_user).toEqual({ rank: open.data.find((d: { user: { username: string } }) => d.user.username === bob.user.handle).rank, page: 1, user: { id: bob.user.id, username: bob.user.handle, display_name: bob.user.display_name } });
    expect((await leaders('', hidden.key)).current_user).toBeNull();
    expect((await leaders('?language=go', bob.key)).language).toBe('Go');

    // WakaTime's meta routes, public: the editors Codetally names, the leaderboard's languages.
    const publicGet = async (handler: (request: Request) => Response | Promise<Response>, route: string) => {
      const url = `http://localhost/api/wakatime/v1/${route}`;
      const res = await expectDocumented('GET', url, await handler(new Request(url)));
      expect([route, res.status, res.headers.get('access-control-allow-origin')]).toEqual([route, 200, '*']);
      return res.json();
    };
    const editors = await publicGet(getEditors, 'editors');
    expect(editors.data.map((e: { name: string }) => e.name)).toEqual(expect.arrayContaining(['Neovim', 'VS Code', 'Sublime Text']));
    expect(editors.total).toBe(editors.data.length);
    expect((await publicGet(getLanguages, 'program_languages')).data.map((l: { name: string }) => l.name)).toContain('Go');
    expect((await publicGet(getMeta, 'meta')).data.ips).toEqual({ api: [], website: [], worker: [] });
  });
});

describe('GET users/{user}', () => {
  it("gives the key's owner with a key, and without one only what a public profile shows; a private one is 404 like an unknown", async () => {
    const open = await wakaUser();
    const own = await read(getUser, '', { key: open.key });
    expect(own.data).toMatchObject({ id: open.user.id, username: open.user.handle, timezone: 'UTC', profile_url: `http://localhost/u/${open.user.handle}` });
    const seen = await read(getUser, '', { user: open.user.handle.toUpperCase() });
    expect(seen.data).toMatchObject({ id: open.user.id, username: open.user.handle, profile_url: `http://localhost/u/${open.user.handle}` });
    expect(seen.data).not.toHaveProperty('timezone');
    expect(seen.data).not.toHaveProperty('created_at');
    const closed = await wakaUser({ profile_public: false });
    for (const user of [closed.user.handle, 'nobody-at-all']) {
      const res = await getUser(new Request(`http://localhost/api/wakatime/v1/users/${user}`), { params: Promise.resolve({ user }) });
      expect(res.status).toBe(404);
    }
  });
});

describe("WakaTime's team and organization routes", () => {
  /** A team of three with history, and an outsider: the owner, one who shares languages, one who shares nothing. */
  async function team() {
    const db = await getDb();
    const owner = await history();
    const [langs, quiet, outsider] = [await wakaUser(), await wakaUser(), await wakaUser()];
    const t = await createTeam(db, owner.u.user.id, 'Crew');
    for (const m of [langs, quiet]) await joinTeam(db, m.user.id, t.inviteCode);
    await setShare(db, langs.user.id, t.id, 'languages');
    await setShare(db, quiet.user.id, t.id, 'none');
    const at = Date.parse(`${owner.twoDaysAgo}T10:00:00Z`) / 1000;
    await bulk(langs.key, [0, 600, 1200, 1800].map((s) => ({ entity: 'x.rs', time: at + s, language: 'Rust', project: 'secret-plan', category: 'ai coding', ai_line_changes: 9 })), { 'user-agent': claude, 'x-machine-name': 'home' });
    return { ...owner, t, langs, quiet, outsider };
  }

  it('list the teams as teams and as organizations, and their rosters, to members only', async () => {
    const { u, t, langs, quiet, outsider } = await team();
    const teams = await read(getTeams, 'teams', { key: u.key });
    expect(teams.data).toEqual([expect.objectContaining({ id: t.id, name: 'Crew', is_manager: true, members_count: 3 })]);
    expect((await read(getTeams, 'teams', { key: langs.key })).data[0]).toMatchObject({ id: t.id, is_manager: false });
    expect((await read(getTeams, 'teams', { key: outsider.key })).data).toEqual([]);
    const orgs = await read(getOrgs, 'orgs', { key: u.key });
    expect(orgs.data).toEqual([expect.objectContaining({ id: t.id, name: 'Crew', people_count: 3, people_count_human_readable: '3 people', can_current_user_delete_org: true })]);
    const dashboards = await read(getDashboards, `orgs/${t.id}/dashboards`, { key: langs.key, params: { org: t.id } });
    expect(dashboards.data).toEqual([expect.objectContaining({ id: t.id, members_count: 3, can_current_user_add_members: false })]);

    const roster = await read(getTeamMembers, `teams/${t.id}/members`, { key: langs.key, params: { team: t.id } });
    expect(roster.data.map((m: { id: string; share: string; email: null }) => [m.id, m.share, m.email]).sort()).toEqual(
      [[u.user.id, 'total', null], [langs.user.id, 'languages', null], [quiet.user.id, 'none', null]].sort(),
    );
    expect(await read(getDashboardMembers, `orgs/${t.id}/dashboards/${t.id}/members`, { key: u.key, params: { org: t.id, dashboard: t.id } })).toEqual(roster);

    // An outsider, an unknown team and a dashboard id that is not the organization's: 404 alike.
    for (const [handler, route, params] of [
      [getTeamMembers, `teams/${t.id}/members`, { team: t.id }],
      [getDashboards, `orgs/${t.id}/dashboards`, { org: t.id }],
      [getMemberSummaries, `teams/${t.id}/members/${u.user.id}/summaries?range=today`, { team: t.id, member: u.user.id }],
    ] as const) {
      expect((await answer(handler, route, { key: outsider.key, params })).status).toBe(404);
    }
    expect((await answer(getTeamMembers, `teams/${outsider.user.id}/members`, { key: u.key, params: { team: outsider.user.id } })).status).toBe(404);
    expect((await answer(getDashboardMembers, `orgs/${t.id}/dashboards/${u.user.id}/members`, { key: u.key, params: { org: t.id, dashboard: u.user.id } })).status).toBe(404);
  });

  it("give a member's figures only as the member shares them with the team, and the caller's own whole", async () => {
    const { u, t, langs, quiet, twoDaysAgo, oldDate } = await team();
    const range = `start=${twoDaysAgo}&end=${twoDaysAgo}`;
    const of = (member: string, key: string, query = range) =>
      answer(getMemberSummaries, `teams/${t.id}/members/${member}/summaries?${query}`, { key, params: { team: t.id, member } });

    // Languages shared: the total and the languages, nothing of projects, agents, machines or lines.
    const shared = await (await of(langs.user.handle, u.key)).json();
    const [day] = shared.data;
    expect(day.grand_total).toEqual({ digital: '0:30', hours: 0, minutes: 30, text: '30 mins', total_seconds: 1800 });
    expect(named(day.languages)).toEqual([['Rust', 1800]]);
    expect([day.projects, day.categories, day.editors, day.machines, day.operating_systems]).toEqual([[], [], [], [], []]);
    expect(JSON.stringify(shared)).not.toMatch(/secret-plan|home|AI Coding|Claude/);

    // The owner shares the total only (the default); as a dashboard member, by id, the same.
    const totalOnly = await (await answer(getDashboardSummaries, `orgs/${t.id}/dashboards/${t.id}/members/${u.user.id}/summaries?start=${oldDate}&end=${twoDaysAgo}`, {
      key: langs.key,
      params: { org: t.id, dashboard: t.id, member: u.user.id },
    })).json();
    expect(totalOnly.cumulative_total.seconds).toBe(7500);
    expect(totalOnly.data.every((d: { languages: unknown[]; projects: unknown[] }) => d.languages.length === 0 && d.projects.length === 0)).toBe(true);

    // Sharing nothing, or one project of another member: 403. One's own figures: whole.
    expect((await of(quiet.user.id, u.key)).status).toBe(403);
    expect((await of(langs.user.id, u.key, `${range}&project=secret-plan`)).status).toBe(403);
    const own = await (await of(langs.user.id, langs.key)).json();
    expect(named(own.data[0].projects)).toEqual([['secret-plan', 1800]]);
    expect(own.data[0].grand_total.ai_additions).toBe(36);

    // When in the day someone codes is not shared; one's own runs are.
    const durations = (member: string, key: string) =>
      answer(getDashboardDurations, `orgs/${t.id}/dashboards/${t.id}/members/${member}/durations?date=${twoDaysAgo}`, { key, params: { org: t.id, dashboard: t.id, member } });
    expect((await durations(langs.user.id, u.key)).status).toBe(403);
    const mine = await (await durations(langs.user.id, langs.key)).json();
    expect(mine.data).toEqual([{ time: Date.parse(`${twoDaysAgo}T10:00:00Z`) / 1000, duration: 1800, project: 'secret-plan' }]);

    // A consent withdrawn shows in the next request.
    await setShare(await getDb(), langs.user.id, t.id, 'none');
    expect((await of(langs.user.id, u.key)).status).toBe(403);
  });

  it("give a teammate's dates as the team page does (UTC), never the teammate's timezone", async () => {
    const db = await getDb();
    const [viewer, far] = [await wakaUser(), await newUser({ timezone: 'Pacific/Kiritimati', settings: { share_languages: true } })];
    const { token: farKey } = await issueToken(db, far.user.id, { name: 'cli', format: 'uuid' });
    const t = await createTeam(db, viewer.user.id, 'Crew');
    await joinTeam(db, far.user.id, t.inviteCode);
    await setShare(db, far.user.id, t.id, 'languages');
    // Half an hour on a local date of the teammate's, read back on that date.
    const date = daysFromToday(-3);
    expect((await call(postBatch, '/sync/activities', { token: far.token, body: { activities: [{ date, hour: 9, language: 'Rust', time: 1800 }] } })).status).toBe(200);
    const of = (key: string, query: string) => read(getMemberSummaries, `teams/${t.id}/members/${far.user.id}/summaries?${query}`, { key, params: { team: t.id, member: far.user.id } });

    for (const query of [`start=${date}&end=${date}`, 'range=Last 7 Days', '']) {
      const seen = await of(viewer.key, query);
      expect(JSON.stringify(seen), query).not.toMatch(/Kiritimati|\+14/);
      expect(seen.data.every((d: { range: { timezone: string } }) => d.range.timezone === 'UTC'), query).toBe(true);
      expect(seen.cumulative_total.seconds, query).toBe(1800);
    }
    // The last 7 days end on UTC's today, as the team page's dates do.
    const week = await of(viewer.key, 'range=Last 7 Days');
    expect(week.data.map((d: { range: { date: string } }) => d.range.date)).toEqual([-6, -5, -4, -3, -2, -1, 0].map(daysFromToday));
    expect(week.data.at(-1).range.text).toBe(rangeText(daysFromToday(0)));
    // The teammate's own, through the same route: in their own timezone.
    const own = await of(farKey, `start=${date}&end=${date}`);
    expect(own.data[0].range.timezone).toBe('Pacific/Kiritimati');
  });
});
