// npm run bench:client — the reference client (client/) on this machine: the wall time of a
// `codetally heartbeat` call through the command npm links (editors call it on every save; goal
// p50 <= 100 ms) next to a bare `node -e 0` (the floor any Node program pays); the queue's size on disk per 10 000 events
// (goal < 1 MB), before and after the sender commits them (no server: the address is unreachable,
// so everything stays queued); and the desktop agent's CPU and memory under Xvfb
// (bench/client-agent.ts; goals < 1 % of a core and < 60 MB).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Codetally } from '../client/src/index';
import { agentBench } from './client-agent';
import { machine, percentile, writeResults } from './common';

const cli = path.resolve('client/bin/codetally');
const CALLS = Number(process.env.BENCH_CLIENT_CALLS ?? 200);

/** Wall times (ms) of `runs` runs of a command, sorted. */
function wallTimes(runs: number, command: string, args: string[], env: NodeJS.ProcessEnv): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(command, args, { env, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

/** Bytes the files under `dir` take: their sizes, and the disk blocks they hold. */
function diskUse(dir: string): { bytes: number; disk_bytes: number; files: number } {
  let bytes = 0;
  let disk = 0;
  let files = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const stat = fs.statSync(path.join(entry.parentPath, entry.name));
    bytes += stat.size;
    disk += stat.blocks * 512;
    files++;
  }
  return { bytes, disk_bytes: disk, files };
}

export async function clientBench(): Promise<Record<string, unknown>> {
  execFileSync(process.execPath, ['client/build.mjs'], { stdio: 'inherit' });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-bench-client-'));
  const results: Record<string, unknown> = { at: new Date().toISOString(), machine: machine() };
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, CODETALLY_HOME: home };
    new Codetally({ home }).configure({ api_url: 'http://127.0.0.1:9', token: 'ct_bench' });
    const heartbeat = ['heartbeat', '--entity', '/home/dev/src/app.ts', '--project', 'bench', '--editor', 'neovim', '--write'];
    wallTimes(10, cli, heartbeat, env); // warm the file cache
    // NODE_EXTRA_CA_CERTS makes every Node process read and parse that bundle before its first
    // line (~90 ms on some machines; the command starts a heartbeat without it): measured as set
    // here, and without it when it is set.
    const environments: [string, NodeJS.ProcessEnv][] = [['as set', env]];
    if (env.NODE_EXTRA_CA_CERTS) environments.push(['without NODE_EXTRA_CA_CERTS', { ...env, NODE_EXTRA_CA_CERTS: undefined }]);
    const figures: Record<string, unknown> = {};
    for (const [name, e] of environments) {
      const node = wallTimes(CALLS, process.execPath, ['-e', '0'], e);
      const calls = wallTimes(CALLS, cli, heartbeat, e);
      const row = { p50_ms: Math.round(percentile(calls, 50) * 10) / 10, p95_ms: Math.round(percentile(calls, 95) * 10) / 10, bare_node_p50_ms: Math.round(percentile(node, 50) * 10) / 10 };
      figures[name] = row;
      console.log(`codetally heartbeat (environment ${name}): p50 ${row.p50_ms} ms, p95 ${row.p95_ms} ms; a bare node -e 0: p50 ${row.bare_node_p50_ms} ms (${CALLS} calls each)`);
    }
    results.heartbeat_call = { calls: CALLS, ...figures };

    // 10 000 events 30 s apart (about 83 hours of work, three languages), then the sender's commit.
    const queueHome = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-bench-queue-'));
    try {
      const client = new Codetally({ home: queueHome });
      client.configure({ api_url: 'http://127.0.0.1:9', token: 'ct_bench' });
      const start = Date.now() - 13 * 86_400_000;
      for (let i = 0; i < 10_000; i++) client.heartbeat({ entity: `src/file${i % 40}.${['ts', 'go', 'rs'][i % 3]}`, project: `project${i % 4}`, editor: 'neovim', time: (start + i * 30_000) / 1000 });
      const recorded = diskUse(queueHome);
      await client.flush(); // commits, then finds nobody listening: everything stays queued
      const committed = diskUse(queueHome);
      const status = client.status();
      results.queue_per_10000_events = { before_commit: recorded, after_commit: committed, batches: status.batches, buckets: status.buckets };
      console.log(
        `queue of 10 000 events: ${recorded.files} files, ${(recorded.bytes / 1e6).toFixed(2)} MB (${(recorded.disk_bytes / 1e6).toFixed(1)} MB of disk blocks) until the sender commits them; ` +
          `then ${status.buckets} buckets in ${status.batches} batch(es): ${(committed.bytes / 1e3).toFixed(1)} KB (${(committed.disk_bytes / 1e3).toFixed(1)} KB of disk blocks)`,
      );
    } finally {
      fs.rmSync(queueHome, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
  results.agent = await agentBench();
  console.log(`\nwritten to ${writeResults('client', results)}`);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  clientBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
