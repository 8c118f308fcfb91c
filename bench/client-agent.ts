// npx tsx bench/client-agent.ts — what the desktop agent (`codetally agent`, default poll of 5 s)
// costs the machine it watches: on an X server of its own (Xvfb, openbox, two windows, the focus
// switched every 10 s) for BENCH_AGENT_SECONDS (60), the CPU of the agent and of the X programs it
// starts (xprop, xprintidle), as percent of one core, and the agent's peak memory (VmHWM). The
// agent's home is configured for an address where nothing listens, so it keeps queuing and its
// flushes fail, as on a machine offline. Needs Xvfb, openbox, x11-utils, x11-apps, xprintidle and
// xdotool.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cli, clientHome, missingPrograms, startCli, startXSession } from '../tests/helpers/client';
import { machine, writeResults } from './common';

const SECONDS = Number(process.env.BENCH_AGENT_SECONDS ?? 60);
const SWITCH_EVERY_MS = 10_000;
const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, ...]; null once the process is gone. */
function stat(pid: number): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU seconds of a process and its children: its own utime+stime, cutime+cstime (the children it
 * has waited for: each xprop -id and xprintidle run), and the utime+stime of children still running
 * (the long-running xprop -spy), read from /proc.
 */
function cpuSeconds(pid: number): number {
  const own = stat(pid);
  if (!own) return NaN;
  // Fields 14-17 of stat (utime, stime, cutime, cstime) are indexes 11-14 here.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = stat(Number(entry));
    if (child && Number(child[1]) === pid) ticks += Number(child[11]) + Number(child[12]);
  }
  return ticks / TICKS_PER_S;
}

/** The peak resident memory of a process (VmHWM), MB. */
function peakRssMb(pid: number): number {
  const kb = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round((kb / 1024) * 10) / 10;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function agentBench(): Promise<Record<string, unknown>> {
  const missing = missingPrograms();
  if (missing.length > 0) throw new Error(`the agent bench needs ${missing.join(', ')} (Debian: xvfb openbox x11-utils x11-apps xprintidle xdotool)`);
  execFileSync(process.execPath, ['client/build.mjs'], { stdio: 'inherit', cwd: path.resolve(import.meta.dirname, '..') });
  const x = await startXSession();
  const home = clientHome();
  try {
    const configured = await cli(home, ['config', '--api-url', 'http://127.0.0.1:9', '--token', 'bench-token']);
    if (configured.code !== 0) throw new Error(`codetally config failed: ${configured.stderr}`);
    const windows = Object.values(x.windows);
    await x.activate(windows[0]);
    const agent = startCli(home, ['agent'], { DISPLAY: x.display });
    const pid = agent.child.pid!;
    try {
      // Its start (node, the bundle, the first sample) is counted apart from its steady cost.
      const events = path.join(home, 'events');
      for (let i = 0; !(fs.existsSync(events) && fs.readdirSync(events).length > 0); i++) {
        if (i > 200 || agent.child.exitCode !== null) throw new Error(`the agent recorded nothing: ${(await agent.done).stderr}`);
        await sleep(50);
      }
      const startCpu = cpuSeconds(pid);
      const t0 = performance.now();
      const until = (ms: number) => sleep(Math.max(0, t0 + ms - performance.now()));
      let switches = 0;
      for (let k = 1; k * SWITCH_EVERY_MS < SECONDS * 1000; k++) {
        await until(k * SWITCH_EVERY_MS);
        await x.activate(windows[++switches % windows.length]);
      }
      await until(SECONDS * 1000);
      const endCpu = cpuSeconds(pid);
      const elapsed = (performance.now() - t0) / 1000;
      const peak = peakRssMb(pid);
      agent.child.kill('SIGTERM');
      const run = await agent.done;
      if (run.code !== 0) throw new Error(`the agent ended with ${run.code ?? run.signal}: ${run.stderr}`);
      // What the agent left queued (its flushes found nobody listening).
      const queued = (await cli(home, ['status'])).stdout.split('\n')[0].replace(/^queued: /, '');
      const results = {
        seconds: Math.round(elapsed * 10) / 10,
        poll_seconds: 5,
        focus_switches: switches,
        cpu_percent_of_core: Math.round(((endCpu - startCpu) / elapsed) * 100 * 100) / 100,
        cpu_seconds: Math.round((endCpu - startCpu) * 100) / 100,
        startup_cpu_seconds: Math.round(startCpu * 100) / 100,
        peak_rss_mb: peak,
        queued,
        clock_ticks_per_s: TICKS_PER_S,
        machine: machine(),
      };
      console.log(
        `desktop agent, poll 5 s, ${results.seconds} s, focus switched ${switches} times: CPU ${results.cpu_percent_of_core} % of one core ` +
          `(${results.cpu_seconds} s, with its xprop and xprintidle; start ${results.startup_cpu_seconds} s more), peak RSS ${peak} MB; queued: ${queued}`,
      );
      console.log(`results: ${writeResults('client-agent', results)}`);
      return results;
    } finally {
      if (agent.child.exitCode === null && agent.child.signalCode === null) agent.child.kill('SIGKILL');
    }
  } finally {
    await x.stop();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  agentBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
