// npm run bench:pages — the public pages through next start on PostgreSQL: requests a second and
// p99 of `/` and of a profile with a year of data (`/u/<handle>`), as they are and compressed as
// browsers ask for them, next to the trivial route of
// the same build, on a generated data set (bench/dataset.ts: 10 000 users, 100 with a year of
// history). The server has one core and the load generator the other (bench/read.ts says why).
import os from 'node:os';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { allCpus, machine, median, setAffinity, startServer, writeResults } from './common';
import { ensureDataSet } from './dataset';

const ROUNDS = 3;
const SECONDS = 5;

async function load(url: string, headers: Record<string, string> = {}) {
  const r = await autocannon({ url, connections: 16, duration: SECONDS, headers });
  return { req_per_s: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non_2xx: r.non2xx };
}

async function main() {
  const url = await ensureDataSet({ name: 'codetally_bench_pages', seed: 42, users: 10_000, heavy: 100 });
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  // A user with a year of history whose profile shows everything.
  const [heavy] = await sql<{ handle: string }[]>`SELECT handle FROM users
    WHERE profile_public AND share_languages AND share_editors AND substr(handle, 2)::int <= 100 ORDER BY handle LIMIT 1`;
  await sql.end();
  const server = await startServer(3930, { DATABASE_URL: url, PUBLIC_CACHE_SECONDS: '300', LEADERBOARD_MAX_AGE: '300' });
  const pinned = os.cpus().length >= 2 && setAffinity('0', server.pid) && setAffinity('1', process.pid);
  const routes = { trivial: '/main/api/v1/ping', home: '/', profile: `/u/${heavy.handle}` };
  // As a browser asks: compressed.
  const gzip = { 'accept-encoding': 'gzip, deflate, br' };
  const results: Record<string, unknown> = { at: new Date().toISOString(), machine: machine(), server_on_own_core: pinned, profile: routes.profile };
  try {
    for (const path of Object.values(routes)) await load(`${server.url}${path}`); // warm-up
    const cases = [...Object.entries(routes), ['home_gzip', routes.home], ['profile_gzip', routes.profile]];
    for (const [name, path] of cases) {
      const rounds = [];
      for (let r = 0; r < ROUNDS; r++) rounds.push(await load(`${server.url}${path}`, name.endsWith('_gzip') ? gzip : {}));
      results[name] = {
        req_per_s: median(rounds.map((x) => x.req_per_s)),
        p99_ms: median(rounds.map((x) => x.p99_ms)),
        non_2xx: rounds.reduce((n, x) => n + x.non_2xx, 0),
        rounds,
      };
      console.log(`${name.padEnd(8)} ${path.padEnd(24)}`, JSON.stringify(results[name]));
    }
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
