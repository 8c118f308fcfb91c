import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { getDb, rows } from '@/lib/db/client';
import { call, newUser } from '../helpers/api';
import { expectRollupsMatchActivity } from '../helpers/rollups';

const b = (language: string, time: number, hour: number, ide_name = 'vscode', date = '2026-05-04') => ({ language, time, hour, date, ide_name, project_name: 'p' });

async function dayMillis(userId: string, date: string): Promise<number> {
  const [row] = await rows<{ v: number }>(await getDb(), sql`SELECT millis::float8 AS v FROM user_days WHERE user_id = ${userId} AND date = ${date}`);
  return row?.v ?? 0;
}

describe('rollups maintained by the write', () => {
  it('match the stored buckets, with each hour capped at 3600 s in the day total', async () => {
    const { user, token } = await newUser();
    // Two editors open at once in hour 10: 5400 s sent, 3600 s counted.
    await call(postBatch, '/sync/activities', { token, body: { activities: [b('TypeScript', 3000, 10), b('Go', 2400, 10, 'vim'), b('TypeScript', 600, 11)] } });
    expect(await dayMillis(user.id, '2026-05-04')).toBe((3600 + 600) * 1000);
    await call(postBatch, '/sync/activities', { token, body: { activities: [b('Rust', 100, 11), b('Go', 50, 10, 'vim'), b('SQL', 10, 3, 'vim', '2026-05-05')] } });
    expect(await dayMillis(user.id, '2026-05-04')).toBe((3600 + 700) * 1000);
    await expectRollupsMatchActivity(user.id);
  });

  it('stay exact when concurrent writers cross the cap of one hour', async () => {
    const { user, token } = await newUser();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(postBatch, '/sync/activities', { token, body: { activities: [b(i % 2 ? 'Go' : 'C', 200, 7, i % 3 ? 'vim' : 'zed')] } }),
      ),
    );
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(await dayMillis(user.id, '2026-05-04')).toBe(3_600_000); // 6000 s sent into one hour
    await expectRollupsMatchActivity(user.id);
  });

  it('are not touched by an idempotent replay', async () => {
    const { user, token } = await newUser();
    const body = { activities: [b('Go', 900, 5)] };
    const headers = { 'idempotency-key': 'once' };
    await call(postBatch, '/sync/activities', { token, body, headers });
    await call(postBatch, '/sync/activities', { token, body, headers });
    expect(await dayMillis(user.id, '2026-05-04')).toBe(900_000);
    await expectRollupsMatchActivity(user.id);
  });
});
