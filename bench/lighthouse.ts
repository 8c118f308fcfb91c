// npm run bench:lighthouse — how fast the public pages are on a phone, beside the framework's floor.
//
// Lighthouse at its defaults (mobile, simulated slow 4G, 4x CPU slowdown) on the public pages
// of a production server with a year of data (tests/helpers/audit-site.ts: `npm start`'s front
// process; TEST_HOST=next for plain `next start`), interleaved round by round with the floor: a
// hello-world App Router page of the same next and react (a heading and a 50-row table), built
// here into a folder of its own and served by `next start`. A page cannot beat the floor while
// Next's runtime ships; what is above it is ours. Prints each page's median performance score and
// TBT with their difference to the floor's (the medians', and the median of each round's), and
// the machine's benchmark index (machines differ 2-3x, so these are figures of one run, never a
// pass or fail: the audits in the test suite check accessibility, not speed).
// LIGHTHOUSE_CPU_SLOWDOWN sets another CPU slowdown than Lighthouse's 4x: 8x on a host of benchmark
// index 2 400 is about what 4x is on one of 1 200, a slower host's figures on a faster one.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CPU_SLOWDOWN, lighthouse, type LighthouseRun } from '../tests/helpers/audit';
import { auditedPages, startAuditedSite } from '../tests/helpers/audit-site';
import { freePort, testHost } from '../tests/helpers/server';
import { machine, median, writeResults } from './common';

const ROUNDS = Number(process.env.LIGHTHOUSE_ROUNDS ?? 3);
const CPU_SLOWDOWN = Number(process.env.LIGHTHOUSE_CPU_SLOWDOWN ?? DEFAULT_CPU_SLOWDOWN);

const floorLayout = `export const metadata = { title: 'Floor', description: 'A hello-world App Router page.' };
export default function RootLayout({ children }) {
  return <html lang="en"><body>{children}</body></html>;
}
`;

const floorPage = `export default function Page() {
  const rows = Array.from({ length: 50 }, (_, i) => i + 1);
  return (
    <main>
      <h1>Hello, world</h1>
      <table>
        <thead><tr><th>Row</th><th>Square</th></tr></thead>
        <tbody>{rows.map((n) => <tr key={n}><td>{n}</td><td>{n * n}</td></tr>)}</tbody>
      </table>
    </main>
  );
}
`;

/**
 * Builds the floor app and serves it on `next start`: a folder of its own with its own (empty)
 * Next config, inside the project's folder so that it resolves the project's next and react (the
 * bundler follows no link out of the folder it builds).
 */
async function startFloor(): Promise<{ url: string; stop: () => void }> {
  const dir = fs.mkdtempSync(path.resolve('.floor-'));
  fs.mkdirSync(path.join(dir, 'app'));
  fs.writeFileSync(path.join(dir, 'app', 'layout.jsx'), floorLayout);
  fs.writeFileSync(path.join(dir, 'app', 'page.jsx'), floorPage);
  fs.writeFileSync(path.join(dir, 'next.config.mjs'), 'export default {};\n');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'floor', private: true }));
  const next = path.resolve('node_modules', 'next', 'dist', 'bin', 'next');
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  execFileSync(process.execPath, [next, 'build'], { cwd: dir, env, stdio: 'ignore' });
  const port = await freePort();
  const child = spawn(process.execPath, [next, 'start', '-p', String(port)], { cwd: dir, env, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error('the floor page did not come up');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () => {
      child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main() {
  const floor = await startFloor();
  const { server } = await startAuditedSite();
  const targets: Record<string, string> = { floor: floor.url, ...Object.fromEntries(Object.entries(auditedPages).map(([name, url]) => [name, `${server.baseUrl}${url}`])) };
  const runs: Record<string, LighthouseRun[]> = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  try {
    // Each page warmed once, then the rounds, every page in each: the machine's other work falls on all alike.
    for (const url of Object.values(targets)) await fetch(url).then((r) => r.arrayBuffer());
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, url] of Object.entries(targets)) {
        const run = await lighthouse(url, CPU_SLOWDOWN);
        runs[name].push(run);
        console.log(`round ${round} ${name}: performance ${run.scores.performance}, TBT ${Math.round(run.metrics.TBT)} ms, LCP ${Math.round(run.metrics.LCP)} ms, benchmark index ${Math.round(run.benchmarkIndex)}`);
      }
    }
  } finally {
    await server.stop();
    server.remove();
    floor.stop();
  }
  const of = (name: string) => ({
    performance: median(runs[name].map((r) => r.scores.performance)) / 100,
    tbt_ms: Math.round(median(runs[name].map((r) => r.metrics.TBT))),
    lcp_ms: Math.round(median(runs[name].map((r) => r.metrics.LCP))),
    scores: runs[name].map((r) => r.scores.performance / 100),
  });
  const base = of('floor');
  const pages = Object.fromEntries(
    Object.keys(auditedPages).map((name) => {
      const p = of(name);
      // Also the median of each round's difference: a round's page and floor ran minutes apart, under the same load.
      const paired = (value: (r: LighthouseRun) => number) => median(runs[name].map((r, i) => value(r) - value(runs.floor[i])));
      return [
        name,
        {
          ...p,
          performance_minus_floor: Math.round((p.performance - base.performance) * 100) / 100,
          tbt_minus_floor_ms: p.tbt_ms - base.tbt_ms,
          paired: { performance_minus_floor: paired((r) => r.scores.performance) / 100, tbt_minus_floor_ms: Math.round(paired((r) => r.metrics.TBT)) },
        },
      ];
    }),
  );
  const indexes = Object.values(runs).flat().map((r) => r.benchmarkIndex);
  const results = { host: testHost === 'next' ? 'next start' : 'npm start', rounds: ROUNDS, cpu_slowdown: CPU_SLOWDOWN, benchmark_index: { min: Math.round(Math.min(...indexes)), median: Math.round(median(indexes)), max: Math.round(Math.max(...indexes)) }, floor: base, pages, machine: machine() };
  console.log(`\nLighthouse medians of ${ROUNDS} rounds on ${results.host}, ${CPU_SLOWDOWN}x CPU slowdown, CPU benchmark index ${results.benchmark_index.median} (${results.benchmark_index.min}-${results.benchmark_index.max}):`);
  console.log(`  floor (hello-world page)  performance ${base.performance.toFixed(2)}  TBT ${base.tbt_ms} ms`);
  for (const [name, p] of Object.entries(pages)) {
    const sign = (n: number) => (n >= 0 ? '+' : '');
    console.log(
      `  ${(auditedPages as Record<string, string>)[name].padEnd(24)}  performance ${p.performance.toFixed(2)} (${sign(p.performance_minus_floor)}${p.performance_minus_floor.toFixed(2)}; by round ${sign(p.paired.performance_minus_floor)}${p.paired.performance_minus_floor.toFixed(2)})  TBT ${p.tbt_ms} ms (${sign(p.tbt_minus_floor_ms)}${p.tbt_minus_floor_ms} ms; by round ${sign(p.paired.tbt_minus_floor_ms)}${p.paired.tbt_minus_floor_ms} ms)`,
    );
  }
  console.log(`written to ${writeResults(`lighthouse-${testHost}${CPU_SLOWDOWN === DEFAULT_CPU_SLOWDOWN ? '' : `-${CPU_SLOWDOWN}x`}`, results)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
