import { describe, expect, inject, it } from 'vitest';

// wakatime-cli, simulated against the production build: its User-Agent, Basic auth with the key,
// bulk requests of 25 (its batch), the offline queue sending again what it already sent and
// older heartbeats it kept, then the status bar as `wakatime-cli --today` asks for it.
const base = inject('baseUrl');
const waka = `${base}/api/wakatime/v1`;
const userAgent = 'wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';

async function wakaUser(settings: Record<string, boolean> = {}) {
  const res = await fetch(`${base}/main/api/v1/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle: `cli${Math.random().toString(36).slice(2, 10)}`, token: { format: 'uuid' }, settings }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { user: { id: string; handle: string }; token: string };
}

const send = (key: string, beats: unknown[]) =>
  fetch(`${waka}/users/current/heartbeats.bulk`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify(beats),
  });

describe('wakatime-cli against the server', () => {
  it('sends bulks of 25 and resends its offline queue; the status bar counts every minute once', async () => {
    const { token: key } = await wakaUser();
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const now = Math.floor(Date.now() / 1000);
    // 25 heartbeats a minute apart, all today (UTC, the user's timezone): 24 minutes.
    const start = Math.max(now - 1800, Math.floor(now / 86_400) * 86_400);
    const today = Array.from({ length: 25 }, (_, i) => ({
      entity: `/home/dev/project/src/file${i % 3}.ts`,
      type: 'file',
      time: start + i * 60 + 0.123,
      category: 'coding',
      project: 'project',
      language: 'TypeScript',
      branch: 'main',
      lineno: i,
      is_write: i % 5 === 0,
    }));
    const first = await send(key, today);
    expect(first.status).toBe(201);
    expect((await first.json()).responses).toHaveLength(25);

    // The offline queue: the same heartbeats again, and ten from two days ago.
    const older = Array.from({ length: 10 }, (_, i) => ({ entity: '/home/dev/old.go', type: 'file', time: now - 2 * 86_400 + i * 30, language: 'Go', project: 'old' }));
    const again = await send(key, [...today.slice(10), ...older, ...today.slice(0, 10)]);
    expect(again.status).toBe(201);
    expect((await again.json()).responses.every((r: [unknown, number]) => r[1] === 201)).toBe(true);

    const bar = await fetch(`${waka}/users/current/statusbar/today?api_key=${key}`, { headers: { 'user-agent': userAgent } });
    expect(bar.status).toBe(200);
    // A write and a read of the WakaTime routes carry the same headers of the site.
    const siteHeaders = (res: Response) =>
      Object.fromEntries(['x-content-type-options', 'referrer-policy', 'content-security-policy', 'x-frame-options'].map((h) => [h, res.headers.get(h)]));
    expect(siteHeaders(again)).toEqual(siteHeaders(bar));
    expect(siteHeaders(again)['x-content-type-options']).toBe('nosniff');
    const { data } = await bar.json();
    expect(data.grand_total).toMatchObject({ total_seconds: 24 * 60, text: '24 mins' });
    expect(data.editors[0]).toMatchObject({ name: 'VS Code', total_seconds: 24 * 60 });
    expect(data.languages[0]).toMatchObject({ name: 'TypeScript' });
    expect(data.categories).toEqual([expect.objectContaining({ name: 'Coding', total_seconds: 24 * 60 })]);
  });

  it('answers a wrong key in WakaTime\'s shape, and a method it does not take with 405 and Allow', async () => {
    const wrong = await send('0b7c0a4e-2222-4333-8444-555566667777', [{ entity: 'x', time: Date.now() / 1000 }]);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: expect.any(String) });
    const put = await fetch(`${waka}/users/current/heartbeats.bulk`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('shows heartbeats at once on the public profile and chart that were served from the cache before', async () => {
    const { token: key, user } = await wakaUser({ profile_public: true, share_languages: true });
    const page = async () => {
      const res = await fetch(`${base}/u/${user.handle}`);
      return { cache: res.headers.get('x-nextjs-cache'), html: await res.text() };
    };
    const chart = async () => ((await (await fetch(`${base}/main/api/v1/get/public/language?user=${user.handle}&range=7d`)).json()) as { total_seconds: number }).total_seconds;
    await page();
    // Behind a transaction pooler no change is received, and the page cache caches nothing
    // (lib/cache/clock.ts): every page is rendered afresh (docs/running.md, DATABASE_POOLER).
    expect((await page()).cache).toBe(inject('serverDataDir') ? 'HIT' : 'MISS');
    expect(await chart()).toBe(0);
    const t = Math.floor(Date.now() / 1000) - 1800;
    const beats = Array.from({ length: 6 }, (_, i) => ({ entity: '/src/main.zig', type: 'file', time: t + i * 60, language: 'Zig', project: 'cached' }));
    expect((await send(key, beats)).status).toBe(201);
    const after = await page();
    expect(after.cache).not.toBe('HIT');
    expect(after.html).toContain('5 mins');
    expect(await chart()).toBe(300);
  });

  it("answers Wakapi's, oh-my-posh's and wakatime-cli's other requests at every base; an unknown path is a JSON 404, never a page", async () => {
    const { token: key } = await wakaUser();
    const now = Math.floor(Date.now() / 1000);
    const t = Math.max(now - 900, Math.floor(now / 86_400) * 86_400);
    expect((await send(key, [0, 300].map((s) => ({ entity: '/src/x.py', type: 'file', time: t + s, language: 'Python', project: 'px', is_write: s === 0 })))).status).toBe(201);
    // Wakapi's key form, at Wakapi's base and at its layout of WakaTime's routes.
    const bearer = { authorization: `Bearer ${Buffer.from(key).toString('base64')}` };
    const summaries = await fetch(`${base}/api/compat/wakatime/v1/users/current/summaries?start=today&end=today`, { headers: bearer });
    expect(summaries.status).toBe(200);
    const body = await summaries.json();
    expect([body.cumulative_total.seconds, body.cummulative_total.seconds]).toEqual([300, 300]);
    const year = new Date().toISOString().slice(0, 4);
    const stats = await fetch(`${base}/api/users/current/stats/${year}?language=python`, { headers: bearer });
    expect(stats.status).toBe(200);
    expect((await stats.json()).data).toMatchObject({ range: year, total_seconds: 300 });
    const errors = await fetch(`${base}/api/users/current/plugins/errors`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json', 'user-agent': userAgent }, body: '{"message":"boom"}' });
    expect([errors.status, await errors.json()]).toEqual([201, {}]);
    for (const path of ['/api/wakatime/v1/nothing', '/api/v1/users/current/nothing', '/api/compat/wakatime/v1/nothing/here', '/api/users/current/nothing']) {
      const res = await fetch(`${base}${path}`, { headers: bearer });
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 404, expect.stringMatching(/^application\/json/)]);
      expect(Object.keys(await res.json())).toEqual(['error']);
    }
  });

  it('takes heartbeats at every path plugins send to: by handle, one at a time, and the older paths; another user\'s is refused', async () => {
    const { token: key, user } = await wakaUser();
    const { user: other } = await wakaUser();
    const headers = { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json', 'user-agent': userAgent };
    const post = (path: string, body: unknown) => fetch(`${waka}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const t = Math.floor(Date.now() / 1000) - 3600;
    const beat = (i: number) => ({ entity: '/src/a.rs', type: 'file', time: t + i * 60, language: 'Rust', project: 'paths' });
    expect((await post(`/users/${user.handle}/heartbeats`, beat(0))).status).toBe(201);
    expect((await post(`/users/${user.id}/heartbeats.bulk`, [beat(1)])).status).toBe(201);
    expect((await post('/heartbeats', beat(2))).status).toBe(201);
    expect((await post('/heartbeats.bulk', [beat(3)])).status).toBe(201);
    const refused = await post(`/users/${other.id}/heartbeats.bulk`, [beat(4)]);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: expect.any(String) });
    const stats = (await (await fetch(`${waka}/users/current/stats/last_7_days?api_key=${key}`)).json()) as { data: { projects: { name: string; total_seconds: number }[] } };
    // Four heartbeats a minute apart: three minutes.
    expect(stats.data.projects.find((p) => p.name === 'paths')?.total_seconds).toBe(180);
  });
});
