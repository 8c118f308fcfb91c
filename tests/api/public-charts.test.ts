import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { call, daysFromToday, newUser } from '../helpers/api';
import { getChart } from '../helpers/public';

const allShared = { profile_public: true, share_languages: true, share_editors: true };
const b = (language: string, time: number, hour: number, date: string, ide_name = 'vscode') => ({ language, time, hour, date, ide_name });

async function publicUserWith(activities: unknown[], settings: Record<string, boolean> = allShared, timezone = 'UTC') {
  const u = await newUser({ settings, timezone });
  if (activities.length) expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
  return u;
}

describe('per-user charts', () => {
  it('time: zero-filled days, capped hours, totals, and the editors', async () => {
    const { user } = await publicUserWith([
      b('TypeScript', 3000, 10, '2026-05-04'),
      b('Go', 2400, 10, '2026-05-04', 'vim'), // the same hour in a second editor: capped at 3600 s
      b('TypeScript', 600, 11, '2026-05-04'),
      b('Rust', 120, 9, '2026-05-06', 'vim'),
    ]);
    const res = await getChart('time', `user=${user.handle}&from=2026-05-03&to=2026-05-07`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ scope: 'user', user: { id: user.id, handle: user.handle, display_name: user.display_name }, range: { name: 'custom', from: '2026-05-03', to: '2026-05-07' } });
    expect(body.days).toEqual([
      { date: '2026-05-03', seconds: 0 },
      { date: '2026-05-04', seconds: 4200 },
      { date: '2026-05-05', seconds: 0 },
      { date: '2026-05-06', seconds: 120 },
      { date: '2026-05-07', seconds: 0 },
    ]);
    expect(body.total_seconds).toBe(4320);
    expect(body.daily_average_seconds).toBe(864);
    // vscode: 3000 * 3600/5400 + 600 = 2600; vim: 2400 * 3600/5400 + 120 = 1720 (under their canonical names)
    expect(body.editors).toEqual([
      { name: 'VS Code', seconds: 2600, percent: 60.2 },
      { name: 'Vim', seconds: 1720, percent: 39.8 },
    ]);
    expect(Object.keys(body.user).sort()).toEqual(['display_name', 'handle', 'id']);
  });

  it('language: capped per hour in proportion, largest first, by handle or UUID', async () => {
    const { user } = await publicUserWith([b('TypeScript', 3000, 10, '2026-05-04'), b('Go', 2400, 10, '2026-05-04', 'vim'), b('TypeScript', 600, 11, '2026-05-04')]);
    for (const ref of [user.handle.toUpperCase(), user.id]) {
      const body = await (await getChart('language', `user=${ref}&from=2026-05-04&to=2026-05-04`)).json();
      expect(body.languages).toEqual([
        { name: 'TypeScript', seconds: 2600, percent: 61.9 },
        { name: 'Go', seconds: 1600, percent: 38.1 },
      ]);
      expect(body.total_seconds).toBe(4200);
    }
  });

  it('hitmaps: levels by the busiest day and a Monday-first weekday x hour grid', async () => {
    const { user } = await publicUserWith([b('Go', 3600, 10, '2026-05-04'), b('Go', 900, 22, '2026-05-10')]);
    const body = await (await getChart('hitmaps', `user=${user.handle}&from=2026-05-04&to=2026-05-10`)).json();
    expect(body.max_seconds).toBe(3600);
    expect(body.days[0]).toEqual({ date: '2026-05-04', seconds: 3600, level: 4 });
    expect(body.days[6]).toEqual({ date: '2026-05-10', seconds: 900, level: 1 });
    expect(body.days[1].level).toBe(0);
    expect(body.weekday_hours).toHaveLength(7);
    expect(body.weekday_hours[0][10]).toBe(3600); // Monday 10:00
    expect(body.weekday_hours[6][22]).toBe(900); // Sunday 22:00
    expect(body.weekday_hours.flat().reduce((a: number, x: number) => a + x, 0)).toBe(4500);
  });

  it('weekly: ISO weeks oldest first, the current week last, change of the last complete week', async () => {
    const today = daysFromToday(0);
    const monday = (() => {
      const d = new Date(`${today}T00:00:00Z`);
      return new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    })();
    const weekAgo = (n: number) => new Date(Date.parse(`${monday}T00:00:00Z`) - n * 7 * 86_400_000).toISOString().slice(0, 10);
    const { user } = await publicUserWith([b('Go', 1000, 9, weekAgo(2)), b('Rust', 1500, 9, weekAgo(1)), b('Go', 100, 10, weekAgo(1)), b('C', 60, 8, today)]);
    const body = await (await getChart('weekly', `user=${user.handle}&weeks=4`)).json();
    expect(body.weeks.map((w: { week_start: string }) => w.week_start)).toEqual([weekAgo(3), weekAgo(2), weekAgo(1), monday]);
    expect(body.weeks.map((w: { seconds: number }) => w.seconds)).toEqual([0, 1000, 1600, 60]);
    expect(body.weeks.map((w: { top_language: string | null }) => w.top_language)).toEqual([null, 'Go', 'Rust', 'C']);
    expect(body.change_percent).toBe(60);
  });

  it('answers 404 for a private profile exactly as for an unknown user', async () => {
    const { user } = await publicUserWith([b('Go', 100, 1, '2026-05-04')], { profile_public: false, share_languages: true });
    for (const chart of ['time', 'language', 'hitmaps', 'weekly'] as const) {
      const priv = await getChart(chart, `user=${user.handle}`);
      const unknown = await getChart(chart, 'user=nobody-here');
      expect(priv.status).toBe(404);
      expect(unknown.status).toBe(404);
      expect(await priv.json()).toEqual(await unknown.json());
      expect(priv.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('shows unshared languages and editors as empty lists', async () => {
    const { user } = await publicUserWith([b('Go', 100, 1, '2026-05-04')], { profile_public: true });
    const time = await (await getChart('time', `user=${user.handle}&from=2026-05-04&to=2026-05-04`)).json();
    expect(time.total_seconds).toBe(100);
    expect(time.editors).toEqual([]);
    const lang = await (await getChart('language', `user=${user.handle}&from=2026-05-04&to=2026-05-04`)).json();
    expect(lang.languages).toEqual([]);
    const weekly = await (await getChart('weekly', `user=${user.handle}`)).json();
    expect(weekly.weeks.every((w: { top_language: unknown }) => w.top_language === null)).toBe(true);
  });

  it('shows a write at once, and revalidates with ETag and 304', async () => {
    const { user, token } = await publicUserWith([b('Go', 100, 1, '2026-05-04')]);
    const q = `user=${user.handle}&from=2026-05-04&to=2026-05-04`;
    const first = await getChart('time', q);
    expect(first.headers.get('cache-control')).toMatch(/public.*s-maxage=\d+.*stale-while-revalidate=\d+/);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const etag = first.headers.get('etag')!;
    expect((await getChart('time', q, { 'if-none-match': etag })).status).toBe(304);
    await call(postBatch, '/sync/activities', { token, body: { activities: [b('Go', 50, 2, '2026-05-04')] } });
    const after = await getChart('time', q, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect((await after.json()).total_seconds).toBe(150);
  });

  it.each([
    ['range=2w', 'range'],
    ['from=2026-01-01', 'to'],
    ['from=2025-01-01&to=2026-06-01', 'to'],
    ['user=', 'user'],
  ])('answers 400 invalid_query for %s', async (query, path) => {
    const res = await getChart('time', query);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('invalid_query');
    expect(body.errors[0].path).toBe(path);
  });

  it('answers 400 for weeks out of 1-104', async () => {
    expect((await getChart('weekly', 'weeks=0')).status).toBe(400);
    expect((await getChart('weekly', 'weeks=105')).status).toBe(400);
  });
});
