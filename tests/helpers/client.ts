import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

// The reference client's CLI (client/), run as editors and the agent run it: the command npm links
// (client/bin/codetally), a process of its own with its own home.

export const cliPath = path.resolve(import.meta.dirname, '../../client/bin/codetally');

export function clientHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-client-'));
}

/** The processes running with CODETALLY_HOME=home (Linux: from /proc), the senders a command left in the background included. */
function processesOf(home: string): number[] {
  if (process.platform !== 'linux') return [];
  const mark = Buffer.from(`\0CODETALLY_HOME=${home}\0`);
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((pid) => {
    try {
      return Buffer.concat([Buffer.from('\0'), fs.readFileSync(`/proc/${pid}/environ`)]).includes(mark) ? [Number(pid)] : [];
    } catch {
      return []; // gone, or not ours to read
    }
  });
}

/**
 * Removes a client's home once no process of that home runs: a heartbeat starts its sender
 * detached (`flush --background`), which may commit and send after the command that started it,
 * and after a later foreground flush, has returned. Removing the folder under it would race its
 * writes (ENOTEMPTY); waiting for it does not.
 */
export async function removeHome(home: string): Promise<void> {
  for (let waited = 0; processesOf(home).length > 0; waited += 50) {
    if (waited > 60_000) throw new Error(`processes of ${home} still run after a minute: ${processesOf(home).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  fs.rmSync(home, { recursive: true, force: true });
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts `codetally ...args` with CODETALLY_HOME=home; a variable of `env` set to undefined is
 * removed. Standard input is empty, or `input`; with `input: null` it stays open for the caller.
 */
export function startCli(home: string, args: string[], env: Record<string, string | undefined> = {}, input?: string | null): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(cliPath, args, { env: { ...process.env, CODETALLY_HOME: home, TZ: 'UTC', ...env }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (typeof input === 'string') child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<Run>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export const cli = (home: string, args: string[], env: Record<string, string | undefined> = {}, input?: string) => startCli(home, args, env, input).done;

/**
 * A user made through the admin API, and two tokens: `token`, for the client, made with no scope
 * named (`POST /me/tokens`, as the dashboard's token form makes it: the plugin token users are
 * given), and `reader`, with `account`, for the tests to read what was stored.
 */
export async function clientUser(base: string, adminToken: string): Promise<{ token: string; reader: string; handle: string }> {
  const handle = `cl${Math.random().toString(36).slice(2, 10)}`;
  const res = await fetch(`${base}/main/api/v1/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle, token: { scopes: ['account'] } }),
  });
  if (res.status !== 201) throw new Error(`creating a user answered ${res.status}: ${await res.text()}`);
  const reader = ((await res.json()) as { token: string }).token;
  const issued = await fetch(`${base}/main/api/v1/me/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'editor' }),
  });
  if (issued.status !== 201) throw new Error(`issuing a token answered ${issued.status}: ${await issued.text()}`);
  return { token: ((await issued.json()) as { token: string }).token, reader, handle };
}

/** A fresh home configured (`codetally config --token-stdin`) for a new user of the server at `base`. */
export async function configuredHome(base: string, adminToken: string): Promise<{ home: string; token: string; reader: string }> {
  const home = clientHome();
  const { token, reader } = await clientUser(base, adminToken);
  const configured = await cli(home, ['config', '--api-url', base, '--token-stdin'], {}, `${token}\n`);
  if (configured.code !== 0) throw new Error(`codetally config failed: ${configured.stderr}`);
  return { home, token, reader };
}

/** How `codetally config` is given the token (client/README.md, in the order it recommends them). */
export type TokenPassing = 'stdin' | 'env' | 'argument';

/**
 * Runs, in a fresh home, every command of client/README.md that reaches the service, with
 * `token` passed as `via` says: config, heartbeat, flush, today, status, and heartbeat with
 * `flush --background`. Each run, by command; the home is removed after.
 */
export async function everyCommand(base: string, token: string, via: TokenPassing): Promise<Record<'config' | 'heartbeat' | 'flush' | 'today' | 'status' | 'background' | 'after', Run>> {
  const home = clientHome();
  try {
    const env = via === 'env' ? { CODETALLY_TOKEN: token } : { CODETALLY_TOKEN: undefined };
    const run = (args: string[], input?: string) => cli(home, args, env, input);
    const config =
      via === 'stdin'
        ? await run(['config', '--api-url', base, '--token-stdin'], `${token}\n`)
        : await run(['config', '--api-url', base, ...(via === 'argument' ? ['--token', token] : [])]);
    const now = Date.now() / 1000;
    let heartbeat: Run | undefined;
    for (const ago of [130, 70, 10]) {
      heartbeat = await run(['heartbeat', '--entity', 'src/app.ts', '--project', 'every-command', '--editor', 'neovim', '--time', (now - ago).toFixed(3)]);
      if (heartbeat.code !== 0) break;
    }
    const flush = await run(['flush']);
    const today = await run(['today']);
    const status = await run(['status']);
    await run(['heartbeat', '--language', 'Go', '--time', (Date.now() / 1000).toFixed(3)]);
    const background = await run(['flush', '--background']);
    const after = await run(['status']);
    return { config, heartbeat: heartbeat!, flush, today, status, background, after };
  } finally {
    await removeHome(home);
  }
}

/** What every run of `everyCommand` must show: each command done, today's time shown, nothing left queued or failed. */
export const everyCommandWorks = {
  config: { code: 0, stderr: '' },
  heartbeat: { code: 0, stderr: '' },
  // A heartbeat may have started a sender that delivered first (its events are over a minute old).
  flush: { code: 0, stdout: expect.stringMatching(/^delivered \d+ batch\(es\), dropped 0, 0 queued\n$/) },
  today: { code: 0, stdout: expect.stringMatching(/^(\d+ hrs? )?\d+ (mins?|secs?)\n$/), stderr: '' },
  status: { code: 0, stdout: expect.stringContaining('last error: none') },
  background: { code: 0 },
  after: { code: 0, stdout: expect.stringMatching(/queued: 0 event\(s\) not counted yet, 0 batch\(es\)[^]*last error: none/) },
};

/** Seconds stored for the user, per language (editor time) or per application (desktop time), from the account export (`reader`: a token with `account`). */
export async function storedSeconds(base: string, reader: string): Promise<{ languages: Record<string, number>; apps: Record<string, number>; rows: number }> {
  const res = await fetch(`${base}/main/api/v1/me/export`, { headers: { authorization: `Bearer ${reader}` } });
  if (!res.ok) throw new Error(`export answered ${res.status}`);
  const body = (await res.json()) as { activities: { language: string; time: number }[]; desktop_activities: { app: string; time: number }[] };
  const languages: Record<string, number> = {};
  const apps: Record<string, number> = {};
  for (const a of body.activities) languages[a.language] = Math.round(((languages[a.language] ?? 0) + a.time) * 1000) / 1000;
  for (const a of body.desktop_activities) apps[a.app] = Math.round(((apps[a.app] ?? 0) + a.time) * 1000) / 1000;
  return { languages, apps, rows: body.activities.length + body.desktop_activities.length };
}

/** The X programs the desktop agent's tests and bench run (Debian: xvfb, openbox, x11-utils, x11-apps, xprintidle, xdotool). */
export const xPrograms = ['Xvfb', 'openbox', 'xprop', 'xprintidle', 'xdotool', 'xmessage', 'xlogo'];

/** The programs of `names` not found on PATH. */
export function missingPrograms(names: string[] = xPrograms): string[] {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return names.filter((name) => !dirs.some((dir) => {
    try {
      fs.accessSync(path.join(dir, name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }));
}

/** An X session of its own: a virtual screen (Xvfb), a window manager that keeps _NET_ACTIVE_WINDOW (openbox) and windows of two applications. */
export interface XSession {
  /** DISPLAY, e.g. ":3". */
  display: string;
  /** The window id of each application, by its WM_CLASS class name. */
  windows: Record<string, string>;
  /** Runs an X program on this display and returns its output. */
  x(command: string, args: string[]): Promise<string>;
  /** Brings a window to the front and waits until the window manager reports it active. */
  activate(id: string): Promise<void>;
  /** Minimizes every window: no window is active. */
  blur(): Promise<void>;
  /** Milliseconds since the last input on this display (the X screensaver extension). */
  idleMs(): Promise<number>;
  /** Ends every process of the session. */
  stop(): Promise<void>;
}

/** The applications of an X session: xmessage (class "Xmessage", x11-utils) and xlogo (class "XLogo", x11-apps), both taking the focus. */
export const xApps = [
  { className: 'Xmessage', command: 'xmessage', args: ['-geometry', '300x100+20+20', 'Codetally test window'] },
  { className: 'XLogo', command: 'xlogo', args: ['-geometry', '200x200+400+20'] },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts Xvfb on a free display (it picks one: -displayfd), openbox, and the windows of `xApps`. */
export async function startXSession(): Promise<XSession> {
  const children: ChildProcess[] = [];
  const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-x-'));
  const stop = async () => {
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(2000).then(() => child.kill('SIGKILL'))]);
    }
    fs.rmSync(configHome, { recursive: true, force: true });
  };
  try {
    const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1024x768x24', '-nolisten', 'tcp', '-noreset'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(xvfb);
    let xvfbOutput = '';
    xvfb.stderr!.on('data', (d) => (xvfbOutput = (xvfbOutput + d).slice(-2000)));
    const number = await new Promise<string>((resolve, reject) => {
      let out = '';
      xvfb.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(out.trim());
      });
      xvfb.once('error', reject);
      xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${xvfbOutput}`)));
      setTimeout(() => reject(new Error(`Xvfb did not start: ${xvfbOutput}`)), 30_000);
    });
    const display = `:${number}`;
    const env = { ...process.env, DISPLAY: display, XDG_CONFIG_HOME: configHome };
    const x = (command: string, args: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile(command, args, { env, timeout: 30_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${command} ${args.join(' ')}: ${err.message} ${stderr}`)) : resolve(stdout))),
      );
    const start = (command: string, args: string[]) => {
      const child = spawn(command, args, { env, stdio: 'ignore' });
      child.on('error', () => {});
      children.push(child);
      return child;
    };
    start('openbox', []);
    // The window manager is up when it announces itself on the root window.
    for (let i = 0; !/window id # 0x[1-9a-f]/i.test(await x('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK']).catch(() => '')); i++) {
      if (i > 300) throw new Error('openbox did not start');
      await sleep(100);
    }
    const windows: Record<string, string> = {};
    for (const app of xApps) {
      start(app.command, app.args);
      // xdotool's window ids are decimal; xprop's are hexadecimal (the agent reads those).
      const found = await x('xdotool', ['search', '--sync', '--onlyvisible', '--class', `^${app.className}$`]);
      windows[app.className] = `0x${Number(found.trim().split('\n')[0]).toString(16)}`;
    }
    const active = async () => /#\s*(0x[0-9a-f]+)/i.exec(await x('xprop', ['-root', '_NET_ACTIVE_WINDOW']))?.[1] ?? '';
    return {
      display,
      windows,
      x,
      async activate(id) {
        await x('xdotool', ['windowactivate', '--sync', String(Number(id))]);
        for (let i = 0; Number(await active()) !== Number(id); i++) {
          if (i > 500) throw new Error(`window ${id} did not become active`);
          await sleep(20);
        }
      },
      async blur() {
        for (const id of Object.values(windows)) await x('xdotool', ['windowminimize', '--sync', String(Number(id))]);
        for (let i = 0; Number(await active()) !== 0; i++) {
          if (i > 500) throw new Error('a window stayed active');
          await sleep(20);
        }
      },
      async idleMs() {
        return Number((await x('xprintidle', [])).trim());
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The reference client's Neovim plugin (client/nvim), for the runtimepath. */
export const nvimPluginDir = path.resolve(import.meta.dirname, '../../client/nvim');

/**
 * Runs Debian's Neovim headless (`nvim --headless -u <init> -i NONE -n`) in `cwd` until it quits,
 * with a configuration and data of its own (no user plugins), killed after `timeoutMs`.
 * Resolves with its output and how long it ran.
 */
export async function runNeovim(options: { cwd: string; init: string; env?: Record<string, string>; timeoutMs?: number }): Promise<Run & { ms: number }> {
  const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-nvim-'));
  const dirs = Object.fromEntries(['CONFIG', 'DATA', 'STATE', 'CACHE'].map((d) => [`XDG_${d}_HOME`, path.join(xdg, d.toLowerCase())]));
  const started = performance.now();
  const child = spawn('nvim', ['--headless', '-u', options.init, '-i', 'NONE', '-n'], {
    cwd: options.cwd,
    env: { ...process.env, ...dirs, TZ: 'UTC', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  try {
    return await new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: performance.now() - started }));
    });
  } finally {
    clearTimeout(timer);
    fs.rmSync(xdg, { recursive: true, force: true });
  }
}
