import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { databaseUrlFor } from '../setup/databases';

// How a host runs the build: the standalone folder copied anywhere (no tsx, no TypeScript, no
// project node_modules), several processes started at once on an empty database, and a server
// that checks its own configuration however it is started.

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function launch(args: string[], env: Record<string, string>, cwd: string): Started {
  const clean: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...env };
  const child = spawn(process.execPath, args, { env: clean, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function healthy(baseUrl: string, started: Started): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}/main/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (i > 600 || started.child.exitCode !== null) throw new Error(`the server did not come up:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode === null) started.child.kill('SIGTERM');
  await started.exited;
}

const standalone = path.resolve('.next', 'standalone');
const adminToken = 'deploy-test-admin-token-0123456789';

describe('the standalone output', () => {
  it('runs from a copy anywhere: migrates an empty data directory, serves pages, static files and the API', async () => {
    const place = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-standalone-'));
    try {
      fs.cpSync(standalone, place, { recursive: true, verbatimSymlinks: true });
      // Nothing of TypeScript's run-time tooling came along: the programs are compiled.
      expect(fs.existsSync(path.join(place, 'node_modules', 'tsx'))).toBe(false);
      const port = await freePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      const server = launch(['server.js'], { PORT: String(port), DATA_DIR: path.join(place, 'data'), ADMIN_TOKEN: adminToken }, place);
      try {
        await healthy(baseUrl, server);
        expect(server.output()).toContain('migrations applied');

        const home = await fetch(`${baseUrl}/`);
        expect(home.status).toBe(200);
        const html = await home.text();
        const asset = html.match(/\/_next\/static\/[^"']+\.(?:js|css)/)?.[0];
        expect(asset).toBeDefined();
        expect((await fetch(`${baseUrl}${asset}`)).status).toBe(200);
        expect((await fetch(`${baseUrl}/icon.svg`)).status).toBe(200);

        const created = await fetch(`${baseUrl}/main/api/v1/admin/users`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ handle: 'standalone', settings: { profile_public: true } }),
        });
        expect(created.status).toBe(201);
        const { token } = (await created.json()) as { token: string };
        const date = new Date().toISOString().slice(0, 10);
        const write = await fetch(`${baseUrl}/main/api/v1/sync/activities`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ activities: [{ language: 'Go', time: 90, date, hour: 0 }] }),
        });
        expect(write.status).toBe(200);
        expect((await fetch(`${baseUrl}/u/standalone`)).status).toBe(200);
      } finally {
        await stop(server);
      }
    } finally {
      fs.rmSync(place, { recursive: true, force: true });
    }
  });
});

describe('npm start', () => {
  it('where a build exists, serves it at once: no rebuild, nothing compiled at run time', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-start-'));
    const port = await freePort();
    const server = launch([path.resolve('scripts', 'launch.mjs'), 'start'], { PORT: String(port), DATA_DIR: dataDir }, process.cwd());
    try {
      await healthy(`http://127.0.0.1:${port}`, server);
      expect(server.output()).toContain('migrations applied');
      expect(server.output()).not.toMatch(/build/i);
      // The program that runs is the compiled one, with no TypeScript loader in the process.
      const args = fs.readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
      expect(args.join(' ')).not.toMatch(/tsx|\.ts\b/);
    } finally {
      await stop(server);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the configuration', () => {
  it('is checked by the server itself: a bare next start with a bad variable refuses to serve, naming it', async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-config-'));
    try {
      const server = launch([path.resolve('node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-p', String(port)], { DATA_DIR: dataDir, PUBLIC_MIN_USERS: 'three' }, process.cwd());
      const kick = fetch(`http://127.0.0.1:${port}/`).catch(() => null);
      const code = await Promise.race([server.exited, new Promise((r) => setTimeout(r, 45_000, 'running'))]);
      await kick;
      if (code === 'running') await stop(server);
      expect(code).toBe(1);
      expect(server.output()).toMatch(/PUBLIC_MIN_USERS: must be a whole number/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('on Vercel without DATABASE_URL, the migration of the deploy fails saying what to set', async () => {
    const migrate = launch([path.resolve('.next', 'codetally', 'migrate.mjs')], { VERCEL: '1' }, process.cwd());
    expect(await migrate.exited).toBe(1);
    expect(migrate.output()).toMatch(/DATABASE_URL: is required on Vercel/);
  });
});

/**
 * Runs `body` with an empty PostgreSQL database of its own (its URL, an admin connection, and a list
 * where started servers go), then stops the servers and drops the database.
 */
async function onEmptyDatabase(prefix: string, body: (url: string, admin: postgres.Sql, servers: Started[], name: string) => Promise<void>): Promise<void> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `codetally_t_${prefix}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const servers: Started[] = [];
  try {
    await body(databaseUrlFor(base, name), admin, servers, name);
  } finally {
    await Promise.all(servers.map(stop));
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

// Needs PostgreSQL (CI always has it): the embedded database is one process's by design.
describe.skipIf(!process.env.TEST_DATABASE_URL)('several processes started together on an empty PostgreSQL database', () => {
  it('one migrates, all three serve', () =>
    onEmptyDatabase('start', async (url, _admin, servers) => {
      const ports = await Promise.all([1, 2, 3].map(() => freePort()));
      for (const port of ports)
        servers.push(launch([path.resolve('.next', 'codetally', 'start.mjs')], { PORT: String(port), DATABASE_URL: url, AUTH_SECRET: 'start-test-secret-0123456789abcdef0123' }, process.cwd()));
      await Promise.all(ports.map((port, i) => healthy(`http://127.0.0.1:${port}`, servers[i])));
      const db = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const journal = JSON.parse(fs.readFileSync(path.resolve('drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
        const [{ count }] = await db<{ count: number }[]>`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`;
        expect(count).toBe(journal.entries.length);
      } finally {
        await db.end();
      }
      for (const port of ports) expect((await fetch(`http://127.0.0.1:${port}/pricing`)).status).toBe(200);
    }));

  it('behind a transaction pooler (no LISTEN), a write through one process shows at once through the other', () =>
    onEmptyDatabase('pooled', async (url, admin, servers, name) => {
      const env = { DATABASE_URL: url, DATABASE_POOLER: 'transaction', DATABASE_MIGRATION_URL: url, AUTH_SECRET: 'pooled-test-secret-0123456789abcdef0123', ADMIN_TOKEN: adminToken };
      const [a, b] = await Promise.all([1, 2].map(() => freePort()));
      servers.push(launch([path.resolve('.next', 'codetally', 'start.mjs')], { ...env, PORT: String(a) }, process.cwd()));
      await healthy(`http://127.0.0.1:${a}`, servers[0]);
      servers.push(launch([path.resolve('.next', 'codetally', 'start.mjs')], { ...env, PORT: String(b) }, process.cwd()));
      await healthy(`http://127.0.0.1:${b}`, servers[1]);

      const created = await fetch(`http://127.0.0.1:${a}/main/api/v1/admin/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ handle: 'pooled', settings: { profile_public: true } }),
      });
      const { token } = (await created.json()) as { token: string };
      const seconds = async () => ((await (await fetch(`http://127.0.0.1:${b}/main/api/v1/get/public/time?user=pooled`)).json()) as { total_seconds: number }).total_seconds;
      for (let i = 0; i < 2; i++) expect((await fetch(`http://127.0.0.1:${b}/u/pooled`)).status).toBe(200);
      expect(await seconds()).toBe(0);
      expect(await seconds()).toBe(0); // now in B's caches, if it kept any
      const date = new Date().toISOString().slice(0, 10);
      for (const time of [60, 120]) {
        const write = await fetch(`http://127.0.0.1:${a}/main/api/v1/sync/activities`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ activities: [{ language: 'Go', time, date, hour: 0 }] }),
        });
        expect(write.status).toBe(200);
      }
      expect(await seconds()).toBe(180);
      // Pages too: B keeps none from before the writes.
      expect(await (await fetch(`http://127.0.0.1:${b}/u/pooled`)).text()).toContain('3 mins');

      // Neither process holds a LISTEN (a transaction pooler would not keep one).
      const [{ listening }] = await admin<{ listening: number }[]>`SELECT count(*)::int AS listening FROM pg_stat_activity WHERE datname = ${name} AND query ILIKE 'LISTEN%'`;
      expect(listening).toBe(0);
    }));

  it('pages and badges come from the cache, and a write, a rename, a privacy or badge change in one process shows at once in the other', () =>
    onEmptyDatabase('pages', async (url, _admin, servers) => {
      const env = { DATABASE_URL: url, AUTH_SECRET: 'pages-test-secret-0123456789abcdef0123', ADMIN_TOKEN: adminToken };
      const [a, b] = await Promise.all([1, 2].map(() => freePort()));
      for (const port of [a, b]) servers.push(launch([path.resolve('.next', 'codetally', 'start.mjs')], { ...env, PORT: String(port) }, process.cwd()));
      await Promise.all([a, b].map((port, i) => healthy(`http://127.0.0.1:${port}`, servers[i])));
      const A = `http://127.0.0.1:${a}/main/api/v1`;
      const page = async (path: string) => {
        const res = await fetch(`http://127.0.0.1:${b}${path}`);
        return { status: res.status, cache: res.headers.get('x-nextjs-cache'), html: await res.text() };
      };
      const send = (path: string, token: string, method: string, body: unknown) =>
        fetch(`${A}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

      const created = await send('/admin/users', adminToken, 'POST', { handle: 'Paged', settings: { profile_public: true }, token: { scopes: ['sync', 'account', 'badges'] } });
      const { token, user } = (await created.json()) as { token: string; user: { id: string } };
      const badgeUrl = `/main/api/v1/public/github/svg/${user.id}`;
      const badge = async (query = '', headers: Record<string, string> = {}) => {
        const res = await fetch(`http://127.0.0.1:${b}${badgeUrl}${query}`, { headers });
        return { status: res.status, cache: res.headers.get('x-nextjs-cache'), etag: res.headers.get('etag'), body: await res.text() };
      };
      // No badge yet: "badge not found", cached until one is made.
      expect(await badge()).toMatchObject({ status: 404, cache: 'MISS' });
      expect(await badge()).toMatchObject({ status: 404, cache: 'HIT' });
      const made = (await (await send('/badges', token, 'POST', { metric: 'total', range: '7d' })).json()) as { id: string };
      // Served from B's cache once rendered, a 404 included.
      expect((await page('/u/paged')).cache).toBe('MISS');
      expect(await page('/u/paged')).toMatchObject({ status: 200, cache: 'HIT' });
      for (let i = 0; i < 2; i++) expect((await page('/u/renamed')).status).toBe(404);
      for (const path of ['/', '/pricing', '/leaderboard']) {
        await page(path);
        expect(await page(path)).toMatchObject({ status: 200, cache: 'HIT' });
      }

      const first = await badge();
      expect(first).toMatchObject({ status: 200, cache: 'MISS' });
      expect(first.body).toContain('0 mins');
      expect(await badge()).toMatchObject({ status: 200, cache: 'HIT', etag: first.etag });
      // A conditional request for what the client has: 304 (the route answered per request compares it).
      const again = await fetch(`http://127.0.0.1:${b}${badgeUrl}`, { headers: { 'if-none-match': first.etag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect((await fetch(`http://127.0.0.1:${b}${badgeUrl}`, { method: 'POST' })).status).toBe(405);

      const date = new Date().toISOString().slice(0, 10);
      expect((await send('/sync/activities', token, 'POST', { activities: [{ language: 'Go', time: 120, date, hour: 0 }] })).status).toBe(200);
      const plain = await badge();
      expect(plain.body).toContain('2 mins');
      // The badge by its id in another style: its own cache entry.
      const styled = await badge(`?badge=${made.id}&style=for-the-badge`);
      expect(styled).toMatchObject({ status: 200, cache: 'MISS' });
      expect(styled.body).not.toBe(plain.body);
      expect((await send(`/badges/${made.id}`, token, 'DELETE', undefined)).status).toBe(204);
      expect((await badge(`?badge=${made.id}`)).status).toBe(404);
      expect((await badge()).status).toBe(404);
      const after = await page('/u/paged');
      expect(after.cache).toBe('MISS');
      expect(after.html).toContain('2 mins');
      expect((await page('/u/paged')).cache).toBe('HIT');

      expect((await send('/me', token, 'PATCH', { handle: 'renamed' })).status).toBe(200);
      expect((await page('/u/paged')).status).toBe(404);
      expect((await page('/u/renamed')).html).toContain('2 mins');
      expect((await send('/me', token, 'PATCH', { settings: { profile_public: false } })).status).toBe(200);
      expect((await page('/u/renamed')).status).toBe(404);

      // A leaderboard view with a query is rendered for it, not the cached default view.
      const view = await page('/leaderboard?range=30d&language=Go');
      expect(view.status).toBe(200);
      expect(view.html).toMatch(/value="Go"/);
      expect((await page('/leaderboard?range=week')).html).toContain('range: must be 7d or 30d');
    }));
});
