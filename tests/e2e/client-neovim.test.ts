import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Codetally } from '../../client/src/index';
import { cli, cliPath, configuredHome, missingPrograms, nvimPluginDir, runNeovim, storedSeconds } from '../helpers/client';

// The Neovim plugin (client/nvim) in Debian's neovim, headless, calling the real CLI against the
// production server. A Lua script drives the editor as a person does (real keys through the
// typeahead, so that Neovim fires TextChanged/TextChangedI itself; real seconds between steps on
// timers, so that the main loop runs between them) and records every process the plugin starts,
// with the instant it started it. The server must then hold, per language and project, exactly the
// time between the heartbeats the editor sent. CI installs neovim; a machine without it skips
// these tests and says why.
const base = inject('baseUrl');
const adminToken = inject('adminToken');
const missing = missingPrograms(['nvim']);
const skip = missing.length > 0 && process.env.CI !== 'true';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tempDir(prefix: string): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  dirs.push(d);
  return d;
}

/** A Lua string literal (paths and commands of this test are ASCII). */
function lua(value: string): string {
  const literal = JSON.stringify(value);
  if (/\\u/.test(literal)) throw new Error(`not a plain string for Lua: ${literal}`);
  return literal;
}

const luaList = (values: string[]) => `{ ${values.map(lua).join(', ')} }`;

// Loaded by each session's init before the plugin: records every job the plugin starts (argv,
// wall-clock instant, step) and every vim.notify, and runs the steps on timers. A step is
// { name, wait = ms before it, run = function, ['until'] = predicate to wait for afterwards }.
// At the end it waits until the plugin has no running job (unless told not to), writes what it
// saw as JSON and quits.
const harness = `
local uv = vim.loop
local H = { out = { calls = {}, notes = {}, steps = {} }, step = '' }
_G.H = H
-- Wall-clock seconds, as a string: json_encode would round a float to 6 digits.
function H.now()
  local s, us = uv.gettimeofday()
  return ('%d.%06d'):format(s, us)
end
local jobstart = vim.fn.jobstart
vim.fn.jobstart = function(argv, opts)
  table.insert(H.out.calls, { argv = argv, at = H.now(), step = H.step })
  return jobstart(argv, opts)
end
vim.notify = function(msg, level)
  table.insert(H.out.notes, { msg = msg, level = level or vim.log.levels.INFO, step = H.step })
end
function H.keys(keys, mode)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), mode or 't', false)
end
local function poll(done, timeout_ms, after)
  local deadline = uv.hrtime() + timeout_ms * 1e6
  local function check()
    if done() or uv.hrtime() > deadline then
      after()
    else
      vim.defer_fn(check, 20)
    end
  end
  check()
end
function H.run(steps, out, wait_for_jobs)
  local i = 0
  local function finish()
    local codetally = require('codetally')
    H.out.pending = codetally.pending()
    H.out.status = codetally.status()
    H.out.errmsg = vim.v.errmsg
    H.out.mode = vim.api.nvim_get_mode().mode
    H.out.messages = vim.fn.execute('messages')
    vim.fn.writefile({ vim.fn.json_encode(H.out) }, out)
    vim.cmd('qa!')
  end
  local function next_step()
    i = i + 1
    local step = steps[i]
    if not step then
      if wait_for_jobs then
        return poll(function() return require('codetally').pending() == 0 end, 15000, finish)
      end
      return finish()
    end
    local s, us = uv.gettimeofday()
    local planned = ('%.6f'):format(s + us / 1e6 + step.wait / 1000)
    vim.defer_fn(function()
      H.step = step.name
      local record = { name = step.name, planned = planned, start = H.now() }
      table.insert(H.out.steps, record)
      step.run()
      record.finish = H.now()
      poll(step['until'] or function() return true end, 10000, next_step)
    end, step.wait)
  end
  next_step()
end
`;

interface Call {
  argv: string[];
  at: number;
  step: string;
}

type Step = { name: string; planned: number; start: number; finish: number };

interface Session {
  calls: Call[];
  notes: { msg: string; level: number; step: string }[];
  steps: Step[];
  pending: number;
  status: string;
  errmsg: string;
  mode: string;
  messages: string;
  statusAtStart?: string;
  loaded?: boolean;
  today?: string;
}

/** Writes the init and runs one editor session in `cwd`; what the harness saw. */
async function session(options: { cwd: string; home: string; cmd: string[]; setup: string | null; steps: string; waitForJobs?: boolean; globals?: string }) {
  const dir = tempDir('codetally-nvim-session-');
  const out = path.join(dir, 'out.json');
  fs.writeFileSync(path.join(dir, 'harness.lua'), harness);
  const init = path.join(dir, 'init.lua');
  fs.writeFileSync(
    init,
    `vim.opt.runtimepath:prepend(${lua(nvimPluginDir)})
vim.g.codetally_cmd = ${luaList(options.cmd)}
${options.globals ?? ''}
dofile(${lua(path.join(dir, 'harness.lua'))})
${options.setup === null ? '' : `require('codetally').setup(${options.setup})`}
local steps = ${options.steps}
vim.api.nvim_create_autocmd('VimEnter', { once = true, callback = function()
  H.out.statusAtStart = package.loaded.codetally and package.loaded.codetally.status() or nil
  H.out.loaded = vim.g.loaded_codetally == true
  H.run(steps, ${lua(out)}, ${options.waitForJobs === false ? 'false' : 'true'})
end })
`,
  );
  const run = await runNeovim({ cwd: options.cwd, init, env: { CODETALLY_HOME: options.home } });
  expect(run, run.stderr).toMatchObject({ code: 0, signal: null });
  if (!fs.existsSync(out)) throw new Error(`the editor quit before the script ended: ${run.stdout.slice(-2000)}${run.stderr}`);
  const seen = JSON.parse(fs.readFileSync(out, 'utf8'), (key, value) => (['at', 'planned', 'start', 'finish'].includes(key) ? Number(value) : value)) as Session;
  return { ...seen, ms: run.ms };
}

/** A configured home for a new user of the test server (removed after the tests). */
async function configuredHomeHere(): Promise<{ home: string; reader: string }> {
  const made = await configuredHome(base, adminToken);
  dirs.push(made.home);
  return made;
}

/** A git-less project folder named demo (a.ts, b.lua) beside a git repository named tallyrepo (main.go). */
function projects(): { demo: string; repo: string } {
  const root = tempDir('codetally-nvim-projects-');
  const demo = path.join(root, 'demo');
  const repo = path.join(root, 'tallyrepo');
  fs.mkdirSync(demo);
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  fs.writeFileSync(path.join(demo, 'a.ts'), 'export const a = 1;\n');
  fs.writeFileSync(path.join(demo, 'b.lua'), 'local b = 1\n');
  fs.writeFileSync(path.join(repo, 'main.go'), 'package main\n');
  return { demo, repo };
}

/** The options of a heartbeat's argv: `--name=value`, `--name value` and `--flag`. */
function flags(argv: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const option = /^--([^=]+)(?:=(.*))?$/s.exec(argv[i]);
    if (!option) continue;
    if (option[2] !== undefined) out[option[1]] = option[2];
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[option[1]] = argv[++i];
    else out[option[1]] = true;
  }
  return out;
}

const heartbeats = (s: Session) => s.calls.filter((c) => c.argv.includes('heartbeat'));
const WARN = 3; // vim.log.levels.WARN

describe.skipIf(skip)(`the Neovim plugin${skip ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  it('sends a heartbeat on entering, typing (throttled per file) and writing; the server holds the time between them per language and project', async () => {
    const { home, reader } = await configuredHomeHere();
    const { demo, repo } = projects();
    const s = await session({
      cwd: demo,
      home,
      cmd: [cliPath],
      setup: '{ heartbeat_interval = 1.5, today_after_write = 1 }',
      steps: `{
        { name = 'open a.ts', wait = 100, run = function() vim.cmd('edit a.ts') end },
        { name = 'type in a.ts at once', wait = 300, run = function() H.keys('ihello') end },
        { name = 'type in a.ts later', wait = 1700, run = function() H.keys(' world') end },
        { name = 'leave insert mode', wait = 300, run = function() H.keys('<Esc>') end },
        { name = 'write a.ts', wait = 300, run = function() vim.cmd('write') end },
        { name = 'open b.lua', wait = 500, run = function() vim.cmd('edit b.lua') end },
        { name = 'type in b.lua at once', wait = 300, run = function() H.keys('oprint(1)<Esc>') end },
        { name = 'type in b.lua later', wait = 1700, run = function() H.keys('oprint(2)<Esc>') end },
        { name = 'write b.lua', wait = 300, run = function() vim.cmd('write') end },
        { name = 'open main.go', wait = 400, run = function() vim.cmd('edit ../tallyrepo/main.go') end },
        { name = 'back to a.ts', wait = 600, run = function() vim.cmd('edit a.ts') end },
      }`,
    });
    expect(s.errmsg).toBe('');
    expect(s.notes).toEqual([]);
    expect(s.pending).toBe(0);
    expect(fs.readFileSync(path.join(demo, 'a.ts'), 'utf8')).toBe('hello worldexport const a = 1;\n');
    expect(fs.readFileSync(path.join(demo, 'b.lua'), 'utf8')).toBe('local b = 1\nprint(1)\nprint(2)\n');

    // Which steps sent a heartbeat: typing in the same file within the interval does not; another file, and a write, do at once.
    const beats = heartbeats(s).map((c) => ({ ...c, flags: flags(c.argv) }));
    expect(beats.map((b) => [b.step, b.flags.language, b.flags.project, b.flags.write ?? false])).toEqual([
      ['open a.ts', 'TypeScript', 'demo', false],
      ['type in a.ts later', 'TypeScript', 'demo', false],
      ['write a.ts', 'TypeScript', 'demo', true],
      ['open b.lua', 'Lua', 'demo', false],
      ['type in b.lua later', 'Lua', 'demo', false],
      ['write b.lua', 'Lua', 'demo', true],
      ['open main.go', 'Go', 'tallyrepo', false],
      ['back to a.ts', 'TypeScript', 'demo', false],
    ]);
    const files = { TypeScript: path.join(demo, 'a.ts'), Lua: path.join(demo, 'b.lua'), Go: path.join(repo, 'main.go') };
    for (const b of beats) {
      expect(b.argv.slice(0, 2)).toEqual([cliPath, 'heartbeat']);
      expect(b.flags).toMatchObject({ entity: files[b.flags.language as keyof typeof files], editor: 'neovim', plugin: 'neovim-codetally/0.1.0' });
      // --time is the instant of the event, with its fraction: taken as the plugin started the call, within its step.
      const time = Number(b.flags.time);
      expect(b.flags.time).toMatch(/^\d{10}\.\d{3}$/);
      expect(b.at - time).toBeGreaterThanOrEqual(-0.001);
      expect(b.at - time).toBeLessThan(0.05);
      const step = s.steps.findIndex((st) => st.name === b.step);
      expect(time).toBeGreaterThanOrEqual(s.steps[step].start - 0.001);
      if (step + 1 < s.steps.length) expect(time).toBeLessThanOrEqual(s.steps[step + 1].start);
    }
    // Today's total was asked at setup, and again a second after the first write.
    const todays = s.calls.filter((c) => c.argv.includes('today'));
    const written = beats[2].at;
    expect(todays[0].step).toBe('');
    expect(todays.some((c) => c.at >= written + 0.9 && c.at < written + 3)).toBe(true);

    // Every call finished before the editor quit, and quitting started a sender that outlives it:
    // the eight events arrive with no further command (none of them waited the minute after which
    // a heartbeat starts one).
    for (let i = 0; !/queued: 0 event\(s\) not counted yet, 0 batch/.test((await cli(home, ['status'])).stdout); i++) {
      if (i > 100) throw new Error(`quitting did not send the events: ${(await cli(home, ['status'])).stdout}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await cli(home, ['status'])).stdout).toMatch(/delivered: 1 batch/);

    // Each gap between consecutive heartbeats goes to the earlier one's language (the last one waits for the next event).
    const expected: Record<string, number> = {};
    for (let i = 0; i + 1 < beats.length; i++) {
      const language = beats[i].flags.language as string;
      expected[language] = (expected[language] ?? 0) + Number(beats[i + 1].flags.time) - Number(beats[i].flags.time);
    }
    expect(Object.keys(expected).sort()).toEqual(['Go', 'Lua', 'TypeScript']);
    expect(expected.TypeScript).toBeGreaterThan(2.5);
    const stored = await storedSeconds(base, reader);
    expect(Object.keys(stored.languages).sort()).toEqual(Object.keys(expected).sort());
    for (const [language, seconds] of Object.entries(expected)) expect(Math.abs(stored.languages[language] - seconds), language).toBeLessThanOrEqual(0.01);

    const exported = (await (await fetch(`${base}/main/api/v1/me/export`, { headers: { authorization: `Bearer ${reader}` } })).json()) as {
      activities: { language: string; project_name: string | null; ide_name: string | null }[];
    };
    const rows = new Set(exported.activities.map((a) => `${a.language} ${a.project_name} ${a.ide_name}`));
    expect([...rows].sort()).toEqual(['Go tallyrepo Neovim', 'Lua demo Neovim', 'TypeScript demo Neovim']);
  });

  it("shows today's total in the status line, as `codetally today` prints it, with the defaults of plugin/codetally.lua", async () => {
    const { home } = await configuredHomeHere();
    // Five minutes of earlier work, sent.
    const client = new Codetally({ home });
    const now = Date.now() / 1000;
    for (let i = 0; i <= 5; i++) client.heartbeat({ entity: 'init.lua', project: 'p', editor: 'neovim', time: now - 300 + i * 60 });
    const flushed = await cli(home, ['flush']);
    expect(flushed.code, flushed.stdout).toBe(0);

    const s = await session({
      cwd: tempDir('codetally-nvim-cwd-'),
      home,
      cmd: [cliPath],
      setup: null,
      steps: `{
        { name = 'first answer', wait = 0, run = function() end, ['until'] = function() return require('codetally').status() ~= '' end },
        { name = 'ask again', wait = 0, run = function()
            H.out.today = require('codetally').status()
            vim.cmd('CodetallyToday')
          end, ['until'] = function() return vim.fn.execute('messages'):find('Codetally today: ', 1, true) ~= nil end },
      }`,
    });
    const today = await cli(home, ['today']);
    expect(today.code, today.stderr).toBe(0);
    expect(s.loaded).toBe(true);
    expect(s.statusAtStart).toBe('');
    expect(s.today).not.toBe('');
    expect(s.today).toBe(today.stdout.trim());
    expect(s.status).toBe(today.stdout.trim());
    expect(s.messages).toContain(`Codetally today: ${today.stdout.trim()}`);
    expect(s.calls.map((c) => c.argv.slice(1))).toEqual([['today'], ['today']]);
    expect(s.notes).toEqual([]);
  });

  it('never blocks the editor: with a command that takes 3 seconds, typing and :w return at once, and the calls outlive :qa!', async () => {
    const { demo } = projects();
    const slow = path.join(tempDir('codetally-nvim-slow-'), 'slow.sh');
    fs.writeFileSync(slow, 'sleep 3\necho "$*" >> "$0.done"\nexit 0\n');
    const s = await session({
      cwd: demo,
      home: tempDir('codetally-nvim-home-'),
      cmd: ['/bin/sh', slow],
      setup: '{ heartbeat_interval = 60 }',
      waitForJobs: false,
      steps: `{
        { name = 'open a.ts', wait = 50, run = function() vim.cmd('edit a.ts') end },
        { name = 'type and write', wait = 250, run = function()
            H.keys('ihello slow<Esc>', 'x')
            vim.cmd('write')
          end },
        { name = 'type more', wait = 250, run = function() H.keys('oline two<Esc>') end },
        { name = 'open b.lua', wait = 250, run = function() vim.cmd('edit! b.lua') end },
        { name = 'look', wait = 250, run = function() end },
      }`,
    });
    expect(fs.readFileSync(path.join(demo, 'a.ts'), 'utf8')).toBe('hello slowexport const a = 1;\n');
    // Each step took milliseconds, and the timers between them fired on time: nothing waited for the 3-second calls.
    for (const step of s.steps) {
      expect(step.finish - step.start, step.name).toBeLessThan(0.25);
      expect(step.start - step.planned, step.name).toBeLessThan(0.5);
    }
    // Entering a.ts, writing it (typing in it again within the minute sends nothing) and entering b.lua started a call each.
    expect(heartbeats(s).map((c) => c.step)).toEqual(['open a.ts', 'type and write', 'open b.lua']);
    expect(s.pending).toBe(s.calls.length); // all still running
    expect(s.errmsg).toBe('');
    // Quitting waited for them half a second at most; they went on after it and finished (a heartbeat
    // right before :q is not lost), and so did the flush that quitting started.
    expect(fs.existsSync(`${slow}.done`)).toBe(false);
    const done = () => (fs.existsSync(`${slow}.done`) ? fs.readFileSync(`${slow}.done`, 'utf8').trim().split('\n') : []);
    for (let i = 0; done().length < s.calls.length + 1; i++) {
      if (i > 100) throw new Error('the calls did not finish after the editor quit');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(done().filter((l) => l.startsWith('heartbeat'))).toHaveLength(3);
    expect(done().filter((l) => l.startsWith('flush'))).toEqual(['flush --background']);
  });

  it('reports a failing command once, as a warning, and typing goes on', async () => {
    const { demo } = projects();
    const failing = path.join(tempDir('codetally-nvim-fail-'), 'fail.sh');
    fs.writeFileSync(failing, 'echo "codetally: broken on purpose" >&2\nexit 3\n');
    const s = await session({
      cwd: demo,
      home: tempDir('codetally-nvim-home-'),
      cmd: ['/bin/sh', failing],
      setup: '{ heartbeat_interval = 0.2 }',
      steps: `{
        { name = 'open a.ts', wait = 50, run = function() vim.cmd('edit a.ts') end },
        { name = 'type', wait = 300, run = function() H.keys('ifirst ') end },
        { name = 'type more', wait = 300, run = function() H.keys('second<Esc>') end },
        { name = 'write', wait = 300, run = function() vim.cmd('write') end },
        { name = 'open b.lua', wait = 300, run = function() vim.cmd('edit b.lua') end },
        { name = 'type in b.lua', wait = 300, run = function() H.keys('o-- third<Esc>') end },
        { name = 'write b.lua', wait = 300, run = function() vim.cmd('write') end },
      }`,
    });
    expect(heartbeats(s).length).toBeGreaterThanOrEqual(6);
    expect(s.pending).toBe(0);
    expect(s.notes).toHaveLength(1);
    expect(s.notes[0]).toMatchObject({ level: WARN });
    expect(s.notes[0].msg).toMatch(/^codetally: .*failed \(exit 3\): codetally: broken on purpose/);
    expect(s.errmsg).toBe('');
    expect(s.mode).toBe('n');
    expect(fs.readFileSync(path.join(demo, 'a.ts'), 'utf8')).toBe('first secondexport const a = 1;\n');
    expect(fs.readFileSync(path.join(demo, 'b.lua'), 'utf8')).toBe('local b = 1\n-- third\n');
  });

  it('stays off with vim.g.codetally_disabled', async () => {
    const { demo } = projects();
    const s = await session({
      cwd: demo,
      home: tempDir('codetally-nvim-home-'),
      cmd: [cliPath],
      setup: null,
      globals: 'vim.g.codetally_disabled = true',
      steps: `{
        { name = 'open and type', wait = 50, run = function() vim.cmd('edit a.ts') H.keys('ioff<Esc>') end },
        { name = 'write', wait = 100, run = function()
            vim.cmd('write')
            H.out.today = tostring(vim.fn.exists(':CodetallyToday'))
          end },
      }`,
    });
    expect(s.calls).toEqual([]);
    expect(s.loaded).toBe(false);
    expect(s.today).toBe('0');
  });
});
