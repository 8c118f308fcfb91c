import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { POST as postImport } from '@/app/main/api/v1/me/imports/route';
import { GET as getSummaries } from '@/app/api/wakatime/v1/users/[user]/summaries/route';
import { issueToken } from '@/lib/accounts/tokens';
import { config } from '@/lib/config';
import { getDb, rows } from '@/lib/db/client';
import { imports } from '@/lib/db/schema';
import { importsSettled } from '@/lib/wakatime/importing/import-queue';
import { newUser, storedDimensions, storedIde, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';
import { closedPortUrl, wakatimeStandInForTests } from '../helpers/wakatime-standin';

// An import with the user's WakaTime key (X-WakaTime-Api-Key): the User-Agents a real dump names
// only by `user_agent_id` are read from WakaTime (here a stand-in on a local port, at
// WAKATIME_API_URL) before the upload is taken, and the history keeps its editors and systems.
// A key that is not one, refused, or a WakaTime that does not answer: nothing is imported.

const DAY = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const wakaKey = `waka_${randomUUID()}`;
const vscodeMac = 'wakatime/v1.98.0 (darwin-23.4.0-arm64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';
const neovimLinux = 'wakatime/v1.90.0 (linux-6.8.0-x86_64) go1.22.1 neovim/0.9.5 vim-wakatime/11.1.1';
const sublimeWindows = 'wakatime/v1.98.0 (windows-10.0.22631-x86_64) go1.22.1 sublime_text/4169 sublime-wakatime/10.0.1';
/** WakaTime's answer, on two pages: its entries carry more than the four fields kept. */
const listed = (id: string, value: string, editor: string, os: string) => ({ id, value, editor, os, is_browser_extension: false, is_desktop_app: false, last_seen_at: '2024-05-01T10:00:00Z', created_at: '2023-01-01T00:00:00Z' });
/** WakaTime's machine names (GET users/current/machine_names): the dump's heartbeats name `m-1`. */
const wakatimeMachines = [[{ id: 'm-1', name: 'ada-desk', value: 'ada-desk.local', ip: '203.0.113.9', timezone: 'UTC', last_seen_at: '2024-05-01T10:00:00Z', created_at: '2023-01-01T00:00:00Z' }, { id: 'm-2', name: null, value: 'build-box' }]];
const wakatimePages = [[listed('ua-vscode', vscodeMac, 'vscode', 'Mac')], [listed('ua-nvim', neovimLinux, 'neovim', 'Linux'), listed('ua-sublime', sublimeWindows, 'sublime_text', 'Windows')]];

async function importer() {
  const u = await newUser({ timezone: 'UTC', settings: { profile_public: true, share_languages: true, share_editors: true } });
  const db = await getDb();
  return { ...u, account: await tokenWithScopes(u.user.id, ['account']), key: (await issueToken(db, u.user.id, { name: 'vim', format: 'uuid' })).token };
}

/** A dump as WakaTime exports it: heartbeats naming their User-Agent by id, and no list of them. */
function realDump(old: number, recent: number, list?: unknown[]) {
  const beat = (time: number, i: number, ua: string) => ({ id: `h${i}`, entity: `/src/${i}.go`, time, language: 'Go', project: 'api', type: 'file', category: 'coding', user_agent_id: ua, machine_name_id: 'm-1' });
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
  return {
    user: { username: 'me' },
    days: [
      { date: day(old), heartbeats: [0, 120, 240].map((s, i) => beat(old + s, i, i < 2 ? 'ua-vscode' : 'ua-nvim')).concat(beat(old + 360, 3, 'ua-nvim')) },
      { date: day(recent), heartbeats: [0, 60, 120].map((s, i) => beat(recent + s, 10 + i, 'ua-nvim')) },
    ],
    ...(list ? { user_agents: list } : {}),
  };
}

async function send(token: string, dump: unknown, key?: string) {
  const url = 'http://localhost/main/api/v1/me/imports';
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-wakatime-api-key': key }) };
  return expectDocumented('POST', url, await postImport(new Request(url, { method: 'POST', headers, body: JSON.stringify(dump) })));
}

async function summaries(key: string, start: string, end: string) {
  const url = `http://localhost/api/wakatime/v1/users/current/summaries?start=${start}&end=${end}`;
  const request = new Request(url, { headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}` } });
  const res = await expectDocumented('GET', url, await getSummaries(request, { params: Promise.resolve({ user: 'current' }) }));
  const body = (await res.json()) as { data: { editors: { name: string; total_seconds: number }[]; operating_systems: { name: string }[] }[] };
  const names = (pick: (d: (typeof body.data)[number]) => { name: string }[]) => [...new Set(body.data.flatMap((d) => pick(d).map((e) => e.name)))].sort();
  return { editors: names((d) => d.editors), systems: names((d) => d.operating_systems) };
}

/** What the user's history is credited to: old days by editor, recent heartbeats by editor and system, and what the summaries show. */
async function credited(u: Awaited<ReturnType<typeof importer>>, old: number) {
  const ide = await storedIde(u.user.id);
  const byEditor: Record<string, number> = {};
  for (const r of ide) byEditor[r.editor] = (byEditor[r.editor] ?? 0) + r.millis;
  const beats = await rows<{ editor: string; os: string }>(await getDb(), sql`SELECT DISTINCT editor, os FROM heartbeats WHERE user_id = ${u.user.id} ORDER BY 1, 2`);
  const today = new Date().toISOString().slice(0, 10);
  const machines: Record<string, number> = {};
  for (const r of await storedDimensions(u.user.id)) machines[r.machine] = (machines[r.machine] ?? 0) + r.millis;
  return { byEditor, beats, machines, summaries: await summaries(u.key, new Date(old * 1000).toISOString().slice(0, 10), today) };
}

const spool = () => path.join(config().DATA_DIR, 'imports');
const spooled = () => (fs.existsSync(spool()) ? fs.readdirSync(spool()) : []);
const importRows = async (userId: string) => (await getDb()).select().from(imports).where(eq(imports.userId, userId));

describe('an import with a WakaTime API key', () => {
  const old = (Math.floor(nowSeconds() / DAY) - 40) * DAY + 9 * 3600;
  const recent = (Math.floor(nowSeconds() / DAY) - 3) * DAY + 9 * 3600;

  const waka = wakatimeStandInForTests(wakaKey, wakatimePages, wakatimeMachines);
  const { useUrl } = waka;

  it("credits a real dump's heartbeats to the editors and systems WakaTime lists for their ids; the key is kept nowhere", async () => {
    const u = await importer();
    const res = await send(u.account, realDump(old, recent), wakaKey);
    expect(res.status).toBe(202);
    const { id } = await res.json();
    // Asked before the answer, every page of both lists, with the key as wakatime-cli sends it.
    const asked = waka.standIn.requests.map((r) => [r.path.split('/').at(-1), r.page, r.authorization]);
    const basicKey = `Basic ${Buffer.from(wakaKey).toString('base64')}`;
    expect(asked.sort()).toEqual([
      ['machine_names', 1, basicKey],
      ['user_agents', 1, basicKey],
      ['user_agents', 2, basicKey],
    ]);
    await importsSettled();
    const [row] = await importRows(u.user.id);
    expect(row).toMatchObject({ id, status: 'done', error: null, userAgents: null, machineNames: null });
    // The old day: two gaps of two minutes from VS Code, one from Neovim (its last heartbeat
    // credits nothing after it); the recent day: two gaps of a minute from Neovim.
    const got = await credited(u, old);
    expect(got.byEditor).toEqual({ 'VS Code': 240_000, Neovim: 240_000 });
    expect(got.beats).toEqual([{ editor: 'Neovim', os: 'Linux' }]);
    // Systems are kept with the buckets: the old day's VS Code time on a Mac counts as such too.
    expect(got.summaries).toEqual({ editors: ['Neovim', 'VS Code'], systems: ['Linux', 'Mac'] });
    // The machine the heartbeats name by id, on the old day and the recent one alike: none Unknown.
    expect(got.machines).toEqual({ 'ada-desk': 480_000 });
    // The key is in no table.
    const db = await getDb();
    const found = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM imports WHERE row_to_json(imports)::text ILIKE ${`%${wakaKey.slice(5)}%`}`);
    expect(found[0].n).toBe(0);
  });

  it("keeps the dump's own entry for an id both list (the first one read)", async () => {
    const u = await importer();
    // The dump says ua-vscode is Sublime Text on Windows; WakaTime says VS Code on a Mac.
    const res = await send(u.account, realDump(old, recent, [{ id: 'ua-vscode', value: sublimeWindows, editor: 'sublime_text', os: 'Windows' }]), wakaKey);
    expect(res.status).toBe(202);
    await importsSettled();
    const got = await credited(u, old);
    expect(got.byEditor).toEqual({ 'Sublime Text': 240_000, Neovim: 240_000 });
    expect(got.summaries.editors).toEqual(['Neovim', 'Sublime Text']);
  });

  it("names machines from the dump's own machine_names list, without a key", async () => {
    const u = await importer();
    const res = await send(u.account, { ...realDump(old, recent), machine_names: [{ id: 'm-1', name: 'dump-desk', value: 'dump-desk.local' }] });
    expect(res.status).toBe(202);
    await importsSettled();
    expect((await credited(u, old)).machines).toEqual({ 'dump-desk': 480_000 });
    expect(waka.standIn.requests).toEqual([]);
  });

  it('imports as before without a key (or with an empty one): editors by id only are Unknown, WakaTime not asked', async () => {
    for (const key of [undefined, '']) {
      const u = await importer();
      const res = await send(u.account, realDump(old, recent), key);
      expect(res.status).toBe(202);
      await importsSettled();
      const got = await credited(u, old);
      expect(got.byEditor).toEqual({ '': 480_000 });
      expect(got.beats).toEqual([{ editor: '', os: 'Unknown' }]);
      expect(got.summaries).toEqual({ editors: ['Unknown'], systems: ['Unknown'] });
      expect(got.machines).toEqual({ '': 480_000 });
    }
    expect(waka.standIn.requests).toEqual([]);
  });

  /** The request was refused and nothing of it is kept: no import, no file, no figures. */
  async function nothingImported(u: Awaited<ReturnType<typeof importer>>) {
    await importsSettled();
    expect(await importRows(u.user.id)).toEqual([]);
    expect(spooled()).toEqual([]);
    expect(await storedIde(u.user.id)).toEqual([]);
  }

  it('refuses a key that is not a WakaTime key, or that WakaTime refuses, with 400 naming the header; nothing imported', async () => {
    const u = await importer();
    const notAKey = await send(u.account, realDump(old, recent), 'my-password');
    expect(notAKey.status).toBe(400);
    expect(await notAKey.json()).toMatchObject({ code: 'invalid_header', detail: expect.stringMatching(/^X-WakaTime-Api-Key: not a WakaTime API key/), errors: [{ path: 'X-WakaTime-Api-Key' }] });
    expect(waka.standIn.requests).toEqual([]);
    await nothingImported(u);

    const refused = await send(u.account, realDump(old, recent), `waka_${randomUUID()}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'invalid_header', detail: expect.stringMatching(/^X-WakaTime-Api-Key: WakaTime refused this key \(401\)/) });
    // Each list asked once (at the same time), no further page.
    expect(waka.standIn.requests.map((r) => [r.path.split('/').at(-1), r.page]).sort()).toEqual([['machine_names', 1], ['user_agents', 1]]);
    await nothingImported(u);

    waka.standIn.answer(() => ({ status: 403, body: { error: 'Forbidden' } }));
    expect((await send(u.account, realDump(old, recent), wakaKey)).status).toBe(400);
    await nothingImported(u);
  });

  it('answers 502 when WakaTime is down, fails or answers something else, leaking nothing; nothing imported', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const u = await importer();
    useUrl(await closedPortUrl());
    const down = await send(u.account, realDump(old, recent), wakaKey);
    expect(down.status).toBe(502);
    const problem = await down.json();
    expect(problem).toMatchObject({ code: 'wakatime_unavailable', detail: expect.stringMatching(/^WakaTime could not be reached: nothing was imported/) });
    expect(JSON.stringify(problem)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|fetch failed/);
    await nothingImported(u);

    useUrl(waka.standIn.url);
    for (const answer of [{ status: 503, body: { error: 'db timeout at 10.0.0.7' } }, { status: 200, body: { data: { ua: 1 } } }, { status: 200, body: 'not json' }]) {
      waka.standIn.answer(() => answer);
      const res = await send(u.account, realDump(old, recent), wakaKey);
      expect(res.status).toBe(502);
      expect(await res.text()).not.toContain('10.0.0.7');
      await nothingImported(u);
    }
    expect(JSON.stringify(warn.mock.calls)).not.toContain(wakaKey.slice(5));
  });
});
