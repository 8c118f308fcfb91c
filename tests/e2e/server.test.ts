import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { programPath, serveArgs } from '../../scripts/build';
import { withinOneWindow } from '../helpers/clock';
import { startTestServer } from '../helpers/server';
import { testDataRoot } from '../setup/databases';

// Black-box checks against `next start`: what only the real server shows.
const base = inject('baseUrl');
/** The suite's server runs on the embedded database (not on PostgreSQL through a pooler). */
const embedded = Boolean(inject('serverDataDir'));
const api = `${base}/main/api/v1`;

async function newUser(handle = `e2e${Math.random().toString(36).slice(2, 10)}`) {
  const res = await fetch(`${api}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { user: { id: string }; token: string };
}

const batch = { activities: [{ language: 'TypeScript', time: 30, date: '2026-01-02', hour: 4, ide_name: 'vscode' }] };

function post(path: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${api}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Streams a chunked body without Content-Length until the server answers. */
function streamUntilAnswered(path: string, token: string, totalBytes: number): Promise<{ status: number; sent: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${api}${path}`);
    let sent = 0;
    let answered = false;
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        answered = true;
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, sent, body }));
      },
    );
    req.on('error', (err) => (answered ? undefined : reject(err)));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!answered && sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.write('{"activities":[');
    pump();
  });
}

describe('next start', () => {
  it('answers health and serves openapi.json', async () => {
    const health = await fetch(`${api}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', db: 'ok' });
    const doc = await fetch(`${api}/openapi.json`);
    expect(doc.headers.get('content-type')).toContain('application/json');
    expect((await doc.json()).paths['/sync/activities']).toBeDefined();
  });

  it('accepts a batch with rate-limit headers, and replays it with Idempotent-Replayed', async () => {
    const { token } = await newUser();
    const first = await post('/sync/activities', token, batch, { 'idempotency-key': 'e2e-1' });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toMatch(/^"sync";q=\d+;w=60, "sync-user";q=\d+;w=60$/);
    expect(first.headers.get('ratelimit')).toMatch(/^"sync";r=\d+;t=\d+$/);
    const replay = await post('/sync/activities', token, batch, { 'idempotency-key': 'e2e-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(await first.json());
  });

  it('answers problem+json 401 with WWW-Authenticate, 415, 404', async () => {
    const anon = await fetch(`${api}/sync/activities`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(anon.headers.get('content-type')).toBe('application/problem+json');

    const { token } = await newUser();
    const text = await post('/sync/activities', token, JSON.stringify(batch), { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect((await text.json()).code).toBe('unsupported_media_type');

    const missing = await fetch(`${api}/no/such/route`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
  });

  it('refuses a body over 1 MiB, declared or streamed, without reading it all', async () => {
    const { token } = await newUser();
    const declared = await post('/sync/activities', token, '{"activities":[' + ' '.repeat(1024 * 1024 + 10) + ']}');
    expect(declared.status).toBe(413);
    expect((await declared.json()).code).toBe('payload_too_large');

    const streamed = await streamUntilAnswered('/sync/activities', token, 64 * 1024 * 1024);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).code).toBe('payload_too_large');
    expect(streamed.sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('answers 429 with Retry-After once a token passes its write rate', () =>
    withinOneWindow(async () => {
      const { token } = await newUser();
      const limit = Number((await post('/sync/activities', token, batch)).headers.get('ratelimit-policy')!.match(/q=(\d+)/)![1]);
      let last: Response | undefined;
      for (let i = 1; i <= limit; i++) last = await post('/sync/activities', token, batch);
      expect(last!.status).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await last!.json()).code).toBe('rate_limited');
    }));

  it.runIf(embedded)('the admin CLI reaches the running server\'s embedded database, and its token works', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [programPath('admin'), 'create-user', '--handle', 'cli-made', '--timezone', 'Asia/Tokyo'], {
      env: { ...process.env, DATA_DIR: inject('serverDataDir'), DATABASE_URL: '' },
    });
    const created = JSON.parse(stdout);
    expect(created.user).toMatchObject({ handle: 'cli-made', timezone: 'Asia/Tokyo' });
    expect((await post('/sync/activities', created.token, batch)).status).toBe(200);
  });

  it.runIf(embedded)('a second server on the same data directory is refused with a message, and the first keeps its database and socket', async () => {
    const run = promisify(execFile);
    const dataDir = inject('serverDataDir');
    const second = await run(process.execPath, serveArgs(), {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '39999' },
      timeout: 60_000,
    }).catch((err: { code: number; stderr: string }) => err);
    expect((second as { code: number }).code).toBe(1);
    expect((second as { stderr: string }).stderr).toMatch(/already open in another process \(pid \d+\)/);
    expect(fs.existsSync(path.join(dataDir, 'control.sock'))).toBe(true);
    const { stdout } = await run(process.execPath, [programPath('admin'), 'create-user', '--handle', 'after-second'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    expect(JSON.parse(stdout).user.handle).toBe('after-second');
  });

  it.runIf(embedded)('keeps the embedded database private: no file under DATA_DIR is writable by group or others', () => {
    const dataDir = inject('serverDataDir');
    expect(fs.statSync(dataDir).mode & 0o077).toBe(0);
    const writable = (fs.readdirSync(dataDir, { recursive: true }) as string[]).filter((f) => {
      const stat = fs.lstatSync(path.join(dataDir, f));
      return !stat.isSymbolicLink() && (stat.mode & 0o022) !== 0;
    });
    expect(writable).toEqual([]);
  });

  it('a server on PostgreSQL without AUTH_SECRET refuses to start, saying why', async () => {
    const run = promisify(execFile);
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', PORT: '39998' };
    delete env.AUTH_SECRET;
    const refused = await run(process.execPath, serveArgs(), { env, timeout: 60_000 }).catch((err: { code: number; stderr: string }) => err);
    expect((refused as { code: number }).code).toBe(1);
    expect((refused as { stderr: string }).stderr).toMatch(/AUTH_SECRET is required with DATABASE_URL/);
  });
});

// However deep a clone or DATA_DIR is: a Unix socket's path holds at most 107 bytes.
describe.runIf(embedded)('the embedded database in a deep folder', () => {
  it('a 200-character DATA_DIR serves, and the admin CLI reaches it through its socket', async () => {
    const parent = path.join(testDataRoot, `deep-${process.pid}-`);
    const dataDir = parent + 'd'.repeat(200 - parent.length);
    expect(dataDir.length).toBe(200);
    const server = await startTestServer({ ADMIN_TOKEN: 'deep-admin-token-0123456789' }, undefined, dataDir);
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [programPath('admin'), 'create-user', '--handle', 'deep-one'], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      });
      const created = JSON.parse(stdout) as { token: string };
      const res = await fetch(`${server.baseUrl}/main/api/v1/sync/activities`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(batch),
      });
      expect(res.status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, 'control.sock'))).toBe(true);
    } finally {
      await server.stop();
      server.remove();
    }
  });

  it('a server that cannot open its embedded database exits 1 with one line saying why, at once', async () => {
    const notADir = path.join(testDataRoot, `file-${process.pid}`);
    fs.mkdirSync(testDataRoot, { recursive: true });
    fs.writeFileSync(notADir, 'not a folder');
    try {
      const started = Date.now();
      const refused = await promisify(execFile)(process.execPath, serveArgs(), {
        env: { ...process.env, DATA_DIR: path.join(notADir, 'data'), DATABASE_URL: '', PORT: '39997' },
        timeout: 60_000,
      }).catch((err: { code: number; stderr: string; killed: boolean }) => err);
      expect(refused).toMatchObject({ code: 1, killed: false });
      const lines = (refused as { stderr: string }).stderr.trim().split('\n');
      expect(lines).toEqual([expect.stringMatching(/^\[codetally\] the embedded database in .*file-\d+\/data could not be opened: /)]);
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      fs.rmSync(notADir, { force: true });
    }
  });
});
