import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { getDb, rows } from '../../lib/db/client';

/** The rollups of a user, recomputed from the stored buckets, must equal the maintained ones. */
export async function expectRollupsMatchActivity(userId: string): Promise<void> {
  const db = await getDb();
  const pairs: [string, ReturnType<typeof sql>, ReturnType<typeof sql>][] = [
    [
      'user_hours',
      sql`SELECT to_char(date,'YYYY-MM-DD') AS d, hour::text AS k, millis::float8 AS v FROM user_hours WHERE user_id = ${userId}`,
      sql`SELECT to_char(date,'YYYY-MM-DD') AS d, hour::text AS k, sum(millis)::float8 AS v FROM ide_activity WHERE user_id = ${userId} GROUP BY 1, 2`,
    ],
    [
      'user_days',
      sql`SELECT to_char(date,'YYYY-MM-DD') AS d, '' AS k, millis::float8 AS v FROM user_days WHERE user_id = ${userId}`,
      sql`SELECT d, '' AS k, sum(least(v, 3600000))::float8 AS v FROM (
            SELECT to_char(date,'YYYY-MM-DD') AS d, hour, sum(millis) AS v FROM ide_activity WHERE user_id = ${userId} GROUP BY 1, 2) h GROUP BY d`,
    ],
    [
      'user_day_languages',
      sql`SELECT to_char(date,'YYYY-MM-DD') AS d, language AS k, millis::float8 AS v FROM user_day_languages WHERE user_id = ${userId}`,
      sql`SELECT to_char(date,'YYYY-MM-DD') AS d, language AS k, sum(millis)::float8 AS v FROM ide_activity WHERE user_id = ${userId} GROUP BY 1, 2`,
    ],
    [
      'user_day_editors',
      sql`SELECT to_char(date,'YYYY-MM-DD') AS d, editor AS k, millis::float8 AS v FROM user_day_editors WHERE user_id = ${userId}`,
      sql`SELECT to_char(date,'YYYY-MM-DD') AS d, editor AS k, sum(millis)::float8 AS v FROM ide_activity WHERE user_id = ${userId} GROUP BY 1, 2`,
    ],
  ];
  for (const [name, maintained, recomputed] of pairs) {
    // A key without time has no rollup row (buckets of line changes only add none).
    const order = (r: { d: string; k: string; v: number }[]) => r.filter((x) => x.v !== 0).map((x) => `${x.d}|${x.k}|${x.v}`).sort();
    expect(order(await rows(db, maintained)), name).toEqual(order(await rows(db, recomputed)));
  }
}
