import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Codetally } from '../../client/src/index';
import { programPath } from '../../scripts/build';
import { cli, clientHome, clientUser, everyCommand, everyCommandWorks, startCli, removeHome, storedSeconds, type TokenPassing } from '../helpers/client';
import { startTestServer, type TestServer } from '../helpers/server';

// The reference client (client/) against the production build: the CLI as editor plugins call it,
// the server down for a while, and crashes (kill -9) of the CLI and of the server in the middle of
// flushes. In every case each event's time arrives exactly once.
const base = inject('baseUrl');
const adminToken = inject('adminToken');
const homes: string[] = [];
afterAll(async () => {
  for (const h of homes) await removeHome(h);
});

function home(): string {
  const h = clientHome();
  homes.push(h);
  return h;
}

/** Seconds per language by WakaTime's rule, computed here from the events themselves: each gap of at most 15 minutes goes to the earlier event. */
function expectedSeconds(events: { time: number; language: string }[]): Record<string, number> {
  const sorted = [...events].sort((a, b) => a.time - b.time);
  const out: Record<string, number> = {};
  for (let i = 0; i + 1 < sorted.length; i++) {
    const gap = sorted[i + 1].time - sorted[i].time;
    if (gap > 0 && gap <= 900) out[sorted[i].language] = (out[sorted[i].language] ?? 0) + gap;
  }
  return out;
}

/** `npm run admin -- ...args` as docs/using.md writes it (the compiled program it runs), against the test server's database. */
async function admin(...args: string[]): Promise<{ token: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, [programPath('admin'), ...args], {
    env: { ...process.env, DATA_DIR: inject('serverDataDir'), DATABASE_URL: inject('serverDatabaseUrl'), DATABASE_POOLER: '', DATABASE_MIGRATION_URL: '' },
  });
  return JSON.parse(stdout) as { token: string };
}

async function adminApiUser(handle: string): Promise<{ token: string }> {
  const res = await fetch(`${base}/main/api/v1/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { token: string };
}

const handle = (name: string) => `${name}${Math.random().toString(36).slice(2, 8)}`;

describe('every documented command of the client, with the token each documented way of making one gives', () => {
  // docs/using.md, "Try it with curl" and the operator commands beside it, and "Your WakaTime plugins"
  // (the dashboard's ways: tests/e2e/browser.test.ts). Each token exactly as its command makes it,
  // each way of giving it to `codetally config`.
  const ways: [string, () => Promise<string>, TokenPassing][] = [
    ['npm run admin -- create-user', async () => (await admin('create-user', '--handle', handle('readme'), '--timezone', 'Europe/Berlin')).token, 'stdin'],
    ['npm run admin -- issue-token --scopes sync,badges', async () => {
      const h = handle('issued');
      await admin('create-user', '--handle', h);
      return (await admin('issue-token', '--handle', h, '--scopes', 'sync,badges')).token;
    }, 'env'],
    ['npm run admin -- issue-token --format uuid', async () => {
      const h = handle('uuid');
      await admin('create-user', '--handle', h);
      return (await admin('issue-token', '--handle', h, '--format', 'uuid')).token;
    }, 'argument'],
    ['POST /main/api/v1/admin/users', async () => (await adminApiUser(handle('operator'))).token, 'stdin'],
    ['POST /main/api/v1/me/tokens (the dashboard\'s token form)', async () => (await clientUser(base, adminToken)).token, 'env'],
  ];
  it.each(ways)('%s', async (_, make, via) => {
    expect(await everyCommand(base, await make(), via)).toMatchObject(everyCommandWorks);
  });
});

describe('the token stays out of sight', () => {
  /** What `ps` shows of a process: its argv. */
  const argv = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');

  it.skipIf(process.platform !== 'linux')('from standard input or CODETALLY_TOKEN, it is in no argv while the client holds it', async () => {
    const { token } = await clientUser(base, adminToken);
    // config --token-stdin: seen while it waits for the token (once Node runs the CLI), then the token goes to its standard input.
    const h = home();
    const config = startCli(h, ['config', '--api-url', base, '--token-stdin'], {}, null);
    for (let i = 0; !argv(config.child.pid!).includes('codetally.mjs'); i++) {
      if (i > 200) throw new Error(`the CLI did not start: ${argv(config.child.pid!)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(argv(config.child.pid!)).toMatch(/codetally\.mjs config --api-url \S+ --token-stdin $/);
    config.child.stdin!.end(`${token}\n`);
    expect(await config.done).toMatchObject({ code: 0 });
    expect(JSON.parse(fs.readFileSync(path.join(h, 'config.json'), 'utf8')).token).toBe(token);

    // CODETALLY_TOKEN: a service that takes the request and holds it; while it is held, the client has sent the token and is still running.
    let received: (r: { head: string; socket: net.Socket }) => void = () => {};
    const request = new Promise<{ head: string; socket: net.Socket }>((resolve) => (received = resolve));
    const held = net.createServer((socket) => socket.once('data', (d) => received({ head: String(d), socket })));
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    try {
      const site = `http://127.0.0.1:${(held.address() as net.AddressInfo).port}`;
      const envHome = home();
      expect((await cli(envHome, ['config', '--api-url', site], { CODETALLY_TOKEN: token })).code).toBe(0);
      expect(JSON.parse(fs.readFileSync(path.join(envHome, 'config.json'), 'utf8'))).toEqual({ api_url: site });
      const today = startCli(envHome, ['today'], { CODETALLY_TOKEN: token });
      const { head, socket } = await request;
      expect(head).toContain(`authorization: Bearer ${token}`);
      expect(argv(today.child.pid!)).toMatch(/codetally\.mjs today $/);
      socket.destroy();
      expect((await today.done).code).toBe(1);
    } finally {
      held.close();
    }
  });
});

describe('the client\'s folder and settings are private', () => {
  it('a token from standard input ends in config.json (0600); an existing looser folder becomes 0700 on config and on any start', async () => {
    const { token } = await clientUser(base, adminToken);
    const h = home();
    fs.chmodSync(h, 0o755); // made by hand, as mkdir does under the usual umask
    const configured = await cli(h, ['config', '--api-url', base, '--token-stdin'], {}, `${token}\n`);
    expect(configured, configured.stderr).toMatchObject({ code: 0 });
    expect(fs.statSync(h).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(h, 'config.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(path.join(h, 'config.json'), 'utf8'))).toEqual({ api_url: base, token });

    // Loosened again (a copy, a restore from a backup): the next command of any kind tightens both.
    fs.chmodSync(h, 0o755);
    fs.chmodSync(path.join(h, 'config.json'), 0o644);
    expect((await cli(h, ['heartbeat', '--language', 'Go'])).code).toBe(0);
    expect([fs.statSync(h).mode & 0o777, fs.statSync(path.join(h, 'config.json')).mode & 0o777]).toEqual([0o700, 0o600]);
    fs.chmodSync(h, 0o750);
    expect((await cli(h, ['status'])).code).toBe(0);
    expect(fs.statSync(h).mode & 0o777).toBe(0o700);
  });

  it('config refuses to run without a token, or with two, saying how to give one', async () => {
    const h = home();
    const none = await cli(h, ['config', '--api-url', base], { CODETALLY_TOKEN: undefined });
    expect(none).toMatchObject({ code: 2, stderr: expect.stringContaining('a token is required: --token-stdin reads it from standard input, or set CODETALLY_TOKEN') });
    const empty = await cli(h, ['config', '--api-url', base, '--token-stdin'], {}, '\n');
    expect(empty).toMatchObject({ code: 2, stderr: expect.stringContaining('standard input holds no token') });
    const both = await cli(h, ['config', '--api-url', base, '--token-stdin', '--token', 'ct_x'], {}, 'ct_y\n');
    expect(both).toMatchObject({ code: 2, stderr: expect.stringContaining('--token-stdin and --token exclude each other') });
    const spaced = await cli(h, ['config', '--api-url', base, '--token-stdin'], {}, 'ct_a b\n');
    expect(spaced).toMatchObject({ code: 2, stderr: expect.stringContaining('one word') });
    expect(fs.existsSync(path.join(h, 'config.json'))).toBe(false);
  });
});

describe('the codetally CLI against the server', () => {
  it('configures, records heartbeats as an editor plugin does, sends them once and shows today\'s time', async () => {
    const h = home();
    const { token, reader } = await clientUser(base, adminToken);
    const configured = await cli(h, ['config', '--api-url', `${base}/`, '--token', token]);
    expect(configured.code).toBe(0);
    expect(fs.statSync(path.join(h, 'config.json')).mode & 0o777).toBe(0o600);

    // Eleven events within the last few minutes (two languages), and two from yesterday around a 20-minute gap that must not count.
    const now = Math.floor(Date.now() / 1000);
    const events = [
      ...Array.from({ length: 11 }, (_, i) => ({ time: now - 600 + i * 50, language: i < 6 ? 'TypeScript' : 'Lua', entity: i < 6 ? 'src/app.ts' : 'init.lua' })),
      { time: now - 86_400, language: 'Go', entity: 'main.go' },
      { time: now - 86_400 + 1200, language: 'Go', entity: 'main.go' },
    ];
    for (const e of events) {
      const run = await cli(h, ['heartbeat', '--entity', e.entity, '--project', 'codetally', '--editor', 'neovim', '--time', String(e.time), ...(e.language === 'Lua' ? ['--write'] : [])]);
      expect(run, run.stderr).toMatchObject({ code: 0 });
    }
    // What a plugin passes wrong is refused at once, naming the field; nothing is queued for it.
    const bad = await cli(h, ['heartbeat', '--entity', 'a.ts', '--project', 'x\u0001y']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('project must not contain control characters');

    const flushed = await cli(h, ['flush']);
    expect(flushed, flushed.stderr).toMatchObject({ code: 0 });
    expect(await storedSeconds(base, reader)).toMatchObject({ languages: expectedSeconds(events) });
    expect(expectedSeconds(events)).toEqual({ TypeScript: 300, Lua: 200 });

    // A second flush sends nothing more; the status shows an empty queue.
    expect((await cli(h, ['flush'])).code).toBe(0);
    expect((await storedSeconds(base, reader)).languages).toEqual({ TypeScript: 300, Lua: 200 });
    const status = await cli(h, ['status']);
    expect(status.stdout).toMatch(/queued: 0 event\(s\) not counted yet, 0 batch\(es\)/);
    expect(status.stdout).toContain('last error: none');

    const midnight = Math.floor(now / 86_400) * 86_400;
    const todaySeconds = expectedSeconds(events.filter((e) => e.time >= midnight && e.time > now - 3600)).TypeScript ?? 0;
    const bar = await (await fetch(`${base}/api/wakatime/v1/users/current/statusbar/today`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(bar.data.grand_total.total_seconds).toBeGreaterThanOrEqual(todaySeconds);
    const today = await cli(h, ['today']);
    expect(today.code).toBe(0);
    expect(today.stdout.trim()).toBe(bar.data.grand_total.text);
  });

  it("a heartbeat starts Node without NODE_EXTRA_CA_CERTS, and the sender it starts gets them back: events reach a service only they trust", async () => {
    // The service behind TLS with a certificate made here, trusted only through NODE_EXTRA_CA_CERTS.
    const dir = home();
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const upstream = new URL(base);
    const front = tls.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (socket) => {
      const up = net.connect(Number(upstream.port), upstream.hostname);
      socket.pipe(up).pipe(socket);
      socket.on('error', () => up.destroy());
      up.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const h = home();
      const { token, reader } = await clientUser(base, adminToken);
      expect((await cli(h, ['config', '--api-url', `https://127.0.0.1:${(front.address() as net.AddressInfo).port}`, '--token', token])).code).toBe(0);

      // Node warns on its first line when it cannot load NODE_EXTRA_CA_CERTS: a heartbeat does not load them.
      const missing = { NODE_EXTRA_CA_CERTS: path.join(dir, 'missing.pem') };
      expect((await cli(h, ['status'], missing)).stderr).toContain('extra certs');
      for (const ago of [50, 40]) {
        const quiet = await cli(h, ['heartbeat', '--language', 'Go', '--time', String(Date.now() / 1000 - ago)], missing);
        expect(quiet).toMatchObject({ code: 0, stderr: '' });
      }
      // Without the certificate, sending fails on it.
      const refused = await cli(h, ['flush'], { NODE_EXTRA_CA_CERTS: undefined });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toMatch(/last error: .*(certificate|self.signed)/i);

      // With it, the senders that heartbeats start (their events waited a minute) deliver them all.
      const now = Date.now() / 1000;
      const events = [{ time: now - 200, language: 'Go' }, { time: now - 170, language: 'Go' }, { time: now - 140, language: 'Go' }, { time: now - 110, language: 'Zig' }];
      const h2 = home();
      expect((await cli(h2, ['config', '--api-url', `https://127.0.0.1:${(front.address() as net.AddressInfo).port}`, '--token', token])).code).toBe(0);
      for (const e of events) expect((await cli(h2, ['heartbeat', '--language', e.language, '--time', e.time.toFixed(3)], { NODE_EXTRA_CA_CERTS: cert })).code).toBe(0);
      for (let i = 0; !/queued: 0 event\(s\) not counted yet, 0 batch/.test((await cli(h2, ['status'])).stdout); i++) {
        if (i > 100) throw new Error(`the background senders left events queued: ${(await cli(h2, ['status'])).stdout}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await storedSeconds(base, reader)).languages).toEqual({ Go: 90 });
    } finally {
      front.close();
    }
  });

  it('keeps queuing while the server is down, then delivers everything once', async () => {
    const h = home();
    let server = await startTestServer({ ADMIN_TOKEN: adminToken, SYNC_RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const { token, reader } = await clientUser(server.baseUrl, adminToken);
      expect((await cli(h, ['config', '--api-url', server.baseUrl, '--token', token])).code).toBe(0);
      await server.stop();
      const start = Math.floor(Date.now() / 1000) - 3 * 3600;
      const events = Array.from({ length: 30 }, (_, i) => ({ time: start + i * 240, language: ['Rust', 'Go', 'Zig'][i % 3] }));
      for (const [i, e] of events.entries()) {
        expect((await cli(h, ['heartbeat', '--language', e.language, '--project', 'p', '--editor', 'e', '--time', String(e.time)])).code).toBe(0);
        if (i % 10 === 9) {
          const offline = await cli(h, ['flush']);
          expect(offline.code).toBe(1);
          expect(offline.stdout).toMatch(/queued; last error: network/);
        }
      }
      const status = await cli(h, ['status']);
      expect(status.stdout).toMatch(/last error: network/);
      server = await startTestServer({ ADMIN_TOKEN: adminToken, SYNC_RATE_LIMIT_PER_MINUTE: '0' }, server);
      await drain(h);
      expect((await storedSeconds(server.baseUrl, reader)).languages).toEqual(expectedSeconds(events));
    } finally {
      await server.stop();
      server.remove();
    }
  });

  it('counts every event exactly once when the CLI and the server are killed at random points of flushes', async () => {
    const h = home();
    const env = { ADMIN_TOKEN: adminToken, SYNC_RATE_LIMIT_PER_MINUTE: '0' };
    let server: TestServer & { port: number } = await startTestServer(env);
    try {
      const { token, reader } = await clientUser(server.baseUrl, adminToken);
      const client = new Codetally({ home: h });
      client.configure({ api_url: server.baseUrl, token });
      const languages = ['TypeScript', 'Python', 'Go', 'Rust'];
      const events: { time: number; language: string }[] = [];
      let time = Math.floor(Date.now() / 1000) - 10 * 86_400;
      const step = fc.record({
        gaps: fc.array(fc.oneof(fc.integer({ min: 1, max: 900 }), fc.integer({ min: 901, max: 3000 })), { minLength: 1, maxLength: 40 }),
        language: fc.constantFrom(...languages),
        killCliAfterMs: fc.integer({ min: 0, max: 400 }),
        killServerAfterMs: fc.option(fc.integer({ min: 0, max: 400 }), { freq: 3 }),
      });
      const steps = fc.sample(step, { numRuns: 14, seed: Number(process.env.CLIENT_CRASH_SEED ?? Date.now() % 100_000) });
      for (const s of steps) {
        for (const [i, gap] of s.gaps.entries()) {
          time += gap;
          const e = { time, language: i % 2 === 0 ? s.language : languages[(languages.indexOf(s.language) + 1) % 4] };
          client.heartbeat({ language: e.language, project: 'crash', editor: 'test', time: e.time });
          events.push(e);
        }
        const flush = startCli(h, ['flush']);
        const kills: Promise<unknown>[] = [new Promise((r) => setTimeout(r, s.killCliAfterMs)).then(() => flush.child.kill('SIGKILL'))];
        if (s.killServerAfterMs !== null) kills.push(new Promise((r) => setTimeout(r, s.killServerAfterMs!)).then(() => server.kill()));
        await Promise.all([...kills, flush.done]);
        if (s.killServerAfterMs !== null) server = await startTestServer(env, server);
      }
      await drain(h);
      expect((await storedSeconds(server.baseUrl, reader)).languages).toEqual(expectedSeconds(events));
      expect(client.status()).toMatchObject({ events: 0, batches: 0, dropped_buckets: 0 });
    } finally {
      await server.stop();
      server.remove();
    }
  }, 240_000);
});

/** Flushes until the queue is empty (a killed sender's lock is free at once; a flush may meet the server still starting). */
async function drain(h: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const run = await cli(h, ['flush']);
    if (run.code === 0) return;
    if (attempt > 20) throw new Error(`the queue did not drain: ${run.stdout}${run.stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
