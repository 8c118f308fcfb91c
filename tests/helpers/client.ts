import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The reference client's CLI (client/), run as editors and the agent run it: the command npm links
// (client/bin/codetally), a process of its own with its own home.

export const cliPath = path.resolve(import.meta.dirname, '../../client/bin/codetally');

export function clientHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-client-'));
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts `codetally ...args` with CODETALLY_HOME=home; a variable of `env` set to undefined is removed. */
export function startCli(home: string, args: string[], env: Record<string, string | undefined> = {}): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(cliPath, args, { env: { ...process.env, CODETALLY_HOME: home, TZ: 'UTC', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<Run>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export const cli = (home: string, args: string[], env: Record<string, string | undefined> = {}) => startCli(home, args, env).done;

/** A user made through the admin API, with a token that syncs, reads its status bar and exports. */
export async function clientUser(base: string, adminToken: string): Promise<{ token: string; handle: string }> {
  const handle = `cl${Math.random().toString(36).slice(2, 10)}`;
  const res = await fetch(`${base}/main/api/v1/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle, token: { scopes: ['sync', 'stats', 'account'] } }),
  });
  if (res.status !== 201) throw new Error(`creating a user answered ${res.status}: ${await res.text()}`);
  return { token: ((await res.json()) as { token: string }).token, handle };
}

/** A fresh home configured (`codetally config`) for a new user of the server at `base`. */
export async function configuredHome(base: string, adminToken: string): Promise<{ home: string; token: string }> {
  const home = clientHome();
  const { token } = await clientUser(base, adminToken);
  const configured = await cli(home, ['config', '--api-url', base, '--token', token]);
  if (configured.code !== 0) throw new Error(`codetally config failed: ${configured.stderr}`);
  return { home, token };
}

/** Seconds stored for the user, per language (editor time) or per application (desktop time), from the account export. */
export async function storedSeconds(base: string, token: string): Promise<{ languages: Record<string, number>; apps: Record<string, number>; rows: number }> {
  const res = await fetch(`${base}/main/api/v1/me/export`, { headers: { authorization: `Bearer ${token}` } });
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
