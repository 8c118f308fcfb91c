import { execFile, spawn } from 'node:child_process';
import readline from 'node:readline';
import { promisify } from 'node:util';
import type { Desktop } from './agent';

// The desktop of an X11 session, read with Debian's x11-utils and xprintidle: the window in front
// from the window manager's _NET_ACTIVE_WINDOW (EWMH; every desktop environment's window manager
// keeps it), received from one long-running `xprop -spy` rather than a process per sample; its
// application from WM_CLASS (the class name, "Firefox", "XTerm"); idle time from the X screensaver
// extension (`xprintidle`).

const run = promisify(execFile);

/** The class name of a WM_CLASS line (`WM_CLASS(STRING) = "xterm", "XTerm"`), or its instance name. */
export function className(line: string): string | null {
  const names = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
  return names[1] || names[0] || null;
}

/** The window id of an _NET_ACTIVE_WINDOW line (`_NET_ACTIVE_WINDOW(WINDOW): window id # 0x1c00003`); null for none. */
export function activeWindow(line: string): string | null {
  const id = /#\s*(0x[0-9a-f]+)/i.exec(line)?.[1];
  return id && Number.parseInt(id, 16) !== 0 ? id : null;
}

export async function x11Desktop(): Promise<Desktop> {
  if (!process.env.DISPLAY) throw new Error('no X11 display: DISPLAY is not set');
  const spy = spawn('xprop', ['-root', '-spy', '_NET_ACTIVE_WINDOW'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let window: string | null = null;
  let heard!: () => void;
  const first = new Promise<void>((resolve) => (heard = resolve));
  spy.on('error', (err) => {
    console.error(`codetally agent: xprop could not run (install x11-utils): ${err.message}`);
  });
  readline.createInterface({ input: spy.stdout! }).on('line', (line) => {
    window = activeWindow(line);
    heard();
  });
  spy.on('exit', () => {
    // Without the spy nothing tells which window is in front: none, rather than the last one for ever.
    window = null;
    heard();
  });
  await Promise.race([first, new Promise((r) => setTimeout(r, 2000))]);
  // The class of the window in front, read again when another window comes to the front (the X
  // server gives the ids of closed windows to new ones, so a longer-lived cache could name the wrong
  // application).
  let known: { id: string; name: string } | null = null;
  let warned = false;
  return {
    async focused() {
      const id = window;
      if (!id) return null;
      if (known?.id !== id) {
        const line = await run('xprop', ['-id', id, 'WM_CLASS']).then((r) => r.stdout, () => '');
        const name = className(line);
        if (!name) return null;
        known = { id, name };
      }
      return known.name;
    },
    async idleMs() {
      try {
        return Number((await run('xprintidle')).stdout.trim()) || 0;
      } catch (err) {
        if (!warned) console.error(`codetally agent: idle time unknown, counting all time as active (install xprintidle): ${(err as Error).message}`);
        warned = true;
        return 0;
      }
    },
    close() {
      spy.kill();
    },
  };
}
