import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb, rows } from '@/lib/db/client';

// What the migrations keep by hand (drizzle/0001_storage.sql) and the checks the schema declares,
// read back from the database's own catalog: a squash or a hand edit that loses one fails here.

async function catalog<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rows<T>(await getDb(), query);
}

describe('the migrated database', () => {
  it('keeps short-lived counters unlogged, and everything else logged', async () => {
    const unlogged = await catalog<{ name: string }>(sql`
      SELECT relname AS name FROM pg_class
      WHERE relkind = 'r' AND relpersistence = 'u' AND relnamespace = 'public'::regnamespace ORDER BY 1`);
    expect(unlogged.map((r) => r.name)).toEqual(['auth_attempts', 'rate_limits', 'read_rate_limits', 'user_rate_limits', 'user_read_rate_limits']);
  });

  it('carries each rollup figure in its primary key index (INCLUDE), for index-only reads of a user', async () => {
    const covering = await catalog<{ table: string; included: string }>(sql`
      SELECT c.relname AS table, string_agg(a.attname, ',') AS included
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indrelid
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey[i.indnkeyatts:])
      WHERE i.indisprimary AND i.indnatts > i.indnkeyatts
      GROUP BY 1 ORDER BY 1`);
    expect(covering).toEqual(
      ['user_day_editors', 'user_day_languages', 'user_days', 'user_hours'].map((table) => ({ table, included: 'millis' })),
    );
  });

  it('refuses an hour outside the day and time below zero, in the raw tables and the rollups', async () => {
    const checks = await catalog<{ name: string; definition: string }>(sql`
      SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
      WHERE contype = 'c' AND connamespace = 'public'::regnamespace ORDER BY 1`);
    const hours = ['community_hours', 'desktop_activity', 'ide_activity', 'user_hours'];
    const times = ['desktop_activity', 'ide_activity', 'user_day_editors', 'user_day_languages', 'user_days', 'user_hours'];
    expect(checks.filter((c) => c.name.endsWith('_hour_check')).map((c) => [c.name, c.definition])).toEqual(
      hours.map((t) => [`${t}_hour_check`, 'CHECK (((hour >= 0) AND (hour <= 23)))']),
    );
    expect(checks.filter((c) => c.name.endsWith('_millis_check')).map((c) => [c.name, c.definition])).toEqual(
      times.map((t) => [`${t}_millis_check`, 'CHECK ((millis >= 0))']),
    );
    const db = await getDb();
    const refused = await db
      .execute(sql`INSERT INTO ide_activity (user_id, date, hour, language, millis) VALUES (gen_random_uuid(), '2026-01-01', 24, 'C', 1)`)
      .catch((err: Error) => err);
    expect(refused).toBeInstanceOf(Error);
  });

  it('leaves room on leaderboard pages for in-place rewrites, and vacuums them sooner', async () => {
    const options = await catalog<{ table: string; options: string[] }>(sql`
      SELECT relname AS table, reloptions AS options FROM pg_class
      WHERE relname IN ('leaderboard_entries', 'leaderboard_languages') ORDER BY 1`);
    expect(options).toEqual([
      { table: 'leaderboard_entries', options: ['fillfactor=50', 'autovacuum_vacuum_scale_factor=0.02', 'autovacuum_analyze_scale_factor=0.02'] },
      { table: 'leaderboard_languages', options: ['autovacuum_vacuum_scale_factor=0.02', 'autovacuum_analyze_scale_factor=0.02'] },
    ]);
  });

  it('lists the plans of the pricing page and holds the community noise seed', async () => {
    const plans = await catalog<{ id: string }>(sql`SELECT id FROM plans ORDER BY position`);
    expect(plans.map((p) => p.id)).toEqual(['free', 'pro', 'team', 'founder']);
    const [seed] = await catalog<{ length: number }>(sql`SELECT length(value) AS length FROM server_secrets WHERE name = 'community_noise'`);
    expect(seed.length).toBe(72);
  });
});
