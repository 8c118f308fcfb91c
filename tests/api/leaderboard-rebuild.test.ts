import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { updateAccount } from '@/lib/accounts/me';
import { addDays } from '@/lib/dates';
import { getDb, rows } from '@/lib/db/client';
import { leaderboardRanges, type LeaderboardRange } from '@/lib/stats/leaderboard/query';
import { rebuildLeaderboard } from '@/lib/stats/leaderboard/snapshot';
import { call, newUser } from '../helpers/api';

// A rebuild recomputes only users whose data changed and shifts everyone else by the dates that
// entered and left the range. Whatever happened in between — writes, opting in and out, sharing
// languages or not, the date moving by a day, by many or backwards — the ranked totals and the
// per-language totals equal a sum over the stored days.

const BASE = '2026-03-31';

type Step =
  | { kind: 'write'; user: number; day: number; hour: number; seconds: number; language: string }
  | { kind: 'listed'; user: number; listed: boolean }
  | { kind: 'shares'; user: number; shares: boolean }
  | { kind: 'rebuild'; range: LeaderboardRange; day: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('write' as const),
    user: fc.nat(3),
    day: fc.integer({ min: -45, max: 10 }),
    hour: fc.nat(23),
    seconds: fc.integer({ min: 60, max: 3600 }),
    language: fc.constantFrom('Go', 'Rust', 'Zig'),
  }),
  fc.record({ kind: fc.constant('listed' as const), user: fc.nat(3), listed: fc.boolean() }),
  fc.record({ kind: fc.constant('shares' as const), user: fc.nat(3), shares: fc.boolean() }),
  fc.record({ kind: fc.constant('rebuild' as const), range: fc.constantFrom(...leaderboardRanges), day: fc.integer({ min: -3, max: 10 }) }),
);

async function ranked(range: LeaderboardRange): Promise<Record<string, number>> {
  const found = await rows<{ user_id: string; total: number }>(
    await getDb(),
    sql`SELECT e.user_id, e.total_millis::float8 AS total FROM leaderboard_entries e JOIN users u ON u.id = e.user_id
        WHERE e.range = ${range} AND e.total_millis > 0 AND u.leaderboard`,
  );
  return Object.fromEntries(found.map((r) => [r.user_id, r.total]));
}

async function summedOverStoredDays(range: LeaderboardRange, to: string): Promise<Record<string, number>> {
  const from = addDays(to, 1 - Number(range.slice(0, -1)));
  const found = await rows<{ user_id: string; total: number }>(
    await getDb(),
    sql`SELECT d.user_id, sum(d.millis)::float8 AS total FROM user_days d JOIN users u ON u.id = d.user_id
        WHERE u.leaderboard AND d.date BETWEEN ${from} AND ${to} GROUP BY d.user_id HAVING sum(d.millis) > 0`,
  );
  return Object.fromEntries(found.map((r) => [r.user_id, r.total]));
}

/** Per user and language, the capped time of the snapshot's languages table, as read there. */
async function rankedLanguages(range: LeaderboardRange): Promise<Record<string, number>> {
  const found = await rows<{ key: string; millis: number }>(
    await getDb(),
    sql`SELECT l.user_id || '/' || l.language AS key, l.millis FROM leaderboard_languages l JOIN users u ON u.id = l.user_id
        WHERE l.range = ${range} AND u.leaderboard AND u.share_languages`,
  );
  return Object.fromEntries(found.map((r) => [r.key, Math.round(r.millis)]));
}

/** The same over the stored days, each hour capped at an hour (shared in proportion between languages). */
async function languagesOverStoredDays(range: LeaderboardRange, to: string): Promise<Record<string, number>> {
  const from = addDays(to, 1 - Number(range.slice(0, -1)));
  const found = await rows<{ key: string; millis: number }>(
    await getDb(),
    sql`SELECT a.user_id || '/' || a.language AS key, sum(a.millis * least(1, 3600000.0 / h.millis))::float8 AS millis
        FROM ide_activity a JOIN user_hours h USING (user_id, date, hour) JOIN users u ON u.id = a.user_id
        WHERE u.leaderboard AND u.share_languages AND a.date BETWEEN ${from} AND ${to}
        GROUP BY 1 HAVING sum(a.millis * least(1, 3600000.0 / h.millis)) >= 1`,
  );
  return Object.fromEntries(found.map((r) => [r.key, Math.round(r.millis)]));
}

describe('leaderboard rebuilds', () => {
  it('always rank the sum over the stored days, however the data and the date moved', async () => {
    const db = await getDb();
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 4, maxLength: 14 }), async (steps) => {
        // Each run starts from the same date (the snapshot of the last run may be later: a start over).
        let today = BASE;
        const users = await Promise.all([0, 1, 2, 3].map((i) => newUser({ settings: { leaderboard: i !== 3, share_languages: i % 2 === 0 } })));
        for (const step of steps) {
          if (step.kind === 'write') {
            const { token } = users[step.user];
            const activity = { language: step.language, time: step.seconds, hour: step.hour, date: addDays(today, step.day) };
            expect((await call(postBatch, '/sync/activities', { token, body: { activities: [activity] } })).status).toBe(200);
          } else if (step.kind === 'listed') {
            await updateAccount(db, users[step.user].user.id, { settings: { leaderboard: step.listed } });
          } else if (step.kind === 'shares') {
            await updateAccount(db, users[step.user].user.id, { settings: { share_languages: step.shares } });
          } else {
            today = addDays(today, step.day);
            await rebuildLeaderboard(db, step.range, today);
            expect(await ranked(step.range)).toEqual(await summedOverStoredDays(step.range, today));
            expect(await rankedLanguages(step.range)).toEqual(await languagesOverStoredDays(step.range, today));
          }
        }
      }),
      { numRuns: 12 },
    );
  });
});
