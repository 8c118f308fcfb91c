// npm run bench:pages — the public pages and embeds through next start on PostgreSQL, on a
// generated data set (bench/dataset.ts: 10 000 users, 100 with a year of history):
// - requests a second and p99 of `/` and of a profile with a year of data (`/u/<handle>`), as
//   they are and compressed as browsers ask for them, next to the trivial route of the same build;
// - what README embeds ask, cached, side by side: a badge, the README card (the WakaTime-shaped
//   public stats github-readme-stats asks for) and the chart images;
// - the same embeds uncached: one request at a time, each the first of its kind for a user with a
//   year of data (nothing of that user's chart or card was computed before), p50 and p99. The
//   charts are asked conditionally, with an ETag they do not have, which keeps them on the route
//   answered per request (proxy.ts): a first request from an embed does the same work and then
//   stores the answer in Next's cache, which outlives a server (so another run would find it).
// The server has one core and the load generator the other (bench/read.ts says why).
import os from 'node:os';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { allCpus, machine, median, percentile, setAffinity, startServer, writeResults } from './common';
import { ensureDataSet } from './dataset';

const ROUNDS = 3;
const SECONDS = 5;

async function load(url: string, headers: Record<string, string> = {}) {
  const r = await autocannon({ url, connections: 16, duration: SECONDS, headers });
  return { req_per_s: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non_2xx: r.non2xx };
}

/** One request at a time over `paths`, each asked once: latency p50 and p99 of those answered 200. */
async function firstAsks(base: string, paths: string[], headers: Record<string, string> = {}) {
  const times: number[] = [];
  let failed = 0;
  for (const path of paths) {
    const t0 = performance.now();
    const res = await fetch(`${base}${path}`, { headers });
    await res.arrayBuffer();
    if (res.status === 200) times.push(performance.now() - t0);
    else failed++;
  }
  times.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { requests: paths.length, p50_ms: round(percentile(times, 50)), p99_ms: round(percentile(times, 99)), non_200: failed };
}

interface Heavy {
  id: string;
  handle: string;
}

async function main() {
  const url = await ensureDataSet({ name: 'codetally_bench_pages', seed: 42, users: 10_000, heavy: 100 });
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  // Users with a year of history whose profile and languages are public; the first, whose profile
  // shows everything, also has a badge.
  const heavy = await sql<Heavy[]>`SELECT id, handle FROM users
    WHERE profile_public AND share_languages AND substr(handle, 2)::int <= 100 ORDER BY NOT share_editors, handle`;
  const [owner] = heavy;
  await sql`DELETE FROM badges WHERE user_id = ${owner.id}`;
  await sql`INSERT INTO badges (user_id, metric, range, label, color, style) VALUES (${owner.id}, 'total', '30d', 'coding', 'blue', 'flat')`;
  await sql.end();
  const server = await startServer(3930, { DATABASE_URL: url, PUBLIC_CACHE_SECONDS: '300', LEADERBOARD_MAX_AGE: '300' });
  const pinned = os.cpus().length >= 2 && setAffinity('0', server.pid) && setAffinity('1', process.pid);
  const card = (handle: string) => `/api/v1/users/${handle}/stats?is_including_today=true`;
  const chart = (id: string, name: string) => `/main/api/v1/public/charts/${id}/${name}.svg`;
  const routes = { trivial: '/main/api/v1/ping', home: '/', profile: `/u/${owner.handle}` };
  const embeds = {
    badge: `/main/api/v1/public/github/svg/${owner.id}`,
    readme_card: card(owner.handle),
    chart_languages: chart(owner.id, 'languages'),
    chart_activity: chart(owner.id, 'activity'),
    chart_weekly: chart(owner.id, 'weekly'),
  };
  // As a browser asks: compressed.
  const gzip = { 'accept-encoding': 'gzip, deflate, br' };
  const results: Record<string, unknown> = { at: new Date().toISOString(), machine: machine(), server_on_own_core: pinned, profile: routes.profile, heavy_users: heavy.length };
  try {
    // Uncached first, while nothing of these users was asked: the others, one kind of embed each.
    const others = heavy.slice(1);
    const uncached = {
      readme_card: await firstAsks(server.url, others.map((u) => card(u.handle))),
      chart_languages: await firstAsks(server.url, others.map((u) => chart(u.id, 'languages')), { 'if-none-match': '"none"' }),
      chart_activity: await firstAsks(server.url, others.map((u) => chart(u.id, 'activity')), { 'if-none-match': '"none"' }),
      chart_weekly: await firstAsks(server.url, others.map((u) => chart(u.id, 'weekly')), { 'if-none-match': '"none"' }),
    };
    results.uncached = uncached;
    console.log(`uncached, one request at a time, each the first for one of ${others.length} users with a year of data:`);
    for (const [name, figures] of Object.entries(uncached)) console.log(`  ${name.padEnd(16)}`, JSON.stringify(figures));

    for (const path of [...Object.values(routes), ...Object.values(embeds)]) await load(`${server.url}${path}`); // warm-up
    const cases = [...Object.entries(routes), ['home_gzip', routes.home], ['profile_gzip', routes.profile], ...Object.entries(embeds)];
    console.log('under load (16 connections), medians of rounds:');
    for (const [name, path] of cases) {
      const rounds = [];
      for (let r = 0; r < ROUNDS; r++) rounds.push(await load(`${server.url}${path}`, name.endsWith('_gzip') ? gzip : {}));
      results[name] = {
        req_per_s: median(rounds.map((x) => x.req_per_s)),
        p50_ms: median(rounds.map((x) => x.p50_ms)),
        p99_ms: median(rounds.map((x) => x.p99_ms)),
        non_2xx: rounds.reduce((n, x) => n + x.non_2xx, 0),
        rounds,
      };
      const { rounds: _, ...figures } = results[name] as Record<string, unknown>;
      console.log(`  ${name.padEnd(16)} ${path.slice(0, 60).padEnd(60)}`, JSON.stringify(figures));
    }
    const rate = (name: string) => (results[name] as { req_per_s: number }).req_per_s;
    const ratios = Object.fromEntries(['readme_card', 'chart_languages', 'chart_activity', 'chart_weekly'].map((n) => [n, Math.round((rate(n) / rate('badge')) * 100) / 100]));
    results.cached_vs_badge = ratios;
    console.log('cached requests a second, as a share of the cached badge\'s:', JSON.stringify(ratios));
  } finally {
    if (pinned) setAffinity(allCpus(), process.pid);
    await server.stop();
  }
  console.log(`figures written to ${writeResults('pages', results)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
