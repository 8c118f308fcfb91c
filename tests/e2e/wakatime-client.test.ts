import { describe, expect, inject, it } from 'vitest';
import { RANGE, WakaTimeClient } from 'wakatime-client';

// wakatime-client (the npm library dashboards and README tools are built on), unchanged, against
// the production build with only its base URL changed: every one of its methods answers, with
// the figures a user of each would rely on. A team of two makes the team and organization
// methods real: the second member shares languages with it.
const base = inject('baseUrl');
const api = `${base}/main/api/v1`;

async function account(settings: Record<string, boolean> = {}) {
  const res = await fetch(`${api}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle: `wc${Math.random().toString(36).slice(2, 10)}`, token: { format: 'uuid', scopes: ['sync', 'stats', 'account'] }, settings }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { user: { id: string; handle: string }; token: string };
}

async function post(path: string, token: string, body: unknown, method = 'POST') {
  const res = await fetch(`${api}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json();
}

/** Half an hour of heartbeats two minutes apart, from 40 minutes ago (or today's first minute, UTC). */
async function code(key: string, project: string, language: string) {
  const now = Math.floor(Date.now() / 1000);
  const start = Math.max(now - 2400, Math.floor(now / 86_400) * 86_400);
  const beats = Array.from({ length: 16 }, (_, i) => ({ entity: `/src/${project}/main.x`, type: 'file', time: start + i * 120, project, language, category: 'coding' }));
  const res = await fetch(`${base}/api/v1/users/current/heartbeats.bulk`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json', 'user-agent': 'wakatime/v1.98.0 (linux-6.5.0) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0' },
    body: JSON.stringify(beats),
  });
  expect(res.status).toBe(201);
  return new Date(start * 1000).toISOString().slice(0, 10);
}

describe('wakatime-client against the server', () => {
  it('answers every method of the library, with only the base URL changed', async () => {
    const me = await account({ profile_public: true, share_languages: true });
    const mate = await account();
    const date = await code(me.token, 'engine', 'Rust');
    await code(mate.token, 'mate-secret', 'Go');
    const team = await post('/teams', me.token, { name: 'Crew' });
    await post('/teams/join', mate.token, { code: team.invite_code });
    await post(`/teams/${team.id}/me`, mate.token, { share: 'languages' }, 'PATCH');

    const client = new WakaTimeClient(me.token, `${base}/api/v1/`);
    const called = new Set<string>();
    const call = async <T,>(name: string, ...args: unknown[]): Promise<T> => {
      called.add(name);
      return (client[name] as (...a: unknown[]) => Promise<T>)(...args);
    };
    type Data<T = Record<string, unknown>> = { data: T };
    const dateRange = { startDate: date, endDate: date };

    for (const who of [['getMe'], ['getUser', 'current'], ['getUser', me.user.handle]] as const) {
      expect((await call<Data>(who[0], ...who.slice(1))).data).toMatchObject({ id: me.user.id, username: me.user.handle });
    }
    for (const [name, args] of [['getMySummary', [{ dateRange }]], ['getUserSummary', [{ userId: 'current', dateRange }]]] as const) {
      const s = await call<Data<{ grand_total: { total_seconds: number }; projects: { name: string }[] }[]>>(name, ...args);
      expect(s.data[0].grand_total.total_seconds).toBeGreaterThan(0);
      expect(s.data[0].projects.map((p) => p.name)).toEqual(['engine']);
    }
    for (const [name, args] of [['getMyStats', [{ range: RANGE.LAST_7_DAYS }]], ['getUserStats', [{ userId: me.user.handle, range: RANGE.LAST_30_DAYS }]]] as const) {
      const s = await call<Data<{ languages: { name: string }[]; best_day: { date: string } }>>(name, ...args);
      expect([s.data.languages[0].name, s.data.best_day.date]).toEqual(['Rust', date]);
    }
    for (const [name, args] of [['getMyProjects', []], ['getProjects', ['current']]] as const) {
      expect((await call<Data<{ name: string }[]>>(name, ...args)).data.map((p) => p.name)).toEqual(['engine']);
    }
    for (const [name, args] of [['getMyUserAgents', []], ['getUserAgents', ['current']]] as const) {
      expect((await call<Data<{ editor: string }[]>>(name, ...args)).data.map((a) => a.editor)).toEqual(['VS Code']);
    }
    for (const [name, args] of [['getMyHeartbeats', [date]], ['getHeartbeats', [{ userId: 'current', date }]]] as const) {
      expect((await call<Data<unknown[]>>(name, ...args)).data).toHaveLength(16);
    }
    for (const [name, args] of [['getMyDurations', [{ date }]], ['getDurations', [{ userId: 'current', date }]]] as const) {
      expect((await call<Data<{ project: string }[]>>(name, ...args)).data.map((d) => d.project)).toEqual(['engine']);
    }
    for (const [name, args] of [['getMyGoals', []], ['getGoals', ['current']]] as const) {
      expect((await call<Data<unknown[]>>(name, ...args)).data).toEqual([]);
    }
    for (const [name, args] of [['getMyCommits', [{ projectName: 'engine' }]], ['getCommits', [{ userId: 'current', projectName: 'engine' }]]] as const) {
      expect(await call(name, ...args)).toMatchObject({ commits: [], project: { name: 'engine' } });
    }
    expect((await call<{ page: number }>('getLeaders')).page).toBe(1);
    expect((await call<{ status: number; data: { data: { ips: unknown } } }>('getMetadata')).data.data).toHaveProperty('ips');

    // Teams, as teams and as organizations with one dashboard: a mate's languages, never their projects.
    for (const [name, args] of [['getMyTeams', []], ['getTeams', ['current']], ['getMyOrganizations', []], ['getOrganizations', ['current']]] as const) {
      expect((await call<Data<{ id: string }[]>>(name, ...args)).data.map((t) => t.id)).toEqual([team.id]);
    }
    for (const [name, args] of [['getMyOrganizationDashboards', [team.id]], ['getOrganizationDashboards', [{ userId: 'current', organizationId: team.id }]]] as const) {
      expect((await call<Data<{ id: string }[]>>(name, ...args)).data.map((d) => d.id)).toEqual([team.id]);
    }
    const dashboard = { organizationId: team.id, dashboardId: team.id };
    for (const [name, args] of [
      ['getMyTeamMembers', [team.id]],
      ['getTeamMembers', [{ userId: 'current', teamId: team.id }]],
      ['getMyOrganizationDashboardMembers', [dashboard]],
      ['getOrganizationDashboardMembers', [{ userId: 'current', ...dashboard }]],
    ] as const) {
      expect((await call<Data<{ id: string }[]>>(name, ...args)).data.map((m) => m.id).sort()).toEqual([me.user.id, mate.user.id].sort());
    }
    for (const [name, args] of [
      ['getMyTeamMemberSummary', [{ teamId: team.id, teamMemberId: mate.user.id, dateRange }]],
      ['getTeamMemberSummary', [{ userId: 'current', teamId: team.id, teamMemberId: mate.user.id, dateRange }]],
      ['getMyOrganizationDashboardMemberSummaries', [{ ...dashboard, memberId: mate.user.id }]],
      ['getOrganizationDashboardMemberSummaries', [{ userId: 'current', ...dashboard, memberId: mate.user.id }]],
    ] as const) {
      const s = await call<Data<{ languages: { name: string }[]; projects: unknown[] }[]>>(name, ...args);
      const days = s.data.filter((d) => d.languages.length > 0);
      expect(days.map((d) => [d.languages.map((l) => l.name), d.projects])).toEqual([[['Go'], []]]);
      expect(JSON.stringify(s)).not.toContain('mate-secret');
    }
    // When in the day a mate codes is not shared; one's own runs are.
    for (const [name, args] of [
      ['getMyOrganizationDashboardMemberDurations', [{ ...dashboard, memberId: me.user.id }]],
      ['getOrganizationDashboardMemberDurations', [{ userId: 'current', ...dashboard, memberId: me.user.id }]],
    ] as const) {
      expect((await call<Data<{ project: string }[]>>(name, ...args)).data.map((d) => d.project)).toEqual(['engine']);
    }
    await expect(client.getMyOrganizationDashboardMemberDurations({ ...dashboard, memberId: mate.user.id } as never)).rejects.toMatchObject({ response: { status: 403 } });

    const methods = Object.getOwnPropertyNames(WakaTimeClient.prototype).filter((name) => name !== 'constructor');
    expect(methods.filter((name) => !called.has(name))).toEqual([]);
  });
});
