import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cli, configuredHome, missingPrograms, startCli, startXSession, storedSeconds, xApps, type XSession } from '../helpers/client';

// The desktop agent (`codetally agent`) on a real X server of its own: Xvfb, openbox (which keeps
// _NET_ACTIVE_WINDOW, as every EWMH window manager does) and windows of two applications, focused
// in turn with xdotool; idle time comes from the X screensaver extension (xprintidle), which
// `xdotool mousemove` resets. The server must then hold, per application, the time it was in
// front while the person was active, and nothing else. CI installs the X programs and fails these
// tests without them; elsewhere they are skipped, saying which programs are missing.
const base = inject('baseUrl');
const adminToken = inject('adminToken');
const missing = missingPrograms();
const skip = missing.length > 0 && process.env.CI !== 'true';
if (skip) console.warn(`tests/e2e/client-agent.test.ts skipped: ${missing.join(', ')} not installed (Debian: xvfb openbox x11-utils x11-apps xprintidle xdotool)`);
const [A, B] = xApps.map((app) => app.className);
const homes: string[] = [];
let x: XSession | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A configured home for a new user (removed after the tests). */
async function agentHome(): Promise<{ home: string; reader: string }> {
  const made = await configuredHome(base, adminToken);
  homes.push(made.home);
  return made;
}

/** Starts the agent and waits until it has recorded its first sample. */
async function startAgent(home: string, args: string[]) {
  const agent = startCli(home, ['agent', '--poll-seconds', '0.2', ...args], { DISPLAY: x!.display });
  const events = path.join(home, 'events');
  for (let i = 0; !(fs.existsSync(events) && fs.readdirSync(events).some((n) => n.endsWith('.json'))); i++) {
    if (i > 400 || agent.child.exitCode !== null) {
      kill(agent);
      throw new Error(`the agent recorded nothing: ${(await agent.done).stderr}`);
    }
    await sleep(50);
  }
  return agent;
}

function kill(agent: ReturnType<typeof startCli>): void {
  if (agent.child.exitCode === null && agent.child.signalCode === null) agent.child.kill('SIGKILL');
}

/** Stops the agent as a session's end does (SIGTERM), then sends whatever is still queued; the instant of the stop. */
async function stopAgent(home: string, agent: ReturnType<typeof startCli>): Promise<number> {
  agent.child.kill('SIGTERM');
  const stoppedAt = Date.now();
  const run = await agent.done;
  expect(run, run.stderr).toMatchObject({ code: 0, signal: null });
  const flushed = await cli(home, ['flush']);
  expect(flushed.code, flushed.stdout + flushed.stderr).toBe(0);
  return stoppedAt;
}

/** Moves the pointer every 250 ms for `ms`: the instants of the first and the last input. */
async function input(ms: number): Promise<{ first: number; last: number }> {
  const start = Date.now();
  let first = 0;
  let last = 0;
  for (let i = 0; i === 0 || Date.now() - start < ms; i++) {
    const before = Date.now();
    await x!.x('xdotool', ['mousemove', String(60 + (i % 2) * 40), String(60 + (i % 2) * 20)]);
    first ||= before;
    last = before;
    await sleep(250);
  }
  return { first, last };
}

describe.skipIf(skip)('the desktop agent on X11', () => {
  beforeAll(async () => {
    if (missing.length > 0) throw new Error(`the desktop agent's tests need ${missing.join(', ')} (Debian: xvfb openbox x11-utils x11-apps xprintidle xdotool)`);
    x = await startXSession();
    // Under Xvfb the idle time comes from the MIT-SCREEN-SAVER extension, and pointer motion resets it.
    await x.x('xdotool', ['mousemove', '5', '5']);
    expect(await x.idleMs()).toBeLessThan(1000);
  });

  afterAll(async () => {
    await x?.stop();
    homes.forEach((h) => fs.rmSync(h, { recursive: true, force: true }));
  });

  it('credits each application with the time it was in front, and nothing else', async () => {
    const { home, reader } = await agentHome();
    await x!.blur();
    const agent = await startAgent(home, []);
    try {
      await sleep(1000); // no window in front: nobody's time
      await x!.activate(x!.windows[A]);
      const aFrom = Date.now();
      await sleep(4000);
      await x!.activate(x!.windows[B]);
      const bFrom = Date.now();
      await sleep(3000);
      const end = await stopAgent(home, agent);

      const { apps, languages } = await storedSeconds(base, reader);
      expect(Object.keys(apps).sort(), JSON.stringify(apps)).toEqual([A, B].sort());
      expect(languages).toEqual({});
      // Within the poll interval (0.2 s) and the time xdotool takes to report the switch.
      expect(Math.abs(apps[A] - (bFrom - aFrom) / 1000), JSON.stringify({ apps, expected: [(bFrom - aFrom) / 1000, (end - bFrom) / 1000] })).toBeLessThanOrEqual(0.5);
      expect(Math.abs(apps[B] - (end - bFrom) / 1000), JSON.stringify({ apps, expected: [(bFrom - aFrom) / 1000, (end - bFrom) / 1000] })).toBeLessThanOrEqual(0.5);
    } finally {
      kill(agent);
    }
  }, 60_000);

  it('leaves out the time without input beyond the idle limit', async () => {
    const { home, reader } = await agentHome();
    await x!.activate(x!.windows[A]);
    // The person has been away longer than the limit (3 s) when the agent starts.
    while ((await x!.idleMs()) < 3500) await sleep(200);
    const agent = await startAgent(home, ['--idle-minutes', '0.05']);
    try {
      await sleep(500);
      const first = await input(3000);
      await sleep(8000); // no input: away after 3 s, which the agent dates back to the last input
      const second = await input(2000);
      const end = await stopAgent(home, agent);

      const active = (first.last - first.first + (end - second.first)) / 1000;
      const { apps } = await storedSeconds(base, reader);
      expect(Object.keys(apps), JSON.stringify(apps)).toEqual([A]);
      // Within a second of the active time (the away time and the 3 s before the limit are left out).
      expect(Math.abs(apps[A] - active), JSON.stringify({ apps, active })).toBeLessThanOrEqual(1);
    } finally {
      kill(agent);
    }
  }, 60_000);
});
