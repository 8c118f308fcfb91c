import { describe, expect, it } from 'vitest';
import { GET as getStats } from '@/app/api/wakatime/v1/users/[user]/stats/route';
import { GET as getRangedStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { issueToken } from '@/lib/accounts/tokens';
import { updateAccount } from '@/lib/accounts/me';
import { getDb } from '@/lib/db/client';
import { newUser } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// GET users/{user}/stats[/{range}] as README cards ask for it: github-readme-stats' WakaTime card
// (no key, `?is_including_today=true`, at WakaTime's path layout /api/v1), and the README
// Actions (a key, `current`). Without a key only a public profile answers, with what its owner
// shares; the fields each tool reads are there with the types it expects.

const vimAgent = 'wakatime/13.1.0 (linux-5.15.0) python3.11 vim/9.0 vim-wakatime/9.0.1';
const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;
type Settings = { profile_public?: boolean; share_languages?: boolean; share_editors?: boolean };

/** A user in UTC with a WakaTime key (sync and stats) and 630 s of today: TypeScript 600 s, Go 30 s, in project "secret-client". */
async function coder(settings: Settings) {
  const u = await newUser({ timezone: 'UTC', settings });
  const { token: key } = await issueToken(await getDb(), u.user.id, { name: 'vim', format: 'uuid' });
  const now = Math.floor(Date.now() / 1000);
  const t = Math.max(now - 1200, Math.floor(now / 86_400) * 86_400);
  await send(key, [
    { entity: 'a.ts', time: t, language: 'TypeScript', project: 'secret-client', category: 'coding' },
    { entity: 'b.go', time: t + 600, language: 'Go', project: 'secret-client', category: 'coding' },
    { entity: 'a.ts', time: t + 630, language: 'TypeScript', project: 'secret-client', category: 'coding' },
  ]);
  return { ...u, key, t };
}

async function send(key: string, beats: unknown[], userAgent = vimAgent) {
  const request = new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
    method: 'POST',
    headers: { authorization: basic(key), 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify(beats),
  });
  const res = await postBulk(request, { params: Promise.resolve({ user: 'current' }) });
  expect(res.status).toBe(201);
}

/** A GET of the stats route at `base` (either layout), as openapi.json describes it. */
async function stats(user: string, opts: { range?: string; key?: string; headers?: Record<string, string>; base?: string } = {}) {
  const base = opts.base ?? 'http://localhost/api/v1';
  const url = `${base}/users/${user}/stats${opts.range ? `/${opts.range}` : ''}?is_including_today=true`;
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = basic(opts.key);
  const request = new Request(url, { headers });
  const params = Promise.resolve<Record<string, string>>(opts.range ? { user, range: opts.range } : { user });
  const res = await (opts.range ? getRangedStats : getStats)(request, { params });
  return expectDocumented('GET', url, res);
}

const body = async (res: Response) => (await res.json()) as { data: Record<string, unknown> & Record<'languages' | 'editors' | 'operating_systems' | 'categories' | 'projects', Record<string, unknown>[]> };

/** The field types of a duration entry, as WakaTime has them. */
function expectDuration(entry: Record<string, unknown>) {
  expect(Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, typeof v]))).toEqual({
    name: 'string',
    total_seconds: 'number',
    percent: 'number',
    digital: 'string',
    text: 'string',
    hours: 'number',
    minutes: 'number',
    seconds: 'number',
  });
  expect(Number.isInteger(entry.hours) && Number.isInteger(entry.minutes)).toBe(true);
}

describe('public stats, as github-readme-stats asks for them', () => {
  it('count an editor and a system no client named in "Other", never as "Unknown"; the owner sees "Unknown"', async () => {
    const u = await coder({ profile_public: true, share_languages: true, share_editors: true });
    // A client whose User-Agent names neither editor nor system: 300 s more of Go.
    await send(u.key, [
      { entity: 'c.go', time: u.t + 700, language: 'Go', project: 'secret-client' },
      { entity: 'c.go', time: u.t + 1000, language: 'Go', project: 'secret-client' },
    ], 'curl/8.5.0');
    const names = (list: Record<string, unknown>[]) => list.map((d) => d.name);
    const own = await body(await stats('current', { key: u.key }));
    expect([...names(own.data.editors), ...names(own.data.operating_systems)]).toContain('Unknown');
    const shown = await body(await stats(u.user.handle));
    for (const list of [shown.data.editors, shown.data.operating_systems]) {
      expect(names(list)).not.toContain('Unknown');
      expect(list.reduce((sum, d) => sum + Number(d.total_seconds), 0)).toBe(shown.data.total_seconds);
    }
    expect([...names(shown.data.editors), ...names(shown.data.operating_systems)]).toContain('Other');
  });

  it('answer a public profile by handle in any case or by id, with every field the card reads', async () => {
    const u = await coder({ profile_public: true, share_languages: true, share_editors: true });
    const res = await stats(u.user.handle.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60, stale-while-revalidate=60');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('etag')).toMatch(/^W\/"/);
    const { data } = await body(res);

    // The card: languages' name, percent, text, hours, minutes; it drops those under a minute itself.
    expect(data.languages.map((l) => [l.name, l.total_seconds, l.hours, l.minutes, l.text])).toEqual([
      ['TypeScript', 600, 0, 10, '10 mins'],
      ['Go', 30, 0, 0, '30 secs'],
    ]);
    expect(data.languages[0].percent).toBeCloseTo((600 / 630) * 100, 1);
    data.languages.forEach(expectDuration);
    for (const list of ['editors', 'operating_systems', 'categories'] as const) {
      expect(data[list].length, list).toBeGreaterThan(0);
      data[list].forEach(expectDuration);
    }
    expect(data.editors.map((e) => e.name)).toEqual(['Vim']);
    expect(data.operating_systems.map((e) => e.name)).toEqual(['Linux']);
    expect(data.categories.map((e) => e.name)).toEqual(['Coding']);
    // A project's name never shows publicly.
    expect(data.projects).toEqual([]);
    expect(JSON.stringify(data)).not.toContain('secret-client');

    expect(data).toMatchObject({
      range: 'last_7_days',
      human_readable_range: 'Last 7 Days',
      total_seconds: 630,
      human_readable_total: '10 mins',
      // WakaTime's definition: over the days with coding time (one of the seven here), the rest holidays.
      daily_average: 630,
      human_readable_daily_average: '10 mins',
      days_including_holidays: 7,
      days_minus_holidays: 1,
      holidays: 6,
      username: u.user.handle,
      user_id: u.user.id,
      status: 'ok',
      is_up_to_date: true,
      is_including_today: true,
      is_coding_activity_visible: true,
      is_other_usage_visible: true,
      is_language_usage_visible: true,
      is_editor_usage_visible: true,
      is_os_usage_visible: true,
      is_category_usage_visible: true,
    });
    // As WakaTime writes them (waka-readme parses exactly this format); no timezone in public.
    expect(data.start).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
    expect(data.end).toMatch(/^\d{4}-\d{2}-\d{2}T23:59:59Z$/);
    expect(data).not.toHaveProperty('timezone');

    // By id, at the other layout, and over another range: the same figures.
    const byId = await body(await stats(u.user.id, { range: 'all_time', base: 'http://localhost/api/wakatime/v1' }));
    expect(byId.data).toMatchObject({ range: 'all_time', total_seconds: 630, username: u.user.handle });
    // The ETag spares the body when nothing changed.
    const again = await stats(u.user.handle, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  // Who may read what without a key: (owner's settings) -> (status, lists present, flags).
  const matrix: [string, Settings, 200 | 404, { languages: boolean; other: boolean }?][] = [
    ['private, sharing everything', { profile_public: false, share_languages: true, share_editors: true }, 404],
    ['public, sharing nothing', { profile_public: true, share_languages: false, share_editors: false }, 200, { languages: false, other: false }],
    ['public, languages only', { profile_public: true, share_languages: true, share_editors: false }, 200, { languages: true, other: false }],
    ['public, editors only', { profile_public: true, share_languages: false, share_editors: true }, 200, { languages: false, other: true }],
  ];
  it.each(matrix)('%s', async (_name, settings, status, shown) => {
    const u = await coder(settings);
    const res = await stats(u.user.handle);
    expect(res.status).toBe(status);
    if (status === 404) {
      // WakaTime's error shape, readable from any origin; the card shows "user not found".
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({ error: 'No public profile with that handle or id.' });
      return;
    }
    const { data } = await body(res);
    expect(data.total_seconds).toBe(630);
    expect(data.is_coding_activity_visible).toBe(true);
    expect(data.languages.length > 0).toBe(shown!.languages);
    expect(data.is_language_usage_visible).toBe(shown!.languages);
    for (const list of ['editors', 'operating_systems', 'categories'] as const) expect(data[list].length > 0, list).toBe(shown!.other);
    expect([data.is_editor_usage_visible, data.is_os_usage_visible, data.is_category_usage_visible]).toEqual([shown!.other, shown!.other, shown!.other]);
    expect(data.is_other_usage_visible).toBe(shown!.languages && shown!.other);
    expect(data.projects).toEqual([]);
  });

  it('answer an unknown user, an unknown range and `current` without a key in WakaTime\'s shape', async () => {
    const unknown = await stats('nobody-at-all');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'No public profile with that handle or id.' });
    const u = await coder({ profile_public: true, share_languages: true });
    const badRange = await stats(u.user.handle, { range: 'forever' });
    expect(badRange.status).toBe(404);
    expect(await badRange.json()).toEqual({ error: expect.stringMatching(/^No such stats range/) });
    const current = await stats('current');
    expect(current.status).toBe(401);
    expect(await current.json()).toEqual({ error: expect.any(String) });
  });

  it('follow the owner\'s writes and settings at once', async () => {
    const u = await coder({ profile_public: true, share_languages: true, share_editors: true });
    expect((await body(await stats(u.user.handle))).data.total_seconds).toBe(630);
    await send(u.key, [{ entity: 'a.ts', time: u.t + 700, language: 'TypeScript' }, { entity: 'a.ts', time: u.t + 760, language: 'TypeScript' }]);
    // 70 s more credited to the last TypeScript heartbeat, 60 s to the next.
    expect((await body(await stats(u.user.handle))).data.total_seconds).toBe(760);
    await updateAccount(await getDb(), u.user.id, { settings: { share_languages: false } });
    const unshared = (await body(await stats(u.user.handle))).data;
    expect([unshared.languages, unshared.is_language_usage_visible]).toEqual([[], false]);
    await updateAccount(await getDb(), u.user.id, { settings: { profile_public: false } });
    expect((await stats(u.user.handle)).status).toBe(404);
  });
});

describe('stats with a key, as the README Actions ask for them', () => {
  it('answer the owner\'s own figures whole, private ones included, never cached by others', async () => {
    const u = await coder({ profile_public: false });
    for (const [user, range] of [['current', 'last_7_days'], [u.user.handle, undefined], [u.user.id, 'last_30_days']] as const) {
      const res = await stats(user, { key: u.key, range });
      expect(res.status, user).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const { data } = await body(res);
      expect(data.projects.map((p) => [p.name, p.total_seconds])).toEqual([['secret-client', 630]]);
      expect(data.languages.map((l) => l.name)).toEqual(['TypeScript', 'Go']);
      expect(data).toMatchObject({ timezone: 'UTC', total_seconds: 630, is_other_usage_visible: true, range: range ?? 'last_7_days' });
      // waka-readme's SHOW_MASKED_TIME, metrics' "other languages".
      expect(data).toMatchObject({ human_readable_total_including_other_language: '10 mins', total_seconds_including_other_language: 630, daily_average_including_other_language: data.daily_average });
    }
    // The key as ?api_key= (lowlighter/metrics, waka-readme-stats) reads the same.
    const url = `http://localhost/api/v1/users/current/stats/last_7_days?api_key=${u.key}`;
    const viaQuery = await expectDocumented('GET', url, await getRangedStats(new Request(url), { params: Promise.resolve({ user: 'current', range: 'last_7_days' }) }));
    expect(viaQuery.status).toBe(200);
  });

  it("refuse a bad key; a key naming another user gets that user's public answer, as without a key", async () => {
    const owner = await coder({ profile_public: true, share_languages: true });
    const other = await coder({ profile_public: true, share_languages: true });
    const bad = await stats('current', { key: '00000000-0000-4000-8000-000000000000' });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: expect.any(String) });
    const foreign = await stats(other.user.handle, { key: owner.key });
    expect(foreign.status).toBe(200);
    const seen = await body(foreign);
    expect(seen).toEqual(await body(await stats(other.user.handle)));
    expect(seen.data.projects).toEqual([]);
    expect(JSON.stringify(seen)).not.toContain('secret-client');
  });
});
