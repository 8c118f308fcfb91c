// npm run bench:day-reads — one account's heavy day against everyone else, on the embedded
// database (where every statement runs on the thread that serves requests), through the route
// handlers in this process: one user holds BENCH_DAY_BEATS (300 000) heartbeats in one day. Prints
// how long each heavy read takes alone (heartbeats?date= one page and every page, durations, the
// timeline, the export), the longest single statement and the longest the event loop was held
// meanwhile, beside a reference in the same run: the one statement that read the whole day
// before these reads went a page at a time. Then four heavy reads at once while another user's
// public stats, the health check and another user's heartbeat are asked for in turn every
// BENCH_PROBE_MS (100): how long those waited, beside the same probes with nothing heavy running.
// BENCH_DATABASE_URL set: the same on PostgreSQL (a fresh database `codetally_bench_day_reads`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { freshDatabase, machine, percentile, writeResults } from './common';

const BEATS = Number(process.env.BENCH_DAY_BEATS ?? 300_000);
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 100);
const userAgent = 'wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

const round = (ms: number) => Math.round(ms * 10) / 10;

async function main() {
  // The service's configuration is read once, on first use: the database is chosen before.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-bench-day-'));
  process.env.DATA_DIR = dataDir;
  process.env.AUTH_SECRET ??= 'bench-auth-secret-0123456789abcdefghij';
  // Budgets are not what is measured here.
  process.env.READ_RATE_LIMIT_PER_MINUTE = '0';
  process.env.SYNC_RATE_LIMIT_PER_MINUTE = '0';
  process.env.PUBLIC_CACHE_SECONDS = '0';
  const onPostgres = Boolean(process.env.BENCH_DATABASE_URL);
  if (onPostgres) process.env.DATABASE_URL = await freshDatabase('codetally_bench_day_reads');
  else delete process.env.DATABASE_URL;

  const { dbHandle, closeDb, rows } = await import('../lib/db/client');
  const { migrateDb } = await import('../lib/db/migrate');
  const { createUser } = await import('../lib/accounts/users');
  const { issueToken } = await import('../lib/accounts/tokens');
  const { GET: dayHeartbeats } = await import('../app/api/wakatime/v1/users/[user]/heartbeats/route');
  const { GET: durations } = await import('../app/api/wakatime/v1/users/[user]/durations/route');
  const { POST: bulk } = await import('../app/api/wakatime/v1/users/[user]/heartbeats.bulk/route');
  const { GET: publicStats } = await import('../app/api/wakatime/v1/users/[user]/stats/route');
  const { GET: timeline } = await import('../app/main/api/v1/me/timeline/route');
  const { GET: exportMe } = await import('../app/main/api/v1/me/export/route');
  const { GET: health } = await import('../app/main/api/v1/health/route');

  const handle = await dbHandle();
  if (!onPostgres) await migrateDb(handle);
  const db = handle.db;

  const heavy = (await createUser(db, { handle: 'heavy', timezone: 'UTC' })).user;
  const other = (await createUser(db, { handle: 'other', timezone: 'UTC', settings: { profile_public: true, share_languages: true } })).user;
  const heavyKey = (await issueToken(db, heavy.id, { name: 'cli', format: 'uuid' })).token;
  const heavyAccount = (await issueToken(db, heavy.id, { name: 'all', scopes: ['account', 'stats'] })).token;
  const otherKey = (await issueToken(db, other.id, { name: 'cli', format: 'uuid' })).token;

  // The heavy day: yesterday (UTC), its heartbeats spread over it, each credited up to the next;
  // a language for 50 of them, a project for 1000, as an editor writes them.
  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const first = Date.parse(`${day}T00:00:00Z`);
  const step = Math.floor(86_000_000 / BEATS);
  const seedStart = performance.now();
  await db.execute(sql`
    INSERT INTO heartbeats (user_id, at, type, entity_digest, category, language, project, editor, os, app, credited_until, zone)
    SELECT ${heavy.id}::uuid, ${first}::bigint + i * ${step}, 'file', 1000 + i % 13, 'coding',
           (ARRAY['TypeScript', 'Go', 'Rust', 'SQL'])[1 + (i / 50) % 4], 'proj' || ((i / 1000) % 5), 'VS Code', 'Linux', '',
           ${first}::bigint + CASE WHEN i < ${BEATS - 1} THEN i + 1 ELSE i END * ${step}, 'UTC'
    FROM generate_series(0, ${BEATS - 1}) AS i`);
  const seededMs = performance.now() - seedStart;

  // Every statement timed, and the event loop watched.
  let longest = 0;
  const execute = db.execute.bind(db);
  (db as { execute: typeof db.execute }).execute = ((query: Parameters<typeof db.execute>[0]) => {
    const t = performance.now();
    return execute(query).finally(() => (longest = Math.max(longest, performance.now() - t)));
  }) as typeof db.execute;
  // The longest the event loop went without its turn: a timer every 5 ms, and the longest gap between two.
  const loop = {
    max: 0,
    timer: undefined as NodeJS.Timeout | undefined,
    enable() {
      let last = performance.now();
      this.max = 0;
      this.timer = setInterval(() => {
        const now = performance.now();
        this.max = Math.max(this.max, now - last);
        last = now;
      }, 5);
    },
    disable() {
      clearInterval(this.timer);
    },
  };

  const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;
  const waka = (handler: Handler, route: string, key?: string, init: RequestInit = {}) =>
    handler(new Request(`http://localhost/api/wakatime/v1/users/${route}`, { ...init, headers: { ...(key ? { authorization: basic(key) } : {}), ...init.headers } }), {
      params: Promise.resolve({ user: route.split('/')[0] }),
    });
  // The bytes of an answer; a status other than 2xx is counted (a heavy read past its deadline answers 503).
  const refused: Record<string, number> = {};
  const drain = async (res: Response | Promise<Response>) => {
    const r = await res;
    const bytes = (await r.arrayBuffer()).byteLength;
    if (r.status >= 300) refused[r.status] = (refused[r.status] ?? 0) + 1;
    return bytes;
  };

  const heavyReads: Record<string, () => Promise<number>> = {
    heartbeats_first_page: () => drain(waka(dayHeartbeats, `current/heartbeats?date=${day}`, heavyKey)),
    heartbeats_every_page: async () => {
      let bytes = 0;
      let after = '';
      for (;;) {
        const res = await waka(dayHeartbeats, `current/heartbeats?date=${day}${after && `&after=${encodeURIComponent(after)}`}`, heavyKey);
        const text = await res.text();
        if (res.status !== 200) {
          refused[res.status] = (refused[res.status] ?? 0) + 1;
          return bytes;
        }
        bytes += text.length;
        const next = (JSON.parse(text) as { next_after: string | null }).next_after;
        if (next === null) return bytes;
        after = next;
      }
    },
    durations: () => drain(waka(durations, `current/durations?date=${day}`, heavyKey)),
    timeline: () => drain(timeline(new Request(`http://localhost/main/api/v1/me/timeline?date=${day}`, { headers: { authorization: `Bearer ${heavyAccount}` } }))),
    export: () => drain(exportMe(new Request('http://localhost/main/api/v1/me/export', { headers: { authorization: `Bearer ${heavyAccount}` } }))),
  };

  const results: Record<string, unknown> = { at: new Date().toISOString(), machine: machine(), database: onPostgres ? 'postgres' : 'embedded', heartbeats_in_the_day: BEATS, seed_ms: Math.round(seededMs) };

  // The reference: the one statement that read the whole day before (every column the reads use).
  longest = 0;
  let t = performance.now();
  const whole = await rows<unknown>(
    db,
    sql`SELECT at::float8, credited_until::float8, type, entity_digest::float8, category, language, project, editor, os, app, machine, ai_agent, ai_lines, human_lines, zone
        FROM heartbeats WHERE user_id = ${heavy.id}::uuid AND at >= ${first} AND at < ${first + 86_400_000} ORDER BY at, type, entity_digest`,
  );
  results.reference_whole_day_statement = { ms: round(performance.now() - t), rows: whole.length };
  console.log('reference', JSON.stringify(results.reference_whole_day_statement));

  const alone: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(heavyReads)) {
    await read(); // warm
    for (const k of Object.keys(refused)) delete refused[k];
    longest = 0;
    loop.enable();
    t = performance.now();
    const bytes = await read();
    const ms = performance.now() - t;
    loop.disable();
    alone[name] = { ms: round(ms), bytes, longest_statement_ms: round(longest), event_loop_held_max_ms: round(loop.max), refused: { ...refused } };
    for (const k of Object.keys(refused)) delete refused[k];
    console.log(name, JSON.stringify(alone[name]));
  }
  results.alone = alone;

  // Another user's requests, one every PROBE_MS in turn, each timed from asking to its whole answer.
  let beat = 0;
  const probes: Record<string, () => Promise<number>> = {
    public_stats: () => drain(waka(publicStats, 'other/stats')),
    health: () => drain((health as unknown as (request: Request) => Promise<Response>)(new Request('http://localhost/main/api/v1/health'))),
    heartbeat: () =>
      drain(
        waka(bulk, 'current/heartbeats.bulk', otherKey, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': userAgent },
          body: JSON.stringify([{ entity: '/src/a.ts', type: 'file', time: Date.now() / 1000 - 3600 + beat++, language: 'Go', project: 'light' }]),
        }),
      ),
  };
  async function probing(until: Promise<unknown>) {
    const waits: Record<string, number[]> = Object.fromEntries(Object.keys(probes).map((k) => [k, []]));
    const pending: Promise<void>[] = [];
    let done = false;
    void until.finally(() => (done = true));
    const names = Object.keys(probes);
    for (let i = 0; !done; i++) {
      const name = names[i % names.length];
      const asked = performance.now();
      pending.push(probes[name]().then(() => void waits[name].push(performance.now() - asked)));
      await new Promise((r) => setTimeout(r, PROBE_MS));
    }
    await Promise.all(pending);
    return Object.fromEntries(
      Object.entries(waits).map(([k, v]) => {
        const sorted = [...v].sort((a, b) => a - b);
        return [k, { n: v.length, p50_ms: round(percentile(sorted, 50)), max_ms: round(sorted.at(-1) ?? NaN) }];
      }),
    );
  }
  results.probes_idle = await probing(new Promise((r) => setTimeout(r, 3000)));
  console.log('probes idle', JSON.stringify(results.probes_idle));

  longest = 0;
  loop.enable();
  t = performance.now();
  const four = Promise.all([heavyReads.heartbeats_every_page(), heavyReads.durations(), heavyReads.timeline(), heavyReads.export()]);
  const during = await probing(four);
  const fourMs = performance.now() - t;
  loop.disable();
  results.four_heavy_reads_at_once = { ms: round(fourMs), longest_statement_ms: round(longest), event_loop_held_max_ms: round(loop.max), refused, probes: during };

  console.log(JSON.stringify(results, null, 2));
  console.log(`written to ${writeResults(`day-reads-${onPostgres ? 'postgres' : 'embedded'}`, results)}`);
  await closeDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
