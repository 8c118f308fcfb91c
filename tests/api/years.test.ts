import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as getYear } from '@/app/main/api/v1/me/years/[year]/route';
import { POST as postImport } from '@/app/main/api/v1/me/imports/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { GET as getCard } from '@/app/u/[handle]/year/[year]/card.png/route';
import { cacheTally } from '@/lib/metrics/tally';
import { updateAccount } from '@/lib/accounts/me';
import { resetConfig } from '@/lib/config';
import { getDb, rows } from '@/lib/db/client';
import { localDateHour } from '@/lib/local-time';
import { refreshCommunity } from '@/lib/stats/community';
import { publicYear } from '@/lib/stats/year';
import { storeHeartbeats } from '@/lib/wakatime/sending/heartbeat-store';
import { importsSettled } from '@/lib/wakatime/importing/import-queue';
import type { Heartbeat } from '@/lib/wakatime/sending/heartbeat';
import { call, newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// The year in code (GET /me/years/{year}) against years of known buckets, heartbeats and an
// imported dump, through the route handler; its public page's figures and share image behind the
// sharing gate, setting by setting.

type Bucket = { date: string; hour: number; language: string; time: number; project_name?: string; ide_name?: string; category?: string; ai_agent?: string; ai_lines?: number; human_lines?: number };

beforeAll(() => {
  // Site-wide figures exactly as counted, so the percentile can be worked out by hand.
  process.env.PUBLIC_NOISE_SECONDS = '0';
  resetConfig();
});

async function owner(timezone = 'UTC') {
  const u = await newUser({ timezone });
  return { ...u, stats: await tokenWithScopes(u.user.id, ['stats']) };
}

async function send(token: string, activities: Bucket[]) {
  const res = await call(postBatch, '/sync/activities', { token, body: { activities } });
  expect(res.status).toBe(200);
  expect((await res.json()).rejected).toEqual([]);
}

async function read(year: string, token?: string) {
  const url = `http://localhost/main/api/v1/me/years/${year}`;
  const request = new Request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return expectDocumented('GET', url, await getYear(request, { params: Promise.resolve({ year }) }));
}

const yearOf = async (token: string, year: string) => {
  const res = await read(year, token);
  expect(res.status).toBe(200);
  return res.json();
};

// 2025-01-01 is a Wednesday, 2025-03-10 a Monday, 2025-03-12 a Wednesday.
const history: Bucket[] = [
  { date: '2024-12-31', hour: 23, language: 'Go', time: 1200, project_name: 'api', ide_name: 'vim' }, // the year before
  { date: '2025-01-01', hour: 9, language: 'Go', time: 3600, project_name: 'api', ide_name: 'vim' },
  { date: '2025-01-02', hour: 9, language: 'Go', time: 1800, project_name: 'api', ide_name: 'vim' },
  { date: '2025-01-02', hour: 9, language: 'Rust', time: 1800, project_name: 'engine', ide_name: 'vscode' },
  { date: '2025-01-03', hour: 22, language: 'Go', time: 600, project_name: 'api', ide_name: 'vim', category: 'debugging' },
  { date: '2025-03-10', hour: 14, language: 'TypeScript', time: 3600, project_name: 'web', ide_name: 'vscode', ai_agent: 'Claude', ai_lines: 40, human_lines: 10 },
  { date: '2025-03-10', hour: 15, language: 'TypeScript', time: 2400, project_name: 'web', ide_name: 'vscode' },
  { date: '2025-03-10', hour: 15, language: 'Python', time: 2400, project_name: 'web', ide_name: 'vscode' }, // hour 15 holds 4800 s: capped to 3600
  { date: '2025-03-12', hour: 8, language: 'Go', time: 300, project_name: 'api', ide_name: 'vim' },
  { date: '2026-01-01', hour: 0, language: 'Go', time: 600, project_name: 'api', ide_name: 'vim' }, // the year after
];

describe('GET /me/years/{year}', () => {
  it('sums a known year by hand: totals, streak, busiest day and hour, weekdays, months, tops, AI', async () => {
    const u = await owner('Europe/Berlin');
    await send(u.token, history);
    const res = await read('2025', u.stats);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const body = await res.json();
    // 3600 + 3600 + 600 + (3600 + 3600) + 300
    const total = 15_300;
    const pct = (s: number) => Math.round((s / total) * 1000) / 10;
    expect(body).toEqual({
      year: 2025,
      total_seconds: total,
      days_coded: 5,
      daily_average: 3060,
      longest_streak: { days: 3, start: '2025-01-01', end: '2025-01-03' },
      busiest_day: { date: '2025-03-10', total_seconds: 7200 },
      busiest_hour: 9,
      // Monday 10 March; Wednesday 1 January and 12 March; Thursday 2 and Friday 3 January.
      by_weekday: [7200, 0, 3600 + 300, 3600, 600, 0, 0],
      by_month: [7800, 0, 7500, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      top_languages: [
        { name: 'Go', total_seconds: 6300, percent: pct(6300) },
        { name: 'TypeScript', total_seconds: 5400, percent: pct(5400) },
        { name: 'Python', total_seconds: 1800, percent: pct(1800) },
        { name: 'Rust', total_seconds: 1800, percent: pct(1800) },
      ],
      top_projects: [
        { name: 'web', total_seconds: 7200, percent: pct(7200) },
        { name: 'api', total_seconds: 6300, percent: pct(6300) },
        { name: 'engine', total_seconds: 1800, percent: pct(1800) },
      ],
      top_editors: [
        { name: 'VS Code', total_seconds: 9000, percent: pct(9000) },
        { name: 'Vim', total_seconds: 6300, percent: pct(6300) },
      ],
      top_categories: [
        { name: 'Coding', total_seconds: 14_700, percent: pct(14_700) },
        { name: 'Debugging', total_seconds: 600, percent: pct(600) },
      ],
      ai: { seconds: 3600, share: Math.round((3600 / total) * 1000) / 1000, additions: 40, human_additions: 10 },
      percentile: null,
    });
  });

  it('answers a past year without time with empty figures, and a year not begun with 404', async () => {
    const u = await owner('Pacific/Kiritimati');
    const body = await yearOf(u.stats, '1999');
    expect(body).toMatchObject({ total_seconds: 0, days_coded: 0, daily_average: 0, longest_streak: { days: 0, start: null, end: null }, busiest_day: null, busiest_hour: null, ai: null, percentile: null });
    expect(body.by_month).toEqual(Array(12).fill(0));
    expect(body.top_languages).toEqual([]);
    const next = Number(localDateHour('Pacific/Kiritimati').date.slice(0, 4)) + 1;
    const res = await read(String(next), u.stats);
    expect(res.status).toBe(404);
  });

  it('counts the busiest hour in the owner\'s timezone, from heartbeats', async () => {
    const zone = 'Asia/Kolkata'; // UTC+05:30
    const u = await owner(zone);
    // Three days ago at 20:00 UTC: 01:30 the next day in Kolkata.
    const start = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 3, 20);
    const beat = (at: number, digest: number): Heartbeat => ({ at, type: 'file', digest, category: 'coding', language: 'Go', project: 'api', editor: 'Vim', os: 'Linux', app: '', machine: '', agent: '', aiLines: 0, humanLines: 0 });
    await storeHeartbeats(await getDb(), { id: u.user.id, timezone: zone }, [beat(start, 1), beat(start + 300_000, 2), beat(start + 600_000, 3)]);
    const local = localDateHour(zone, new Date(start));
    expect(local.hour).toBe(1);
    const body = await yearOf(u.stats, local.date.slice(0, 4));
    expect(body).toMatchObject({ total_seconds: 600, busiest_hour: 1, busiest_day: { date: local.date, total_seconds: 600 } });
  });

  it('includes an imported dump, a session crossing New Year in New York counted in each local year', async () => {
    const zone = 'America/New_York'; // UTC-05:00 in winter: 04:50 UTC on 1 January is 23:50 on 31 December
    const u = await newUser({ timezone: zone });
    const account = await tokenWithScopes(u.user.id, ['account']);
    const at = Date.UTC(2025, 0, 1, 4, 50) / 1000;
    const heartbeats = [0, 600, 1200, 1800].map((offset, i) => ({ id: `hb-${i}`, entity: '/src/a.go', type: 'file', category: 'coding', language: 'Go', project: 'api', time: at + offset }));
    const dump = JSON.stringify({ user: { id: 'u-1', username: 'me', timezone: zone }, range: { start: 0, end: 0 }, days: [{ date: '2025-01-01', heartbeats }] });
    const url = 'http://localhost/main/api/v1/me/imports';
    const res = await postImport(new Request(url, { method: 'POST', headers: { authorization: `Bearer ${account}`, 'content-type': 'application/json' }, body: dump }));
    expect(res.status).toBe(202);
    await importsSettled();
    // 23:50-00:00 belongs to 2024; 00:00-00:20 to 2025 (the last heartbeat credits nothing).
    expect(await yearOf(account, '2024')).toMatchObject({ total_seconds: 600, busiest_hour: 23, longest_streak: { days: 1, start: '2024-12-31', end: '2024-12-31' }, by_month: [...Array(11).fill(0), 600] });
    expect(await yearOf(account, '2025')).toMatchObject({ total_seconds: 1200, busiest_hour: 0, busiest_day: { date: '2025-01-01', total_seconds: 1200 }, top_languages: [{ name: 'Go', total_seconds: 1200, percent: 100 }] });
  });

  it('gives a percentile only once PUBLIC_MIN_USERS (3) people coded on a day of the year, from the site-wide figures', async () => {
    const date = '2023-05-02';
    const a = await owner();
    const b = await owner();
    await send(a.token, [{ date, hour: 10, language: 'Go', time: 3600 }]);
    await send(b.token, [{ date, hour: 10, language: 'Go', time: 1800 }]);
    await refreshCommunity(await getDb());
    // The site-wide cell exists but rests on two people: not published, no percentile.
    const [cell] = await rows<{ users: number }>(await getDb(), sql`SELECT users FROM community_days WHERE date = ${date}`);
    expect(cell.users).toBe(2);
    expect((await yearOf(a.stats, '2023')).percentile).toBeNull();

    const c = await owner();
    await send(c.token, [{ date, hour: 10, language: 'Go', time: 600 }]);
    await refreshCommunity(await getDb());
    // Mean a coder-day: (3600 + 1800 + 600) / 3 = 2000 s; a's day of 3600 s: 1 - e^-1.8 = 83.5 %.
    expect((await yearOf(a.stats, '2023')).percentile).toBe(83);
    expect((await yearOf(c.stats, '2023')).percentile).toBe(Math.floor(100 * (1 - Math.exp(-600 / 2000))));
    // Another year of the same people: no site-wide figure of it, no percentile.
    expect((await yearOf(a.stats, '2022')).percentile).toBeNull();
  });

  it.each([['abcd'], ['1969'], ['20250'], ['0202'], ['2025.0']])('refuses the year %s with 400 naming year', async (year) => {
    const u = await owner();
    const res = await read(year, u.stats);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('invalid_query');
    expect(body.errors[0].path).toBe('year');
  });

  it('takes an account or a stats key; refuses a sync-only key (403) and no credentials (401)', async () => {
    const u = await owner();
    expect((await read('2025', await tokenWithScopes(u.user.id, ['account']))).status).toBe(200);
    expect((await read('2025', u.stats)).status).toBe(200);
    expect((await read('2025', await tokenWithScopes(u.user.id, ['sync']))).status).toBe(403);
    expect((await read('2025')).status).toBe(401);
  });
});

describe('the public year page and its share image', () => {
  async function publicOwner(settings: Record<string, boolean>) {
    const u = await owner();
    await send(u.token, history);
    await updateAccount(await getDb(), u.user.id, { settings: { profile_public: true, ...settings } });
    return u;
  }

  const card = (handle: string, year: string) =>
    getCard(new Request(`http://localhost/u/${handle}/year/${year}/card.png`), { params: Promise.resolve({ handle, year }) });

  it('is a 404 for a private profile, an unknown user, a year without time and a year not begun, as for an unknown user', async () => {
    const db = await getDb();
    const u = await owner();
    await send(u.token, history);
    const unknown = await card('nobody-here-at-all', '2025');
    expect(unknown.status).toBe(404);
    const unknownBody = await unknown.json();
    const asked = [
      [u.user.handle, '2025'], // private
      [u.user.handle, '2030'],
    ];
    for (const [handle, year] of asked) {
      const res = await card(handle, year);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(unknownBody);
      await expect(publicYear(db, handle, year)).rejects.toMatchObject({ status: 404 });
    }
    await updateAccount(db, u.user.id, { settings: { profile_public: true } });
    for (const year of ['2019', '2030', '25', 'abcd']) {
      expect((await card(u.user.handle, year)).status).toBe(404);
      await expect(publicYear(db, u.user.handle, year)).rejects.toMatchObject({ status: 404 });
    }
    expect((await card(u.user.handle, '2025')).status).toBe(200);
  });

  it('draws a 1200 x 630 PNG', async () => {
    const u = await publicOwner({ share_languages: true });
    const res = await card(u.user.handle, '2025');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // The IHDR chunk: width and height, big-endian, at bytes 16 and 20.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  it('draws an image once per data and settings: asked again in another spelling, the same bytes from memory; private again, a 404 at once', async () => {
    const u = await publicOwner({ share_languages: true });
    const drawn = cacheTally('year-cards');
    const first = Buffer.from(await (await card(u.user.handle, '2025')).arrayBuffer());
    const misses = drawn.miss;
    const again = Buffer.from(await (await card(u.user.handle.toUpperCase(), '2025')).arrayBuffer());
    expect(again.equals(first)).toBe(true);
    expect(drawn.miss).toBe(misses);
    // A setting changed draws it anew, without what is no longer shared.
    await updateAccount(await getDb(), u.user.id, { settings: { share_languages: false } });
    expect((await card(u.user.handle, '2025')).status).toBe(200);
    expect(drawn.miss).toBe(misses + 1);
    await updateAccount(await getDb(), u.user.id, { settings: { profile_public: false } });
    expect((await card(u.user.handle, '2025')).status).toBe(404);
  });

  it.each([
    [{}, { languages: false, editors: false, ai: false }],
    [{ share_languages: true }, { languages: true, editors: false, ai: false }],
    [{ share_editors: true }, { languages: false, editors: true, ai: false }],
    [{ share_ai: true }, { languages: false, editors: false, ai: true }],
    [{ share_languages: true, share_editors: true, share_ai: true }, { languages: true, editors: true, ai: true }],
  ])('with settings %o shows %o, never projects or categories', async (settings, shown) => {
    const u = await publicOwner(settings);
    const { figures } = await publicYear(await getDb(), u.user.handle, '2025');
    // The totals are what the public profile shows anyway.
    expect(figures).toMatchObject({ total_seconds: 15_300, days_coded: 5, busiest_hour: 9, longest_streak: { days: 3 } });
    expect(figures.top_projects).toEqual([]);
    expect(figures.top_categories).toEqual([]);
    expect(figures.top_languages.map((l) => l.name)).toEqual(shown.languages ? ['Go', 'TypeScript', 'Python', 'Rust'] : []);
    expect(figures.top_editors.map((e) => e.name)).toEqual(shown.editors ? ['VS Code', 'Vim'] : []);
    expect(figures.ai).toEqual(shown.ai ? { seconds: 3600, share: Math.round((3600 / 15_300) * 1000) / 1000, additions: 40, human_additions: 10 } : null);
    // Nothing withheld is anywhere in what the page and the image are drawn from.
    const text = JSON.stringify(figures);
    for (const name of ['api', 'engine', 'web', 'Debugging']) expect(text).not.toContain(`"${name}"`);
    if (!shown.languages) for (const name of ['Go', 'Rust', 'TypeScript', 'Python']) expect(text).not.toContain(`"${name}"`);
  });

  it('names an AI agent\'s own plugin among the editors only under share_ai', async () => {
    const u = await publicOwner({ share_editors: true });
    await send(u.token, [{ date: '2025-06-01', hour: 9, language: 'Go', time: 1200, ide_name: 'Claude Code' }]);
    const hidden = (await publicYear(await getDb(), u.user.handle, '2025')).figures.top_editors.map((e) => e.name);
    expect(hidden).not.toContain('Claude Code');
    expect(hidden).toContain('Other');
    await updateAccount(await getDb(), u.user.id, { settings: { share_ai: true } });
    expect((await publicYear(await getDb(), u.user.handle, '2025')).figures.top_editors.map((e) => e.name)).toContain('Claude Code');
  });
});
