import { beforeAll, describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { resetConfig } from '@/lib/config';
import { call, newUser } from '../helpers/api';
import { getChart } from '../helpers/public';

// Site-wide figures: only community members, and only entries resting on PUBLIC_MIN_USERS (3).
const day = '2026-06-01';
const range = `from=${day}&to=${day}`;
const b = (language: string, time: number, ide_name = 'vscode') => ({ language, time, hour: 12, date: day, ide_name });

async function member(activities: unknown[], community = true) {
  const u = await newUser({ settings: { community_stats: community } });
  expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
  return u;
}

// Exact figures: noise and rounding off here (tests/api/community-privacy.test.ts covers them).
beforeAll(() => {
  process.env.PUBLIC_NOISE_SECONDS = '0';
  resetConfig();
});

describe('site-wide charts', () => {
  it('withhold the whole answer while fewer than 3 users are behind it, and never count those who opted out', async () => {
    await member([b('Go', 100)]);
    await member([b('Go', 100)]);
    await member([b('Go', 5000 > 3600 ? 3600 : 0)], false); // opted out: never counted
    const lang = await (await getChart('language', range)).json();
    expect(lang).toMatchObject({ scope: 'global', user: null, suppressed: true, languages: [], total_seconds: 0 });
    const time = await (await getChart('time', range)).json();
    expect(time).toMatchObject({ suppressed: true, total_seconds: 0, editors: [] });
    expect(time.days).toEqual([{ date: day, seconds: 0 }]);

    await member([b('Go', 100), b('Zig', 3000, 'emacs')]);
    const open = await (await getChart('language', range)).json();
    expect(open.suppressed).toBe(false);
    // Zig and emacs rest on one user: left out. Go rests on three community members.
    expect(open.languages).toEqual([{ name: 'Go', seconds: 300, percent: 100 }]);
    const time2 = await (await getChart('time', range)).json();
    expect(time2.editors).toEqual([{ name: 'VS Code', seconds: 300, percent: 100 }]);
    expect(time2.days).toEqual([{ date: day, seconds: 3300 }]);
    const hit = await (await getChart('hitmaps', range)).json();
    expect(hit.weekday_hours[0][12]).toBe(3300); // 2026-06-01 is a Monday
  });

  it('are cached for PUBLIC_CACHE_SECONDS', async () => {
    process.env.PUBLIC_CACHE_SECONDS = '300';
    resetConfig();
    try {
      const q = 'from=2026-06-02&to=2026-06-02';
      const before = await (await getChart('time', q)).json();
      const res = await getChart('time', q);
      expect(res.headers.get('cache-control')).toContain('s-maxage=300');
      for (let i = 0; i < 3; i++) await member([{ language: 'Go', time: 100, hour: 1, date: '2026-06-02' }]);
      // Three new members on that day: the cached answer stands until it expires.
      expect(await (await getChart('time', q)).json()).toEqual(before);
    } finally {
      process.env.PUBLIC_CACHE_SECONDS = '0';
      resetConfig();
    }
    // Another question is computed afresh and sees them.
    expect((await (await getChart('time', 'from=2026-06-01&to=2026-06-02')).json()).days[1].seconds).toBe(300);
  });
});
