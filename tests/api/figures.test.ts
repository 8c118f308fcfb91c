import { describe, expect, it } from 'vitest';
import { GET as getInsights } from '@/app/main/api/v1/me/insights/route';
import { GET as getTimeline } from '@/app/main/api/v1/me/timeline/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { addDays } from '@/lib/dates';
import { getDb } from '@/lib/db/client';
import { heartbeats } from '@/lib/db/schema';
import { storeHeartbeats } from '@/lib/wakatime/sending/heartbeat-store';
import type { Heartbeat } from '@/lib/wakatime/sending/heartbeat';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// The owner's timeline of a day and insights over a range, read through the route handlers.

type Bucket = { date: string; hour: number; language: string; time: number; project_name?: string; ide_name?: string };

async function owner(timezone = 'UTC') {
  const u = await newUser({ timezone });
  return { ...u, stats: await tokenWithScopes(u.user.id, ['stats']) };
}

async function send(token: string, activities: Bucket[]) {
  const res = await call(postBatch, '/sync/activities', { token, body: { activities } });
  expect(res.status).toBe(200);
  expect((await res.json()).rejected).toEqual([]);
}

async function read(handler: typeof getTimeline, path: string, token?: string) {
  const url = `http://localhost/main/api/v1${path}`;
  const request = new Request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return expectDocumented('GET', url, await handler(request));
}

const timelineOf = async (token: string, date: string) => {
  const res = await read(getTimeline, `/me/timeline?date=${date}`, token);
  expect(res.status).toBe(200);
  return res.json();
};

const beat = (at: number, language: string, project: string, digest: number): Heartbeat => ({
  at,
  type: 'file',
  digest,
  category: 'coding',
  language,
  project,
  editor: 'Vim',
  os: 'Linux',
  app: '',
  machine: '',
  agent: '',
  aiLines: 0,
  humanLines: 0,
});

describe('GET /me/timeline', () => {
  it('draws buckets as whole local hours, with the offset of each moment on a spring-forward day', async () => {
    const u = await owner('America/New_York');
    // 2024-03-10: at 02:00 EST the clock jumps to 03:00 EDT; hour 1 ends when hour 3 begins.
    await send(u.token, [
      { date: '2024-03-10', hour: 1, language: 'Go', time: 1800, project_name: 'api', ide_name: 'vim' },
      { date: '2024-03-10', hour: 3, language: 'Go', time: 600, project_name: 'api', ide_name: 'vim' },
    ]);
    const body = await timelineOf(u.stats, '2024-03-10');
    expect(body).toEqual({
      date: '2024-03-10',
      timezone: 'America/New_York',
      segments: [
        { start: '2024-03-10T01:00:00-05:00', end: '2024-03-10T03:00:00-04:00', project: 'api', language: 'Go', editor: 'Vim', seconds: 1800 },
        { start: '2024-03-10T03:00:00-04:00', end: '2024-03-10T04:00:00-04:00', project: 'api', language: 'Go', editor: 'Vim', seconds: 600 },
      ],
    });
  });

  it('spans both passes of the repeated hour on a fall-back day, and caps an hour at 3600 s', async () => {
    const u = await owner('America/New_York');
    await send(u.token, [
      { date: '2024-11-03', hour: 0, language: 'Go', time: 3000 },
      { date: '2024-11-03', hour: 0, language: 'Rust', time: 3000 },
      { date: '2024-11-03', hour: 1, language: 'Go', time: 3600 },
    ]);
    const { segments } = await timelineOf(u.stats, '2024-11-03');
    expect(segments).toEqual([
      // Hour 0 holds 6000 s: each language's part is scaled to fit an hour.
      { start: '2024-11-03T00:00:00-04:00', end: '2024-11-03T01:00:00-04:00', project: null, language: 'Go', editor: null, seconds: 1800 },
      { start: '2024-11-03T00:00:00-04:00', end: '2024-11-03T01:00:00-04:00', project: null, language: 'Rust', editor: null, seconds: 1800 },
      // 01:00 happens twice: from 01:00 EDT to 02:00 EST, two real hours.
      { start: '2024-11-03T01:00:00-04:00', end: '2024-11-03T02:00:00-05:00', project: null, language: 'Go', editor: null, seconds: 3600 },
    ]);
  });

  it('draws stored heartbeats to the second across a fall-back change, and does not count their bucket again', async () => {
    const u = await owner('America/New_York');
    const db = await getDb();
    // Two heartbeats of one key, the first credited up to the second: 01:55 EDT to 01:10 EST is 15 minutes.
    const at = Date.parse('2024-11-03T05:55:00Z');
    const base = { userId: u.user.id, type: 'file', category: 'coding', language: 'Go', project: 'api', editor: 'Vim', os: 'Linux', app: '', zone: 'America/New_York' };
    await db.insert(heartbeats).values([
      { ...base, at, entityDigest: 1, creditedUntil: at + 600_000 },
      { ...base, at: at + 600_000, entityDigest: 1, creditedUntil: at + 900_000 },
      { ...base, at: at + 900_000, entityDigest: 1, creditedUntil: at + 900_000 },
    ]);
    // The same 15 minutes as the heartbeat path puts them in the buckets: local hour 1.
    await send(u.token, [{ date: '2024-11-03', hour: 1, language: 'Go', time: 900, project_name: 'api', ide_name: 'vim' }]);
    const { segments } = await timelineOf(u.stats, '2024-11-03');
    expect(segments).toEqual([{ start: '2024-11-03T01:55:00-04:00', end: '2024-11-03T01:10:00-05:00', project: 'api', language: 'Go', editor: 'Vim', seconds: 900 }]);
  });

  it('mixes heartbeats and sync buckets of one day: heartbeats exact, what buckets add beyond them as whole hours', async () => {
    const u = await owner('UTC');
    const date = daysFromToday(-1);
    const ten = Date.parse(`${date}T10:00:00Z`);
    const min = 60_000;
    await storeHeartbeats(await getDb(), { id: u.user.id, timezone: 'UTC' }, [
      beat(ten, 'Go', 'api', 1),
      beat(ten + 5 * min, 'Go', 'api', 2),
      beat(ten + 10 * min, 'Go', 'api', 3),
      beat(ten + 12 * min, 'Rust', 'api', 4),
      beat(ten + 14 * min, 'Rust', 'api', 5),
      // 40 minutes later: the gap is too long, so the 10:14 heartbeat credits nothing.
      beat(ten + 54 * min, 'Go', 'api', 6),
    ]);
    await send(u.token, [
      { date, hour: 10, language: 'Go', time: 300, project_name: 'api', ide_name: 'vim' },
      { date, hour: 14, language: 'Python', time: 1200, project_name: 'etl', ide_name: 'vim' },
    ]);
    const { segments } = await timelineOf(u.stats, date);
    expect(segments).toEqual([
      { start: `${date}T10:00:00+00:00`, end: `${date}T10:12:00+00:00`, project: 'api', language: 'Go', editor: 'Vim', seconds: 720 },
      { start: `${date}T10:00:00+00:00`, end: `${date}T11:00:00+00:00`, project: 'api', language: 'Go', editor: 'Vim', seconds: 300 },
      { start: `${date}T10:12:00+00:00`, end: `${date}T10:14:00+00:00`, project: 'api', language: 'Rust', editor: 'Vim', seconds: 120 },
      { start: `${date}T14:00:00+00:00`, end: `${date}T15:00:00+00:00`, project: 'etl', language: 'Python', editor: 'Vim', seconds: 1200 },
    ]);
    // Nothing counted twice: the segments add up to the day's total.
    const res = await read(getInsights, `/me/insights?from=${date}&to=${date}`, u.stats);
    expect((await res.json()).total_seconds).toBe(720 + 300 + 120 + 1200);
  });

  it('shows an empty day as no segments', async () => {
    const u = await owner('Asia/Kolkata');
    expect(await timelineOf(u.stats, '2024-06-01')).toEqual({ date: '2024-06-01', timezone: 'Asia/Kolkata', segments: [] });
  });

  it.each([
    ['', 'date'],
    ['?date=2024-02-30', 'date'],
    ['?date=yesterday', 'date'],
  ])('refuses %s with 400 invalid_query naming date', async (query, param) => {
    const u = await owner();
    const res = await read(getTimeline, `/me/timeline${query}`, u.stats);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('invalid_query');
    expect(body.errors[0].path).toBe(param);
  });
});

describe('GET /me/insights', () => {
  // 2024-01-01 is a Monday; the range is two whole weeks.
  const history: Bucket[] = [
    { date: '2024-01-01', hour: 9, language: 'Go', time: 3600 },
    { date: '2024-01-01', hour: 10, language: 'Go', time: 1800 },
    { date: '2024-01-02', hour: 9, language: 'Go', time: 3600 },
    { date: '2024-01-02', hour: 9, language: 'Rust', time: 1800 }, // over the cap: the hour counts 3600
    { date: '2024-01-03', hour: 22, language: 'Go', time: 600 },
    { date: '2024-01-05', hour: 9, language: 'Go', time: 1200 },
    { date: '2024-01-08', hour: 10, language: 'Go', time: 2400 },
  ];

  it('sums a known history by hand: total, average over days with time, best day, weekdays, hours, streaks', async () => {
    const u = await owner('UTC');
    await send(u.token, history);
    const res = await read(getInsights, '/me/insights?from=2024-01-01&to=2024-01-14', u.stats);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const body = await res.json();
    const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, seconds: { 9: 8400, 10: 4200, 22: 600 }[hour] ?? 0 }));
    expect(body).toEqual({
      range: { name: 'custom', from: '2024-01-01', to: '2024-01-14' },
      total_seconds: 13200,
      daily_average_seconds: 2640, // 13200 over the 5 days with time
      best_day: { date: '2024-01-01', seconds: 5400 },
      weekdays: [3900, 1800, 300, 0, 600, 0, 0].map((average_seconds, weekday) => ({ weekday, average_seconds })),
      hours,
      // 1-3 January is the longest run; nothing today or yesterday.
      streak: { current_days: 0, longest_days: 3 },
    });
  });

  it('starts range=all at the first day with data', async () => {
    const u = await owner('UTC');
    await send(u.token, history);
    const body = await (await read(getInsights, '/me/insights?range=all', u.stats)).json();
    expect(body.range).toEqual({ name: 'all', from: '2024-01-01', to: daysFromToday(0) });
    expect(body.total_seconds).toBe(13200);
  });

  it('counts the current streak to today, or to yesterday while today has no time yet', async () => {
    const u = await owner('UTC');
    const today = daysFromToday(0);
    await send(u.token, [
      { date: addDays(today, -1), hour: 9, language: 'Go', time: 60 },
      { date: addDays(today, -2), hour: 9, language: 'Go', time: 60 },
      { date: addDays(today, -4), hour: 9, language: 'Go', time: 60 },
      { date: addDays(today, -5), hour: 9, language: 'Go', time: 60 },
      { date: addDays(today, -6), hour: 9, language: 'Go', time: 60 },
    ]);
    const streak = async () => (await (await read(getInsights, '/me/insights?range=7d', u.stats)).json()).streak;
    expect(await streak()).toEqual({ current_days: 2, longest_days: 3 });
    await send(u.token, [{ date: today, hour: 0, language: 'Go', time: 60 }]);
    expect(await streak()).toEqual({ current_days: 3, longest_days: 3 });
    await send(u.token, [{ date: addDays(today, -3), hour: 0, language: 'Go', time: 60 }]);
    expect(await streak()).toEqual({ current_days: 7, longest_days: 7 });
  });

  it('answers a new user with zeros and no best day', async () => {
    const u = await owner('UTC');
    const body = await (await read(getInsights, '/me/insights', u.stats)).json();
    expect(body).toMatchObject({ total_seconds: 0, daily_average_seconds: 0, best_day: null, streak: { current_days: 0, longest_days: 0 } });
    expect(body.range.name).toBe('7d');
    expect(body.weekdays).toHaveLength(7);
    expect(body.hours).toHaveLength(24);
  });

  it.each([
    ['?range=2w', 'range'],
    ['?from=2024-01-01', 'to'],
    ['?from=2023-01-01&to=2024-01-02', 'to'],
    ['?from=2024-01-05&to=2024-01-01', 'to'],
  ])('refuses %s with 400 invalid_query naming %s', async (query, param) => {
    const u = await owner();
    const res = await read(getInsights, `/me/insights${query}`, u.stats);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect([body.code, body.errors[0].path]).toEqual(['invalid_query', param]);
  });
});

describe('who may read my figures', () => {
  it('takes a token with account or stats, refuses other scopes and no token', async () => {
    const u = await owner();
    const account = await tokenWithScopes(u.user.id, ['account']);
    for (const [handler, path] of [
      [getTimeline, '/me/timeline?date=2024-01-01'],
      [getInsights, '/me/insights?range=30d'],
    ] as const) {
      for (const token of [u.stats, account]) {
        const res = await read(handler, path, token);
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('private, no-store');
      }
      const plugin = await read(handler, path, u.token); // sync + badges
      expect(plugin.status).toBe(403);
      expect((await read(handler, path)).status).toBe(401);
    }
  });

  it('shows each owner only their own time', async () => {
    const [a, b] = [await owner(), await owner()];
    await send(a.token, [{ date: '2024-01-01', hour: 9, language: 'Go', time: 600 }]);
    expect((await timelineOf(b.stats, '2024-01-01')).segments).toEqual([]);
    expect((await timelineOf(a.stats, '2024-01-01')).segments).toHaveLength(1);
  });
});
