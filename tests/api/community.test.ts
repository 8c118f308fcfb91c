import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { deleteAccount, updateAccount } from '@/lib/accounts/me';
import { getDb, rows } from '@/lib/db/client';
import { refreshCommunity } from '@/lib/stats/community';
import { call, newUser } from '../helpers/api';

// The site-wide rollups against a direct count over the per-user rollups of community members.

async function rollup(date: string) {
  const db = await getDb();
  const [day] = await rows<{ millis: number; users: number }>(db, sql`SELECT millis, users FROM community_days WHERE date = ${date}`);
  const langs = await rows<{ language: string; millis: number; users: number }>(
    db,
    sql`SELECT language, millis, users FROM community_day_languages WHERE date = ${date} ORDER BY language`,
  );
  return { day: day ?? null, langs };
}

async function direct(date: string) {
  const [row] = await rows<{ millis: number | null; users: number }>(
    await getDb(),
    sql`SELECT sum(d.millis)::float8 AS millis, count(*)::int AS users FROM user_days d JOIN users u ON u.id = d.user_id
        WHERE u.community_stats AND d.date = ${date} AND d.millis > 0`,
  );
  return row;
}

const post = (token: string, activities: unknown[]) => call(postBatch, '/sync/activities', { token, body: { activities } });

describe('community rollups', () => {
  it('follow writes, opting out and back in, and account deletion', async () => {
    const date = '2026-03-03';
    const db = await getDb();
    const a = await newUser();
    const b = await newUser();
    const out = await newUser({ settings: { community_stats: false } });
    await post(a.token, [{ language: 'Go', time: 600, date, hour: 1 }, { language: 'Go', time: 3600, date, hour: 2 }, { language: 'Zig', time: 1200, date, hour: 2 }]);
    await post(b.token, [{ language: 'Go', time: 300, date, hour: 1 }]);
    await post(out.token, [{ language: 'Go', time: 900, date, hour: 1 }]);
    await refreshCommunity(db);
    // a: hour 2 holds 4800 s, capped to 3600 and shared 3:1 between Go and Zig.
    expect(await rollup(date)).toEqual({
      day: { millis: 4_500_000, users: 2 },
      langs: [
        { language: 'Go', millis: 600_000 + 2_700_000 + 300_000, users: 2 },
        { language: 'Zig', millis: 900_000, users: 1 },
      ],
    });
    expect(await direct(date)).toEqual({ millis: 4_500_000, users: 2 });

    await updateAccount(db, out.user.id, { settings: { community_stats: true } });
    await updateAccount(db, a.user.id, { settings: { community_stats: false } });
    await refreshCommunity(db);
    expect(await rollup(date)).toEqual({
      day: { millis: 1_200_000, users: 2 },
      langs: [{ language: 'Go', millis: 1_200_000, users: 2 }],
    });

    await deleteAccount(db, b.user.id);
    await deleteAccount(db, out.user.id);
    await refreshCommunity(db);
    expect(await rollup(date)).toEqual({ day: null, langs: [] });
  });

  it('lose and double-count nothing when writes and refreshes overlap', async () => {
    const date = '2026-03-04';
    const db = await getDb();
    const coders = await Promise.all(Array.from({ length: 4 }, () => newUser()));
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      for (const c of coders) work.push(post(c.token, [{ language: i % 2 ? 'Go' : 'Rust', time: 10, date, hour: i }]));
      work.push(refreshCommunity(db));
    }
    await Promise.all(work);
    await refreshCommunity(db);
    const { day, langs } = await rollup(date);
    expect(day).toEqual({ millis: 4 * 10 * 10_000, users: 4 });
    expect(langs).toEqual([
      { language: 'Go', millis: 4 * 5 * 10_000, users: 4 },
      { language: 'Rust', millis: 4 * 5 * 10_000, users: 4 },
    ]);
    const [{ n }] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM community_dirty`);
    expect(n).toBe(0);
  });
});
