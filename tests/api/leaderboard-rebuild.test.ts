import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { updateAccount } from '@/lib/accounts/me';
import { addDays } from '@/lib/dates';
import { getDb, rows } from '@/lib/db/client';
import { leaderboardRanges, rebuildLeaderboard, type LeaderboardRange } from '@/lib/stats/leaderboard';
import { call, newUser } from '../helpers/api';

// A rebuild recomputes only users whose data changed and shifts everyone else by the dates that
// entered and left the range. Whatever happened in between — writes, opting in and out, the date
// moving by a day, by many or backwards — the ranked totals equal a sum over the stored days.

const BASE = '2026-03-31';

type Step =
  | { kind: 'write'; user: number; day: number; hour: number; seconds: number }
  | { kind: 'listed'; user: number; listed: boolean }
  | { kind: 'rebuild'; range: LeaderboardRange; day: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), user: fc.nat(3), day: fc.integer({ min: -45, max: 10 }), hour: fc.nat(23), seconds: fc.integer({ min: 60, max: 3600 }) }),
  fc.record({ kind: fc.constant('listed' as const), user: fc.nat(3), listed: fc.boolean() }),
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

describe('leaderboard rebuilds', () => {
  it('always rank the sum over the stored days, however the data and the date moved', async () => {
    const db = await getDb();
    let today = BASE;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 4, maxLength: 14 }), async (steps) => {
        const users = await Promise.all([0, 1, 2, 3].map((i) => newUser({ settings: { leaderboard: i !== 3 } })));
        for (const step of steps) {
          if (step.kind === 'write') {
            const { token } = users[step.user];
            const activity = { language: 'Go', time: step.seconds, hour: step.hour, date: addDays(today, step.day) };
            expect((await call(postBatch, '/sync/activities', { token, body: { activities: [activity] } })).status).toBe(200);
          } else if (step.kind === 'listed') {
            await updateAccount(db, users[step.user].user.id, { settings: { leaderboard: step.listed } });
          } else {
            today = addDays(today, step.day);
            await rebuildLeaderboard(db, step.range, today);
            expect(await ranked(step.range)).toEqual(await summedOverStoredDays(step.range, today));
          }
        }
      }),
      { numRuns: 12 },
    );
  });
});
