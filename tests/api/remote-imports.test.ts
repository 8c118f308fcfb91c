import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as postRemote } from '@/app/main/api/v1/me/imports/remote/route';
import { GET as getImport } from '@/app/main/api/v1/me/imports/[id]/route';
import { config, resetConfig } from '@/lib/config';
import { getDb, rows } from '@/lib/db/client';
import { imports } from '@/lib/db/schema';
import { importsSettled, resumeImports } from '@/lib/wakatime/importing/import-queue';
import { interruptedByRestart, remoteImportsSettled, STALE_AFTER_MS } from '@/lib/wakatime/importing/remote';
import { pace } from '@/lib/wakatime/importing/remote-client';
import { dumpPoll } from '@/lib/wakatime/importing/remote-wakatime';
import { spoolFile } from '@/lib/wakatime/importing/spool';
import { newUser, storedDimensions, storedIde, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';
import { until } from '../helpers/until';
import { wakatimeStandInForTests, type StandInRequest } from '../helpers/wakatime-standin';

// Imports by key (POST /me/imports/remote), against a stand-in for WakaTime's API on a local port
// (WAKATIME_API_URL and IMPORT_DOWNLOAD_HOSTS point at it): its data dump asked for, waited for,
// downloaded and imported; a pasted link; the address rules (loopback and private addresses, hosts
// not listed, redirects off the allowed host); a refused key; one import at a time; a restart; and
// the key in no row and no log line.

const DAY = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const wakaKey = `waka_${randomUUID()}`;
const vscodeMac = 'wakatime/v1.98.0 (darwin-23.4.0-arm64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';
const neovimLinux = 'wakatime/v1.90.0 (linux-6.8.0-x86_64) go1.22.1 neovim/0.9.5 vim-wakatime/11.1.1';
const agents = [[{ id: 'ua-vscode', value: vscodeMac, editor: 'vscode', os: 'Mac' }, { id: 'ua-nvim', value: neovimLinux, editor: 'neovim', os: 'Linux' }]];
const machines = [[{ id: 'm-1', name: 'ada-desk', value: 'ada-desk.local' }]];

const old = (Math.floor(nowSeconds() / DAY) - 40) * DAY + 9 * 3600;
const recent = (Math.floor(nowSeconds() / DAY) - 3) * DAY + 9 * 3600;

/** A dump as WakaTime exports it: heartbeats naming their User-Agent and machine by id. */
function dumpText(): string {
  const beat = (time: number, i: number, ua: string) => ({ id: `h${i}`, entity: `/src/${i}.go`, time, language: 'Go', project: 'api', type: 'file', category: 'coding', user_agent_id: ua, machine_name_id: 'm-1' });
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
  return JSON.stringify({
    user: { username: 'me' },
    days: [
      { date: day(old), heartbeats: [0, 120, 240].map((s, i) => beat(old + s, i, i < 2 ? 'ua-vscode' : 'ua-nvim')).concat(beat(old + 360, 3, 'ua-nvim')) },
      { date: day(recent), heartbeats: [0, 60, 120].map((s, i) => beat(recent + s, 10 + i, 'ua-nvim')) },
    ],
  });
}

async function importer() {
  const u = await newUser({ timezone: 'UTC' });
  return { ...u, account: await tokenWithScopes(u.user.id, ['account']) };
}

const url = 'http://localhost/main/api/v1/me/imports/remote';
async function start(token: string, body: unknown) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return expectDocumented('POST', url, await postRemote(new Request(url, { method: 'POST', headers, body: JSON.stringify(body) })));
}

interface Status {
  id: string;
  status: string;
  source: string;
  days_total: number;
  days_done: number;
  error: string | null;
  stage: string | null;
  done: boolean;
}
async function status(token: string, id: string): Promise<Status> {
  const u = `http://localhost/main/api/v1/me/imports/${id}`;
  const res = await expectDocumented('GET', u, await getImport(new Request(u, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({ id }) }));
  return (await res.json()) as Status;
}

/** Waits for every import by key and every dump reading of this process to end, and answers the import. */
async function ended(token: string, id: string): Promise<Status> {
  await remoteImportsSettled();
  await importsSettled();
  return status(token, id);
}

/** Time credited by editor and by machine. */
async function credited(userId: string) {
  const byEditor: Record<string, number> = {};
  for (const r of await storedIde(userId)) byEditor[r.editor] = (byEditor[r.editor] ?? 0) + r.millis;
  const byMachine: Record<string, number> = {};
  for (const r of await storedDimensions(userId)) byMachine[r.machine] = (byMachine[r.machine] ?? 0) + r.millis;
  return { byEditor, byMachine };
}

/** Every text of every import row, as JSON. */
async function importRowsText(): Promise<string> {
  const found = await rows<{ t: string }>(await getDb(), sql`SELECT coalesce(string_agg(row_to_json(imports)::text, ' '), '') AS t FROM imports`);
  return found[0].t;
}

/** Everything the process logs, for the key's absence. */
const logged: string[] = [];
beforeEach(() => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[method].bind(console);
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      original(...args);
    });
  }
});

const savedEnv = { ...process.env };
function setEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
}

describe('an import by key from WakaTime', () => {
  const waka = wakatimeStandInForTests(wakaKey, agents, machines);
  const standInHost = () => new URL(waka.standIn.origin).host;

  beforeAll(() => {
    pace.ms = 0;
    dumpPoll.ms = 20;
  });
  beforeEach(() => setEnv({ IMPORT_DOWNLOAD_HOSTS: standInHost(), IMPORT_ALLOWED_HOSTS: undefined }));
  afterEach(async () => {
    await remoteImportsSettled();
    await importsSettled();
  });
  afterAll(() => {
    setEnv({ IMPORT_DOWNLOAD_HOSTS: savedEnv.IMPORT_DOWNLOAD_HOSTS, IMPORT_ALLOWED_HOSTS: savedEnv.IMPORT_ALLOWED_HOSTS });
  });

  it('asks for the dump, waits until it is Completed, downloads and imports it with editors and machines named; again, counts nothing twice', async () => {
    const u = await importer();
    waka.standIn.setDump({ file: dumpText(), readsUntilReady: 3 });
    const res = await start(u.account, { from: 'wakatime', api_key: wakaKey });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as Status;
    const done = await ended(u.account, id);
    expect(done).toMatchObject({ status: 'done', source: 'wakatime', error: null, done: true });
    // The dump was made (POST), its list read until Completed, its file downloaded without the key.
    const asked = (r: StandInRequest) => `${r.method} ${r.path.replace('/api/v1/users/current/', '')}`;
    const requests = waka.standIn.requests.map(asked);
    expect(requests).toContain('POST data_dumps');
    expect(requests.filter((r) => r === 'GET data_dumps').length).toBeGreaterThanOrEqual(3);
    const downloads = waka.standIn.requests.filter((r) => r.path.startsWith('/dumps/'));
    expect(downloads).toHaveLength(1);
    expect(downloads[0].authorization).toBeUndefined();
    // Old day: two gaps of two minutes from VS Code, one from Neovim; recent day: two gaps of a minute from Neovim.
    const first = await credited(u.user.id);
    expect(first.byEditor).toEqual({ 'VS Code': 240_000, Neovim: 240_000 });
    expect(first.byMachine).toEqual({ 'ada-desk': 480_000 });

    waka.standIn.requests.length = 0;
    const again = (await (await start(u.account, { from: 'wakatime', api_key: wakaKey })).json()) as Status;
    expect((await ended(u.account, again.id)).status).toBe('done');
    expect(await credited(u.user.id)).toEqual(first);
    // The key is in no row of imports, and in no log line.
    const text = await importRowsText();
    expect(text).toContain(id);
    expect(text).not.toContain(wakaKey.slice(5));
    expect(text).not.toContain(Buffer.from(wakaKey).toString('base64'));
    expect(logged.join('\n')).not.toContain(wakaKey.slice(5));
  });

  it('imports a pasted download link when WakaTime makes no dump by key; without one it says to paste it', async () => {
    const u = await importer();
    waka.standIn.setDump({ file: dumpText(), refuseCreate: true });
    const refused = (await (await start(u.account, { from: 'wakatime', api_key: wakaKey })).json()) as Status;
    const failed = await ended(u.account, refused.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/400/);
    expect(failed.error).toMatch(/paste the download link/);
    expect((await credited(u.user.id)).byEditor).toEqual({});

    const pasted = (await (await start(u.account, { from: 'wakatime', api_key: wakaKey, download_url: waka.standIn.dumpFileUrl })).json()) as Status;
    expect(await ended(u.account, pasted.id)).toMatchObject({ status: 'done', error: null });
    expect((await credited(u.user.id)).byEditor).toEqual({ 'VS Code': 240_000, Neovim: 240_000 });
  });

  it('refuses a pasted link on a host IMPORT_DOWNLOAD_HOSTS does not list (422 naming download_url), and a dump WakaTime links there is not downloaded', async () => {
    const u = await importer();
    for (const link of ['https://example.com/dump.json', 'http://10.0.0.8/dump.json', 'http://127.0.0.1:9/dump.json']) {
      const res = await start(u.account, { from: 'wakatime', api_key: wakaKey, download_url: link });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['download_url']);
    }
    setEnv({ IMPORT_DOWNLOAD_HOSTS: 'dumps.example.com' });
    waka.standIn.setDump({ file: dumpText() });
    const { id } = (await (await start(u.account, { from: 'wakatime', api_key: wakaKey })).json()) as Status;
    const failed = await ended(u.account, id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('IMPORT_DOWNLOAD_HOSTS');
    expect(waka.standIn.requests.filter((r) => r.path.startsWith('/dumps/'))).toEqual([]);
    expect(fs.existsSync(spoolFile(id))).toBe(false);
    expect((await credited(u.user.id)).byEditor).toEqual({});
  });

  it('a refused key: a clear error naming what WakaTime answered, nothing imported, the key nowhere', async () => {
    const u = await importer();
    waka.standIn.setDump({ file: dumpText() });
    const wrong = `waka_${randomUUID()}`;
    const { id } = (await (await start(u.account, { from: 'wakatime', api_key: wrong })).json()) as Status;
    const failed = await ended(u.account, id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/WakaTime refused the key: it answered 401 \(Unauthorized\)/);
    expect(failed.error).not.toContain(wrong.slice(5));
    expect(waka.standIn.requests.some((r) => r.path.includes('data_dumps') || r.path.startsWith('/dumps/'))).toBe(false);
    expect((await credited(u.user.id)).byEditor).toEqual({});
    expect(await importRowsText()).not.toContain(wrong.slice(5));
    expect(logged.join('\n')).not.toContain(wrong.slice(5));
  });

  it('one import at a time per user: a second one while the first runs is a 409', async () => {
    const u = await importer();
    waka.standIn.setDump({ file: dumpText(), readsUntilReady: 1_000_000 });
    const first = (await (await start(u.account, { from: 'wakatime', api_key: wakaKey })).json()) as Status;
    // Waiting for WakaTime to prepare the dump (the stage says how far it is).
    await until(() => status(u.account, first.id), (s) => /preparing your data dump: \d+ %/.test(s.stage ?? ''), 'waiting for the dump');
    expect((await start(u.account, { from: 'wakatime', api_key: wakaKey })).status).toBe(409);
    expect((await start(u.account, { from: 'compatible', api_url: 'https://example.com/api/v1', api_key: 'k' })).status).toBe(409);
    // WakaTime's dump disappears: the first import ends, saying so.
    waka.standIn.setDump(null);
    const failed = await ended(u.account, first.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/lists no data dump/);
  });

  it('a restart ends an import that held its key, saying so; a dump already downloaded resumes and is imported', async () => {
    const u = await importer();
    const db = await getDb();
    const holding = randomUUID();
    // Its run last made progress longer ago than a live run does: its process is gone.
    const stale = new Date(Date.now() - STALE_AFTER_MS - 60_000);
    await db.insert(imports).values({ id: holding, userId: u.user.id, status: 'running', bytes: 0, source: 'compatible', daysTotal: 10, daysDone: 4, remoteSeenAt: stale });
    await resumeImports(db);
    expect(await status(u.account, holding)).toMatchObject({ status: 'failed', error: interruptedByRestart, days_done: 4 });
    // A run that made progress just now: with the embedded database it was this server's (ended);
    // with PostgreSQL it may be another process's, and is left running.
    const other = await importer();
    const fresh = randomUUID();
    await db.insert(imports).values({ id: fresh, userId: other.user.id, status: 'running', bytes: 0, source: 'compatible', remoteSeenAt: new Date() });
    await resumeImports(db);
    expect((await status(other.account, fresh)).status).toBe(config().DATABASE_URL ? 'running' : 'failed');
    await db.update(imports).set({ status: 'failed', remoteSeenAt: null }).where(eq(imports.id, fresh));

    const downloaded = randomUUID();
    fs.mkdirSync(path.dirname(spoolFile(downloaded)), { recursive: true });
    fs.writeFileSync(spoolFile(downloaded), dumpText());
    await db.insert(imports).values({
      id: downloaded,
      userId: u.user.id,
      status: 'queued',
      bytes: fs.statSync(spoolFile(downloaded)).size,
      source: 'wakatime',
      userAgents: agents[0].map((a) => ({ ...a })),
      machineNames: machines[0].map(({ id, name }) => ({ id, name })),
    });
    await resumeImports(db);
    expect(await ended(u.account, downloaded)).toMatchObject({ status: 'done', source: 'wakatime' });
    expect((await credited(u.user.id)).byMachine).toEqual({ 'ada-desk': 480_000 });
  });
});

describe('an import by key from a compatible server', () => {
  const key = `k-${randomUUID()}`;
  const waka = wakatimeStandInForTests(key, agents, machines);
  const base = () => waka.standIn.url;

  beforeAll(() => {
    pace.ms = 0;
  });
  afterEach(async () => {
    await remoteImportsSettled();
    setEnv({ IMPORT_ALLOWED_HOSTS: savedEnv.IMPORT_ALLOWED_HOSTS });
  });

  it('refuses loopback and private addresses a user gives unless IMPORT_ALLOWED_HOSTS lists them (422 naming api_url)', async () => {
    const u = await importer();
    setEnv({ IMPORT_ALLOWED_HOSTS: undefined });
    for (const api of [base(), 'http://localhost:3000/api', 'http://10.1.2.3/api/v1', 'http://[::1]:8080/api', 'http://169.254.169.254/latest', 'ftp://example.com/api', 'https://user:pw@example.com/api']) {
      const res = await start(u.account, { from: 'compatible', api_url: api, api_key: key });
      expect(res.status, api).toBe(422);
      expect(((await res.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['api_url']);
    }
    expect(waka.standIn.requests).toEqual([]);
    const missing = await start(u.account, { from: 'compatible', api_url: 'https://example.com/api' });
    expect(((await missing.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['api_key']);
    const unknown = await start(u.account, { from: 'elsewhere', api_key: key });
    expect(((await unknown.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['from']);
  });

  it('reads the account, its first day and each day (following next_after), names editors and machines; again counts nothing twice', async () => {
    const u = await importer();
    setEnv({ IMPORT_ALLOWED_HOSTS: new URL(base()).host });
    const basic = `Basic ${Buffer.from(key).toString('base64')}`;
    const today = Math.floor(nowSeconds() / DAY);
    const dateOf = (d: number) => new Date(d * DAY * 1000).toISOString().slice(0, 10);
    // Three days of heartbeats, 30 and 20 days ago (paged) and 2 days ago.
    const beatsOn: Record<string, object[]> = {};
    for (const [ago, editor] of [[30, 'VS Code'], [20, 'Neovim'], [2, 'Neovim']] as const) {
      const t = (today - ago) * DAY + 10 * 3600;
      beatsOn[dateOf(today - ago)] = [0, 60, 120, 180].map((s, i) => ({ id: `${ago}-${i}`, entity: `/w/${i}.ts`, type: 'file', time: t + s, project: 'web', language: 'TypeScript', category: 'coding', editor, operating_system: 'Linux', machine_name_id: 'm-1' }));
    }
    waka.standIn.answer((req) => {
      if (req.authorization !== basic) return { status: 401, body: { error: 'Unauthorized' } };
      const p = req.path.replace('/api/v1/users/current', '');
      if (p === '') return { status: 200, body: { data: { id: 'u1', username: 'ada', timezone: 'UTC', created_at: new Date((today - 400) * DAY * 1000).toISOString() } } };
      if (p === '/all_time_since_today') return { status: 200, body: { data: { total_seconds: 1, range: { start: new Date((today - 31) * DAY * 1000).toISOString(), start_date: dateOf(today - 31) } } } };
      if (p === '/machine_names') return { status: 200, body: { data: machines[0], total_pages: 1 } };
      if (p === '/user_agents') return { status: 404, body: { error: 'Not found' } };
      if (p === '/heartbeats') {
        const q = new URL(`http://x${req.fullPath}`).searchParams;
        const all = beatsOn[q.get('date') ?? ''] ?? [];
        // Codetally's paging: two a page, next_after the last one's id.
        if (q.get('date') === dateOf(today - 20)) {
          const after = q.get('after');
          const from = after ? all.findIndex((b) => (b as { id: string }).id === after) + 1 : 0;
          const page = all.slice(from, from + 2);
          return { status: 200, body: { data: page, next_after: from + 2 < all.length ? (page.at(-1) as { id: string }).id : null } };
        }
        return { status: 200, body: { data: all } };
      }
      return { status: 404, body: { error: 'Not found' } };
    });
    const res = await start(u.account, { from: 'compatible', api_url: `${base()}/`, api_key: key });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as Status;
    const done = await ended(u.account, id);
    expect(done).toMatchObject({ status: 'done', source: 'compatible', error: null, days_total: 32, days_done: 32 });
    const pages = waka.standIn.requests.filter((r) => r.fullPath?.includes(`date=${dateOf(today - 20)}`));
    expect(pages.map((r) => new URL(`http://x${r.fullPath}`).searchParams.get('after'))).toEqual([null, '20-1']);
    // Each day: three gaps of a minute.
    const first = await credited(u.user.id);
    expect(first.byEditor).toEqual({ 'VS Code': 180_000, Neovim: 360_000 });
    expect(first.byMachine).toEqual({ 'ada-desk': 540_000 });
    // Again, given the base above the API (as Wakapi's `https://host/api`): found at /v1 below it.
    const again = (await (await start(u.account, { from: 'compatible', api_url: `${waka.standIn.origin}/api`, api_key: key })).json()) as Status;
    expect((await ended(u.account, again.id)).status).toBe('done');
    expect(await credited(u.user.id)).toEqual(first);
    expect(await importRowsText()).not.toContain(key);
    expect(logged.join('\n')).not.toContain(key);
  });

  it('records that it is alive after each page of a day, not only at the end of the day (a day of many slow pages)', async () => {
    const u = await importer();
    setEnv({ IMPORT_ALLOWED_HOSTS: new URL(base()).host });
    const today = Math.floor(nowSeconds() / DAY);
    const dateOf = (d: number) => new Date(d * DAY * 1000).toISOString().slice(0, 10);
    const t = (today - 1) * DAY + 10 * 3600;
    const all = [0, 1, 2, 3, 4, 5].map((i) => ({ id: `b-${i}`, entity: `/w/${i}.ts`, type: 'file', time: t + i * 60, project: 'web', language: 'TypeScript', category: 'coding' }));
    // What the import's row said when the day's third page was asked for.
    let seen: Promise<{ heartbeats_read: number; days_done: number }[]> | null = null;
    waka.standIn.answer((req) => {
      const p = req.path.replace('/api/v1/users/current', '');
      if (p === '') return { status: 200, body: { data: { id: 'u1', username: 'ada', timezone: 'UTC', created_at: new Date((today - 1) * DAY * 1000).toISOString() } } };
      if (p === '/heartbeats') {
        const q = new URL(`http://x${req.fullPath}`).searchParams;
        if (q.get('date') !== dateOf(today - 1)) return { status: 200, body: { data: [] } };
        const after = q.get('after');
        const from = after ? all.findIndex((b) => b.id === after) + 1 : 0;
        if (from === 4) seen = getDb().then((db) => rows(db, sql`SELECT heartbeats_read::int AS heartbeats_read, days_done::int AS days_done FROM imports WHERE user_id = ${u.user.id}::uuid`));
        return { status: 200, body: { data: all.slice(from, from + 2), next_after: from + 2 < all.length ? all[from + 1].id : null } };
      }
      if (p === '/machine_names' || p === '/user_agents') return { status: 200, body: { data: [], total_pages: 1 } };
      return { status: 404, body: { error: 'Not found' } };
    });
    const { id } = (await (await start(u.account, { from: 'compatible', api_url: base(), api_key: key })).json()) as Status;
    expect(await ended(u.account, id)).toMatchObject({ status: 'done', error: null });
    expect(seen).not.toBeNull();
    const [row] = await seen!;
    // The first day's two pages were recorded before its third was asked for.
    expect(row.heartbeats_read).toBeGreaterThanOrEqual(4);
  });

  it('does not follow a redirect off the allowed host; a refusal says what the server answered', async () => {
    const u = await importer();
    setEnv({ IMPORT_ALLOWED_HOSTS: new URL(base()).host });
    waka.standIn.answer(() => ({ status: 302, headers: { location: 'http://10.9.8.7/api/v1/users/current' } }));
    const { id } = (await (await start(u.account, { from: 'compatible', api_url: base(), api_key: key })).json()) as Status;
    const failed = await ended(u.account, id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/redirect/);
    expect(waka.standIn.requests).toHaveLength(1);

    waka.standIn.answer(() => ({ status: 403, body: { error: `forbidden for key ${key}` } }));
    const refused = (await (await start(u.account, { from: 'compatible', api_url: base(), api_key: key })).json()) as Status;
    const why = (await ended(u.account, refused.id)).error!;
    expect(why).toMatch(/refused the key: it answered 403 \(forbidden for key …\)/);
    expect(why).not.toContain(key);
  });
});
