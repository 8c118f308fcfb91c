import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GET } from '@/app/main/api/v1/leaderboard/api/get/public/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { deleteAccount, updateAccount } from '@/lib/accounts/me';
import { resetConfig } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { languagesOnLeaderboard } from '@/lib/stats/leaderboard/pages';
import { call, daysFromToday, newUser } from '../helpers/api';
import { documented } from '../helpers/contract';

const get = (query = '') => {
  const request = new Request(`http://localhost/main/api/v1/leaderboard/api/get/public?${query}`);
  return Promise.resolve(GET(request)).then((res) => documented(request, res));
};
const today = daysFromToday(0);

async function coder(name: string, activity: [string, number][], settings: Record<string, boolean> = { leaderboard: true, share_languages: true }) {
  const u = await newUser({ handle: name, settings });
  // One hour per 3000 s, so nothing is capped.
  let hour = 0;
  const activities = activity.flatMap(([language, time]) =>
    Array.from({ length: Math.ceil(time / 3000) }, (_, i) => ({ language, time: Math.min(3000, time - i * 3000), hour: hour++, date: today })),
  );
  expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
  return u;
}

describe('GET /leaderboard/api/get/public', () => {
  it('ranks opted-in users only, ties share a rank, and pages', async () => {
    await coder('lb-ann', [['Go', 3000], ['Rust', 1000]]);
    const bob = await coder('lb-bob', [['Go', 2000]]);
    const cat = await coder('lb-cat', [['Python', 2000]], { leaderboard: true, share_languages: false });
    // Ties share a rank and are ordered by user id, the same on every page.
    const tied = [bob, cat].sort((a, b) => (a.user.id < b.user.id ? -1 : 1)).map((u) => u.user.handle);
    await coder('lb-dan', [['Go', 500]]);
    await coder('lb-eve', [['Go', 9000]], { leaderboard: false, share_languages: true, profile_public: true });

    const res = await get('range=7d');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ language: null, page: 1, limit: 50, total: 4, range: { name: '7d', to: today } });
    expect(Date.parse(body.generated_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.entries.map((e: { rank: number; user: { handle: string } }) => [e.rank, e.user.handle])).toEqual([
      [1, 'lb-ann'],
      [2, tied[0]],
      [2, tied[1]],
      [4, 'lb-dan'],
    ]);
    expect(body.entries[0]).toMatchObject({ total_seconds: 4000, daily_average_seconds: 571, languages: [{ name: 'Go', seconds: 3000 }, { name: 'Rust', seconds: 1000 }] });
    expect(body.entries.find((e: { user: { handle: string } }) => e.user.handle === 'lb-cat').languages).toEqual([]); // lb-cat does not share languages
    expect(Object.keys(body.entries[0].user).sort()).toEqual(['display_name', 'handle', 'id']);

    const page2 = await (await get('range=7d&limit=2&page=2')).json();
    expect(page2.entries.map((e: { user: { handle: string } }) => e.user.handle)).toEqual([tied[1], 'lb-dan']);
    expect(page2.total).toBe(4);

    const go = await (await get('range=7d&language=Go')).json();
    expect(go.entries.map((e: { rank: number; user: { handle: string } }) => [e.rank, e.user.handle])).toEqual([
      [1, 'lb-ann'],
      [2, 'lb-bob'],
      [3, 'lb-dan'],
    ]);
    // Ranking by a language never shows users who keep their languages private.
    const python = await (await get('range=7d&language=Python')).json();
    expect(python.entries).toEqual([]);

    // Opting out takes effect on the next answer.
    await (await getDb()).execute(sql`UPDATE users SET leaderboard = false WHERE handle = 'lb-ann'`);
    const after = await (await get('range=30d')).json();
    expect(after.entries.map((e: { user: { handle: string } }) => e.user.handle)).not.toContain('lb-ann');
  });

  it('serves one snapshot while it is fresh, rebuilt once for a crowd', async () => {
    process.env.LEADERBOARD_MAX_AGE = '300';
    resetConfig();
    try {
      await coder('lb-fay', [['Zig', 100]]);
      await (await getDb()).execute(sql`DELETE FROM leaderboard_snapshots`); // no snapshot yet
      const answers = await Promise.all(Array.from({ length: 10 }, () => get('range=30d&language=Zig')));
      const bodies = await Promise.all(answers.map((r) => r.json()));
      expect(new Set(bodies.map((b) => b.generated_at)).size).toBe(1);
      expect(answers[0].headers.get('cache-control')).toContain('s-maxage=300');
      await coder('lb-gus', [['Zig', 5000]]);
      const later = await (await get('range=30d&language=Zig')).json();
      expect(later.generated_at).toBe(bodies[0].generated_at);
      expect(later.entries.map((e: { user: { handle: string } }) => e.user.handle)).toEqual(['lb-fay']);
    } finally {
      process.env.LEADERBOARD_MAX_AGE = '0';
      resetConfig();
    }
    const fresh = await (await get('range=30d&language=Zig')).json();
    expect(fresh.entries.map((e: { user: { handle: string } }) => e.user.handle)).toEqual(['lb-gus', 'lb-fay']);
  });

  it('leaving the leaderboard, no longer sharing languages, or deleting the account takes effect at once, cached pages included', async () => {
    process.env.LEADERBOARD_MAX_AGE = '300';
    resetConfig();
    const names = (page: { entries: { user: { handle: string } }[] }) => page.entries.map((e) => e.user.handle);
    try {
      const hal = await coder('lb-hal', [['Elm', 900]]);
      const ivy = await coder('lb-ivy', [['Elm', 600]]);
      const jon = await coder('lb-jon', [['Elm', 300]]);
      await (await getDb()).execute(sql`DELETE FROM leaderboard_snapshots`);
      // The same questions before and after: their pages are cached for the snapshot's life.
      const byElm = 'range=7d&language=Elm';
      const byTotal = 'range=7d&limit=100';
      const before = await (await get(byElm)).json();
      expect(names(before)).toEqual(['lb-hal', 'lb-ivy', 'lb-jon']);
      expect(names(await (await get(byTotal)).json())).toEqual(expect.arrayContaining(['lb-hal', 'lb-ivy', 'lb-jon']));
      await updateAccount(await getDb(), hal.user.id, { settings: { share_languages: false } });
      await updateAccount(await getDb(), ivy.user.id, { settings: { leaderboard: false } });
      await deleteAccount(await getDb(), jon.user.id);
      const elm = await (await get(byElm)).json();
      expect(elm.generated_at).toBe(before.generated_at);
      expect(elm).toMatchObject({ entries: [], total: 0 });
      const total = names(await (await get(byTotal)).json());
      expect(total).toContain('lb-hal');
      expect(total).not.toContain('lb-ivy');
      expect(total).not.toContain('lb-jon');
    } finally {
      process.env.LEADERBOARD_MAX_AGE = '0';
      resetConfig();
    }
  });

  it('matches a language in any case, sums a user\'s time under every spelling, and offers each language once', async () => {
    await coder('lb-kim', [['Kotlin', 3000]]);
    await coder('lb-lou', [['kotlin', 2000], ['KOTLIN', 2000]]);
    await coder('lb-max', [['Kotlin', 1000]], { leaderboard: true, share_languages: false });
    for (const asked of ['kotlin', 'KOTLIN', 'Kotlin', ' kOtLiN ']) {
      const res = await get(`range=7d&language=${encodeURIComponent(asked)}`);
      expect(res.status).toBe(200);
      const body = await res.json();
      // lb-lou's two spellings are one language: 4000 s ranks first; lb-max shares no languages.
      expect([asked, body.entries.map((e: { rank: number; user: { handle: string } }) => [e.rank, e.user.handle]), body.total]).toEqual([
        asked,
        [
          [1, 'lb-lou'],
          [2, 'lb-kim'],
        ],
        2,
      ]);
      expect(body.language.toLowerCase()).toBe('kotlin');
    }
    const offered = await languagesOnLeaderboard(await getDb());
    expect(offered.filter((name) => name.toLowerCase() === 'kotlin')).toHaveLength(1);
    expect(offered).toEqual(expect.arrayContaining(['Go', 'Zig']));
    // A language nobody is ranked by: no entries, the name as asked.
    expect(await (await get('range=7d&language=Brainfudge')).json()).toMatchObject({ language: 'Brainfudge', entries: [], total: 0 });
  });

  it.each([['range=90d', 'range'], ['limit=101', 'limit'], ['page=0', 'page'], ['limit=abc', 'limit']])('answers 400 for %s', async (query, path) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].path).toBe(path);
  });
});
