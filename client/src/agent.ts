import os from 'node:os';
import { desktopEvent } from './events';
import { flush } from './flush';
import type { Home } from './home';
import { Queue } from './queue';

// The desktop agent: every few seconds it asks the desktop which application is in front and how
// long the person has been idle, and records an event when the application changes, when the
// person goes idle or comes back, and every two minutes while they stay with one application (so
// that no gap between events exceeds the 15 minutes that count). Time between an application's
// event and the next event is that application's; from going idle (backdated to the last input)
// to coming back is nobody's. Stopping records the end of the last application's time.

export interface Desktop {
  /** The application in front (its class name), or null when no window has the focus. */
  focused(): Promise<string | null>;
  /** Milliseconds since the last keyboard or pointer input. */
  idleMs(): Promise<number>;
  close(): void;
}

export interface AgentOptions {
  pollMs?: number;
  /** Input-less time after which the person counts as away. */
  idleLimitMs?: number;
  /** The longest time between two events of the same application. */
  tickMs?: number;
  flushEveryMs?: number;
  /** One sample and a flush, then stop (for a scheduler that runs the agent every minute). */
  once?: boolean;
  signal?: AbortSignal;
}

export async function runAgent(home: Home, desktop: Desktop, options: AgentOptions = {}): Promise<void> {
  const { pollMs = 5000, idleLimitMs = 5 * 60_000, tickMs = 120_000, flushEveryMs = 60_000 } = options;
  const queue = new Queue(home);
  const platform = os.type();
  /** The application of the last event recorded ('' idle or nothing in front; null none yet). */
  let current: string | null = null;
  let lastAt = 0;
  let lastFlush = Date.now();
  const record = (app: string, at: number) => {
    lastAt = Math.max(at, lastAt);
    queue.record(desktopEvent({ app, platform, time: lastAt / 1000 }));
    current = app;
  };
  /** Whether the last sample found the person away (no input for idleLimitMs). */
  let away = false;
  const sample = async () => {
    const now = Date.now();
    const idle = await desktop.idleMs();
    const wasAway = away;
    away = idle >= idleLimitMs;
    const app = away ? '' : ((await desktop.focused()) ?? '');
    // Going away is dated back to the last input and coming back to the latest one; any other
    // change (another window, no window in front, the first sample) happened now.
    const backdated = current !== null && (away ? current !== '' : wasAway);
    if (app !== current) record(app, backdated ? now - idle : now);
    else if (app !== '' && now - lastAt >= tickMs) record(app, now);
  };
  try {
    await sample();
    while (!options.once && !options.signal?.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        options.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      if (options.signal?.aborted) break;
      await sample();
      if (Date.now() - lastFlush >= flushEveryMs) {
        lastFlush = Date.now();
        await flush(home).catch((err) => home.log(`agent flush failed: ${(err as Error).message}`));
      }
    }
    if (!options.once && current) record('', Date.now());
  } finally {
    desktop.close();
  }
  await flush(home, { force: true });
}
