// The generated data sets of the benchmarks: made from a seed by SQL alone, so every run measures
// the same data, and kept between runs (BENCH_REGENERATE=1 makes one anew).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import postgres from 'postgres';
import { HOUR_CAP_MILLIS } from '../lib/activity';
import { openDb } from '../lib/db/client';
import { migrateDb } from '../lib/db/migrate';
import { benchBaseUrl, databaseUrl, freshDatabase } from './common';

export interface DataSet {
  /** The database's name. */
  name: string;
  seed: number;
  /** Users, every one opted in to the leaderboard. */
  users: number;
  /** The first users, with a year of history each. */
  heavy: number;
}

async function dataSetExists({ name, seed, users, heavy }: DataSet, url: string): Promise<boolean> {
  const admin = postgres(benchBaseUrl, { max: 1, onnotice: () => {} });
  const [found] = await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`;
  await admin.end();
  if (!found || process.env.BENCH_REGENERATE === '1') return false;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [meta] = await sql`SELECT seed, users, heavy FROM bench_meta`;
    // A data set made on migrations since squashed is made again.
    const baseline = createHash('sha256').update(fs.readFileSync('drizzle/0000_baseline.sql', 'utf8')).digest('hex');
    const [applied] = await sql`SELECT 1 FROM drizzle.__drizzle_migrations WHERE hash = ${baseline}`;
    return Boolean(applied) && meta?.seed === seed && meta.users === users && meta.heavy === heavy;
  } catch {
    return false;
  } finally {
    await sql.end();
  }
}

/** Users b1..bN; the first HEAVY code 12 hours a day for a year, the rest a few hours over 30 days. */
async function generate({ name, seed, users, heavy }: DataSet, url: string): Promise<void> {
  await freshDatabase(name);
  // The database carries the service's time limits (lib/db/settings.ts), which a year of a
  // thousand users' buckets in one statement exceeds on a slow day.
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql`SELECT set_config('statement_timeout', '0', false), set_config('idle_in_transaction_session_timeout', '0', false)`;
  const t0 = performance.now();
  const h = (expr: string) => `abs(hashtext(${expr} || '${seed}'))`;
  await sql.unsafe(`
    INSERT INTO users (handle, display_name, timezone, profile_public, share_languages, share_editors, leaderboard, community_stats)
    SELECT 'b' || n, 'Bench ' || n, 'UTC', ${h(`'p' || n`)} % 10 < 6, ${h(`'l' || n`)} % 2 = 0, ${h(`'e' || n`)} % 2 = 0, true, ${h(`'c' || n`)} % 10 < 9
    FROM generate_series(1, ${users}) n`);
  const lang = (key: string) => `(ARRAY['TypeScript','Go','Rust','Python','SQL','Markdown','Java','C'])[1 + ${h(key)} % 8]`;
  await sql.unsafe(`
    INSERT INTO ide_activity (user_id, date, hour, language, project, editor, millis, lines)
    SELECT u.id, current_date - d, hr, ${lang(`u.handle || d || hr`)}, 'proj' || (${h(`u.handle || d`)} % 3), 'VS Code',
           600000 + ${h(`u.handle || d || hr || 'm'`)} % 3000000, 0
    FROM users u, generate_series(0, 364) d, generate_series(8, 19) hr
    WHERE substr(u.handle, 2)::int <= ${heavy}`);
  await sql.unsafe(`
    INSERT INTO ide_activity (user_id, date, hour, language, project, editor, millis, lines)
    SELECT u.id, current_date - d, hr, ${lang(`u.handle || d || hr`)}, 'main', (ARRAY['VS Code','Vim','Zed'])[1 + ${h(`u.handle`)} % 3],
           300000 + ${h(`u.handle || d || hr || 'm'`)} % 3300000, 0
    FROM users u, generate_series(0, 29) d, generate_series(9, 10) hr
    WHERE substr(u.handle, 2)::int > ${heavy}`);
  // The rollups the write statement keeps, filled from the generated activity at once.
  await sql.unsafe(`INSERT INTO user_hours (user_id, date, hour, millis)
    SELECT user_id, date, hour, sum(millis) FROM ide_activity GROUP BY 1, 2, 3`);
  await sql.unsafe(`INSERT INTO user_days (user_id, date, millis)
    SELECT user_id, date, sum(least(millis, ${HOUR_CAP_MILLIS})) FROM user_hours GROUP BY 1, 2`);
  await sql.unsafe(`INSERT INTO user_day_languages (user_id, date, language, millis)
    SELECT user_id, date, language, sum(millis) FROM ide_activity GROUP BY 1, 2, 3`);
  await sql.unsafe(`INSERT INTO user_day_editors (user_id, date, editor, millis)
    SELECT user_id, date, editor, sum(millis) FROM ide_activity GROUP BY 1, 2, 3`);
  await sql`CREATE TABLE bench_meta (seed int, users int, heavy int)`;
  await sql`INSERT INTO bench_meta VALUES (${seed}, ${users}, ${heavy})`;
  await sql`VACUUM ANALYZE`;
  const [{ n }] = await sql`SELECT count(*)::int AS n FROM ide_activity`;
  console.log(`generated ${users} users and ${n} buckets in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  await sql.end();
}

/** The data set's database URL, made first when it is missing or was made otherwise. */
export async function ensureDataSet(set: DataSet): Promise<string> {
  const url = databaseUrl(set.name);
  if (!(await dataSetExists(set, url))) await generate(set, url);
  // A data set made by an older version gets the newer migrations, as a deploy's step runs them.
  const migration = await openDb({ databaseUrl: url, dataDir: '' }, 1, { migrations: true });
  const migrating = performance.now();
  try {
    await migrateDb(migration);
  } finally {
    await migration.close();
  }
  console.log(`migrations brought up to date in ${((performance.now() - migrating) / 1000).toFixed(1)} s`);
  return url;
}
