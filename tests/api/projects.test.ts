import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GET as listRoute } from '@/app/main/api/v1/me/projects/route';
import { GET as daysRoute } from '@/app/main/api/v1/me/projects/[name]/days/route';
import { POST as renameRoute } from '@/app/main/api/v1/me/projects/[name]/rename/route';
import { PUT as hiddenRoute } from '@/app/main/api/v1/me/projects/[name]/hidden/route';
import { POST as splitRoute } from '@/app/main/api/v1/me/projects/[name]/split/route';
import { GET as listGoals, POST as postGoal } from '@/app/main/api/v1/me/goals/route';
import { GET as timelineRoute } from '@/app/main/api/v1/me/timeline/route';
import { POST as syncRoute } from '@/app/main/api/v1/sync/activities/route';
import { POST as bulkRoute } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { GET as wakaProjects } from '@/app/api/wakatime/v1/users/[user]/projects/route';
import { GET as wakaStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { POST as postImport } from '@/app/main/api/v1/me/imports/route';
import { importsSettled } from '@/lib/wakatime/importing/import-queue';
import { issueToken } from '@/lib/accounts/tokens';
import { getDb, rows } from '@/lib/db/client';
import { localDateHour } from '@/lib/local-time';
import { addDays } from '@/lib/dates';
import { csvField } from '@/lib/projects/csv';
import { mergesInto } from '@/lib/projects/merges';
import { call, newUser, storedDimensions, storedIde, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';
import { getChart } from '../helpers/public';

// The project routes (API.md, "Your own figures"): the list, a project's days (JSON and CSV),
// rename (past and future figures, merges, chains, repeats) and hidden projects.

const base = 'http://localhost/main/api/v1';
type Params = { name: string };

async function get(handler: typeof daysRoute, path: string, token: string, params?: Params, headers: Record<string, string> = {}) {
  const request = new Request(`${base}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return expectDocumented('GET', request.url, await handler(request, { params: Promise.resolve(params ?? ({} as Params)) }));
}

async function send(handler: typeof renameRoute, method: 'POST' | 'PUT', path: string, token: string, params: Params, body: unknown) {
  const request = new Request(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return expectDocumented(method, request.url, await handler(request, { params: Promise.resolve(params) }));
}

const enc = encodeURIComponent;
const rename = (token: string, name: string, to: string) => send(renameRoute, 'POST', `/me/projects/${enc(name)}/rename`, token, { name }, { to });
const split = (token: string, into: string, project: string) => send(splitRoute, 'POST', `/me/projects/${enc(into)}/split`, token, { name: into }, { project });
const hide = (token: string, name: string, hidden: boolean) => send(hiddenRoute, 'PUT', `/me/projects/${enc(name)}/hidden`, token, { name }, { hidden });
const list = async (token: string, query = 'range=30d') => (await get(listRoute as typeof daysRoute, `/me/projects?${query}`, token)).json();
const days = (token: string, name: string, query = 'range=30d', headers: Record<string, string> = {}) =>
  get(daysRoute, `/me/projects/${enc(name)}/days?${query}`, token, { name }, headers);

interface Bucket {
  date: string;
  hour: number;
  language: string;
  project?: string;
  seconds: number;
  editor?: string;
}

async function write(token: string, buckets: Bucket[]) {
  const activities = buckets.map((b) => ({ date: b.date, hour: b.hour, language: b.language, time: b.seconds, ide_name: b.editor ?? 'vscode', ...(b.project ? { project_name: b.project } : {}) }));
  const res = await call(syncRoute, '/sync/activities', { token, body: { activities } });
  expect(res.status).toBe(200);
}

async function heartbeats(key: string, beats: { at: number; project: string; language: string; entity: string }[]) {
  const body = beats.map((b) => ({ entity: b.entity, time: b.at / 1000, type: 'file', category: 'coding', language: b.language, ...(b.project ? { project: b.project } : {}) }));
  const url = 'http://localhost/api/wakatime/v1/users/current/heartbeats.bulk';
  const request = new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'user-agent': 'wakatime/13.1.0 (linux-5.15.0) python3.11 vim/9.0 vim-wakatime/9.0.1' },
    body: JSON.stringify(body),
  });
  const res = await expectDocumented('POST', url, await bulkRoute(request, { params: Promise.resolve({ user: 'current' }) }));
  expect(res.status).toBe(201);
}

/** A user with a sync token, an account token, a stats token and a WakaTime key. */
async function owner(options: { timezone?: string; public?: boolean } = {}) {
  const { user, token: sync } = await newUser({
    timezone: options.timezone ?? 'UTC',
    settings: options.public ? { profile_public: true, share_languages: true, share_editors: true } : undefined,
  });
  const account = await tokenWithScopes(user.id, ['account']);
  const stats = await tokenWithScopes(user.id, ['stats']);
  const { token: key } = await issueToken(await getDb(), user.id, { name: 'vim', format: 'uuid' });
  return { user, sync: sync!, account, stats, key };
}

const today = (timezone = 'UTC') => localDateHour(timezone).date;

/** A WakaTime data dump of one UTC day 100 days ago: Go heartbeats in `project` at 10:00 plus each minute given. */
const DUMP_DAY = Math.floor(Date.now() / 86_400_000) - 100;
const dumpOf = (project: string, minutes: number[], entity = '/src/x.go') =>
  JSON.stringify({
    user: { id: 'u-1', username: 'me', timezone: 'UTC' },
    days: [{ date: new Date(DUMP_DAY * 86_400_000).toISOString().slice(0, 10), heartbeats: minutes.map((m) => ({ entity, type: 'file', category: 'coding', language: 'Go', project, time: DUMP_DAY * 86_400 + 36_000 + m * 60 })) }],
  });

/** Imports a dump with an account token and waits until it is read. */
async function importDump(token: string, body: string) {
  const res = await postImport(new Request(`${base}/me/imports`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body }));
  expect(res.status).toBe(202);
  await importsSettled();
}

describe('GET /me/projects', () => {
  it('lists each project with its languages, editors and last active date, the hour cap applied', async () => {
    const o = await owner();
    const d1 = addDays(today(), -3);
    const d2 = addDays(today(), -1);
    await write(o.sync, [
      { date: d1, hour: 9, language: 'Go', project: 'api', seconds: 1800 },
      { date: d1, hour: 9, language: 'SQL', project: 'api', seconds: 600, editor: 'vim' },
      { date: d2, hour: 10, language: 'TypeScript', project: 'web', seconds: 3000 },
      // Hour 11 holds 5400 s: capped to 3600, each bucket scaled by 2/3.
      { date: d2, hour: 11, language: 'TypeScript', project: 'web', seconds: 3600 },
      { date: d2, hour: 11, language: 'Go', seconds: 1800 },
    ]);
    const res = await get(listRoute as typeof daysRoute, '/me/projects?range=7d', o.account);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(await res.json()).toEqual({
      projects: [
        { name: 'web', seconds: 5400, languages: [{ name: 'TypeScript', seconds: 5400 }], editors: [{ name: 'VS Code', seconds: 5400 }], last_active: d2 },
        { name: 'api', seconds: 2400, languages: [{ name: 'Go', seconds: 1800 }, { name: 'SQL', seconds: 600 }], editors: [{ name: 'VS Code', seconds: 1800 }, { name: 'Vim', seconds: 600 }], last_active: d1 },
        { name: '(no project)', seconds: 1200, languages: [{ name: 'Go', seconds: 1200 }], editors: [{ name: 'VS Code', seconds: 1200 }], last_active: d2 },
      ],
      hidden: [],
    });
    // A stats token reads it too; from/to in the owner's dates.
    const span = await list(o.stats, `from=${d1}&to=${d1}`);
    expect(span.projects.map((p: { name: string }) => p.name)).toEqual(['api']);
  });

  it('reads ranges in the owner\'s timezone', async () => {
    const zone = 'Pacific/Kiritimati'; // UTC+14: its today is often UTC's tomorrow
    const o = await owner({ timezone: zone });
    await write(o.sync, [{ date: today(zone), hour: 0, language: 'Go', project: 'late', seconds: 60 }]);
    expect((await list(o.account, `from=${today(zone)}&to=${today(zone)}`)).projects).toHaveLength(1);
    expect((await list(o.account, 'range=7d')).projects).toHaveLength(1);
  });

  it('answers 400 invalid_query naming a bad range, and 401/403 without the right credentials', async () => {
    const o = await owner();
    for (const [query, param] of [
      ['range=90d', 'range'],
      ['range=today', 'range'],
      ['from=2025-01-01', 'to'],
      ['from=2025-02-30&to=2025-03-01', 'from'],
      ['from=2024-01-01&to=2025-01-02', 'to'],
      ['from=2025-01-02&to=2025-01-01', 'to'],
      ['range=7d&from=2025-01-01&to=2025-01-02', 'range'],
    ]) {
      const res = await get(listRoute as typeof daysRoute, `/me/projects?${query}`, o.account);
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(body.code).toBe('invalid_query');
      expect(body.errors[0].path, query).toBe(param);
    }
    expect((await get(listRoute as typeof daysRoute, '/me/projects?from=2024-01-01&to=2024-12-31', o.account)).status).toBe(200);
    expect((await get(listRoute as typeof daysRoute, '/me/projects', o.sync)).status).toBe(403);
    const anonymous = new Request(`${base}/me/projects`);
    expect((await listRoute(anonymous)).status).toBe(401);
  });
});

describe('GET /me/projects/{name}/days', () => {
  it('gives the project\'s days with their languages, and CSV for invoices', async () => {
    const o = await owner();
    const [d1, d2] = [addDays(today(), -5), addDays(today(), -2)];
    const name = '=HYPERLINK("x"), inc';
    await write(o.sync, [
      { date: d1, hour: 9, language: 'Go', project: name, seconds: 3600 },
      { date: d1, hour: 10, language: 'Rust', project: name, seconds: 1234 },
      { date: d2, hour: 9, language: 'Go', project: name, seconds: 900 },
      { date: d2, hour: 9, language: 'Go', project: 'other', seconds: 900 },
    ]);
    const res = await days(o.account, name);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      project: name,
      days: [
        { date: d1, seconds: 4834, languages: [{ name: 'Go', seconds: 3600 }, { name: 'Rust', seconds: 1234 }] },
        { date: d2, seconds: 900, languages: [{ name: 'Go', seconds: 900 }] },
      ],
    });
    const expected = `date,project,seconds,hours\r\n${d1},"'=HYPERLINK(""x""), inc",4834,1.34\r\n${d2},"'=HYPERLINK(""x""), inc",900,0.25\r\n`;
    for (const csv of [await days(o.account, name, 'range=30d&format=csv'), await days(o.stats, name, 'range=30d', { accept: 'text/csv' })]) {
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="[A-Za-z0-9._-]+-days\.csv"$/);
      expect(csv.headers.get('cache-control')).toBe('private, no-store');
      expect(await csv.text()).toBe(expected);
    }
    // format=json wins over the Accept header.
    expect((await days(o.account, name, 'format=json', { accept: 'text/csv' })).headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers 404 for a project with no time, 400 for a bad range or format; an empty range is no error', async () => {
    const o = await owner();
    await write(o.sync, [{ date: addDays(today(), -1), hour: 9, language: 'Go', project: 'known', seconds: 60 }]);
    expect((await days(o.account, 'unknown')).status).toBe(404);
    expect((await days(o.account, 'bad\u0000name')).status).toBe(404);
    expect((await days(o.account, 'known', 'format=xml')).status).toBe(400);
    expect((await days(o.account, 'known', 'range=90d')).status).toBe(400);
    const empty = await days(o.account, 'known', 'from=2020-01-01&to=2020-01-31');
    expect(await empty.json()).toEqual({ project: 'known', days: [] });
    // Another user's project is unknown to me.
    const other = await owner();
    expect((await days(other.account, 'known')).status).toBe(404);
  });

  it('names time without a project "(no project)"', async () => {
    const o = await owner();
    const d = addDays(today(), -1);
    await write(o.sync, [{ date: d, hour: 9, language: 'Go', seconds: 60 }]);
    expect(await (await days(o.account, '(no project)')).json()).toEqual({ project: '(no project)', days: [{ date: d, seconds: 60, languages: [{ name: 'Go', seconds: 60 }] }] });
  });
});

describe('CSV fields', () => {
  it('quote what must be quoted and guard formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    for (const start of ['=', '+', '-', '@']) expect(csvField(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(csvField('\tx')).toBe("'\tx");
  });
});

describe('POST /me/projects/{name}/rename', () => {
  it('moves past figures, sends later buckets and heartbeats of the old name to the new one, and repeats as a no-op', async () => {
    const o = await owner();
    const d = addDays(today(), -2);
    await write(o.sync, [{ date: d, hour: 9, language: 'Go', project: 'old', seconds: 600 }]);
    const first = await rename(o.account, 'old', 'new');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ project: 'new', merged: false });
    const again = await rename(o.account, 'old', 'new');
    expect(await again.json()).toEqual({ project: 'new', merged: false });
    await write(o.sync, [{ date: d, hour: 9, language: 'Go', project: 'old', seconds: 300 }]);
    const now = Date.now();
    await heartbeats(o.key, [
      { at: now - 600_000, project: 'old', language: 'Go', entity: 'a.go' },
      { at: now - 300_000, project: 'old', language: 'Go', entity: 'a.go' },
    ]);
    const { projects } = await list(o.account, 'range=7d');
    expect(projects.map((p: { name: string; seconds: number }) => [p.name, p.seconds])).toEqual([['new', 1200]]);
    expect((await days(o.account, 'old')).status).toBe(404);
    const stored = await rows<{ project: string }>(await getDb(), sql`SELECT DISTINCT project FROM heartbeats WHERE user_id = ${o.user.id}`);
    expect(stored).toEqual([{ project: 'new' }]);
  });

  it('merges into a project that has time, summing buckets of the same key, the hour cap holding', async () => {
    const o = await owner();
    const d = addDays(today(), -1);
    await write(o.sync, [
      { date: d, hour: 9, language: 'Go', project: 'a', seconds: 2400 },
      { date: d, hour: 9, language: 'Go', project: 'b', seconds: 2400 },
    ]);
    const res = await rename(o.account, 'a', 'b');
    expect(await res.json()).toEqual({ project: 'b', merged: true });
    expect(await storedIde(o.user.id)).toEqual([{ date: d, hour: 9, language: 'Go', project: 'b', editor: 'VS Code', millis: 4_800_000, lines: 0 }]);
    expect((await list(o.account)).projects).toEqual([{ name: 'b', seconds: 3600, languages: [{ name: 'Go', seconds: 3600 }], editors: [{ name: 'VS Code', seconds: 3600 }], last_active: d }]);
  });

  it('follows chains, and a rename back onto an old name makes it a name of its own again', async () => {
    const o = await owner();
    const d = addDays(today(), -1);
    await write(o.sync, [{ date: d, hour: 9, language: 'Go', project: 'a', seconds: 60 }]);
    await rename(o.account, 'a', 'b');
    await rename(o.account, 'b', 'c');
    await write(o.sync, [{ date: d, hour: 10, language: 'Go', project: 'a', seconds: 60 }, { date: d, hour: 11, language: 'Go', project: 'b', seconds: 60 }]);
    expect((await list(o.account)).projects.map((p: { name: string }) => p.name)).toEqual(['c']);
    expect(await (await rename(o.account, 'c', 'a')).json()).toEqual({ project: 'a', merged: false });
    // a counts as itself again (no loop back to c); c, renamed away now, counts as a.
    await write(o.sync, [{ date: d, hour: 12, language: 'Go', project: 'a', seconds: 60 }, { date: d, hour: 13, language: 'Go', project: 'c', seconds: 60 }]);
    const names = (await list(o.account)).projects.map((p: { name: string; seconds: number }) => [p.name, p.seconds]);
    expect(names).toEqual([['a', 300]]);
    // b, renamed away before, follows where its time went: a.
    await write(o.sync, [{ date: d, hour: 14, language: 'Go', project: 'b', seconds: 60 }]);
    expect((await list(o.account)).projects.map((p: { name: string; seconds: number }) => [p.name, p.seconds])).toEqual([['a', 360]]);
  });

  it('moves "(no project)" time, but time without a project afterwards stays so', async () => {
    const o = await owner();
    const d = addDays(today(), -1);
    await write(o.sync, [{ date: d, hour: 9, language: 'Go', seconds: 60 }]);
    expect(await (await rename(o.account, '(no project)', 'sorted')).json()).toEqual({ project: 'sorted', merged: false });
    await write(o.sync, [{ date: d, hour: 10, language: 'Go', seconds: 30 }]);
    const names = (await list(o.account)).projects.map((p: { name: string; seconds: number }) => [p.name, p.seconds]);
    expect(names).toEqual([['sorted', 60], ['(no project)', 30]]);
  });

  it('validates the new name like a project name, and answers 404 for an unknown project', async () => {
    const o = await owner();
    await write(o.sync, [{ date: addDays(today(), -1), hour: 9, language: 'Go', project: 'p', seconds: 60 }]);
    for (const to of ['', '   ', 'x'.repeat(201), 'a\u0000b', 'bidi\u202Eevil', '\uD800']) {
      const res = await rename(o.account, 'p', to);
      expect(res.status, JSON.stringify(to)).toBe(422);
      expect((await res.json()).errors[0].path).toBe('to');
    }
    expect((await send(renameRoute, 'POST', '/me/projects/p/rename', o.account, { name: 'p' }, { to: 5 })).status).toBe(422);
    expect((await rename(o.account, 'nope', 'x')).status).toBe(404);
    expect((await rename(o.account, 'p', 'x'.repeat(200))).status).toBe(200);
    expect((await rename(o.sync, 'p', 'y')).status).toBe(403);
  });

  it('sends imported days of the old name to the new one, the same dump imported again counting nothing twice', async () => {
    const o = await owner();
    const dump = (minutes: number[]) => dumpOf('old', minutes, '/src/old/a.go');
    await importDump(o.account, dump([0, 5, 10]));
    expect(await (await rename(o.account, 'old', 'new')).json()).toEqual({ project: 'new', merged: false });
    await importDump(o.account, dump([0, 5, 10]));
    const figures = async () => (await list(o.account, 'range=all')).projects.map((p: { name: string; seconds: number }) => [p.name, p.seconds]);
    expect(await figures()).toEqual([['new', 600]]);
    // A fuller export of the day replaces what the day held, still under the new name.
    await importDump(o.account, dump([0, 5, 10, 15]));
    expect(await figures()).toEqual([['new', 900]]);
    expect((await storedIde(o.user.id)).filter((r) => r.project === 'old' && r.millis !== 0)).toEqual([]);
    // Another project renamed onto the old name makes it a name of its own again: a fuller export
    // still takes back exactly what the day held (from where it is) and counts the day as "old".
    await write(o.sync, [{ date: addDays(today(), -1), hour: 9, language: 'Go', project: 'x', seconds: 60 }]);
    await rename(o.account, 'x', 'old');
    await importDump(o.account, dump([0, 5, 10, 15, 20]));
    expect(await figures()).toEqual([['old', 1260]]);
  });

  it('moves the credits of imported days, so that a day imported again replaces them', async () => {
    const o = await owner();
    const d = addDays(today(), -40);
    const db = await getDb();
    const credits = { ide: [[d, 9, 'Go', 'old', '', 600_000]], desktop: [] };
    await db.execute(sql`INSERT INTO imported_days (user_id, day, credits, heartbeats, continues) VALUES (${o.user.id}, 1, ${JSON.stringify(credits)}::jsonb, 3, true)`);
    await write(o.sync, [{ date: d, hour: 9, language: 'Go', project: 'old', seconds: 600, editor: '' }]);
    await rename(o.account, 'old', 'new');
    const [stored] = await rows<{ credits: { ide: unknown[][] } }>(db, sql`SELECT credits FROM imported_days WHERE user_id = ${o.user.id}`);
    expect(stored.credits.ide).toEqual([[d, 9, 'Go', 'new', '', 600_000]]);
  });
});

describe('POST /me/projects/{name}/split', () => {
  it('splits a merged project back out: its time, heartbeats, goals and hidden flag, its name its own again', async () => {
    const o = await owner();
    const d = addDays(today(), -1);
    await write(o.sync, [
      { date: d, hour: 9, language: 'Go', project: 'a', seconds: 1200 },
      { date: d, hour: 9, language: 'Go', project: 'b', seconds: 600 },
      { date: d, hour: 10, language: 'Rust', project: 'a', seconds: 300 },
    ]);
    const start = Date.now() - 2 * 86_400_000;
    await heartbeats(o.key, [0, 2, 4].map((m) => ({ at: start + m * 60_000, project: 'a', language: 'Go', entity: 'a.go' })));
    expect((await send(hiddenRoute, 'PUT', '/me/projects/a/hidden', o.account, { name: 'a' }, { hidden: true })).status).toBe(200);
    const goal = await call(postGoal, '/me/goals', { token: o.account, body: { period: 'day', seconds: 3600, project: 'a' } });
    expect(goal.status).toBe(201);
    const before = await storedDimensions(o.user.id);

    expect(await (await rename(o.account, 'a', 'b')).json()).toEqual({ project: 'b', merged: true });
    const [shown] = await mergesInto(await getDb(), o.user.id, 'b');
    expect(shown).toMatchObject({ project: 'a', seconds: 1500 + 240 });
    // Time after the merge: a bucket under the old name counts in b and stays there; the next
    // heartbeat of a extends the last merged one's credit, which goes back with it.
    await write(o.sync, [{ date: d, hour: 11, language: 'Go', project: 'a', seconds: 60 }]);
    await heartbeats(o.key, [{ at: start + 6 * 60_000, project: 'a', language: 'Go', entity: 'a.go' }]);

    const res = await split(o.account, 'b', 'a');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project: 'a', into: 'b' });
    const figures = (await list(o.account)).projects.map((p: { name: string; seconds: number }) => [p.name, p.seconds]);
    expect(figures).toEqual([['a', 1500 + 360], ['b', 600 + 60]]);
    expect((await list(o.account)).hidden).toEqual(['a']);
    const goals = (await (await listGoals(new Request(`${base}/me/goals`, { headers: { authorization: `Bearer ${o.account}` } }))).json()).goals as { project: string }[];
    expect(goals.map((g) => g.project)).toEqual(['a']);
    // What the merge moved is back as it was, to the row; the later time is beside it.
    const after = await storedDimensions(o.user.id);
    const buckets = (list: typeof after) => list.filter((r) => r.date === d && r.hour < 11 && r.project === 'a');
    expect(buckets(after)).toEqual(buckets(before));
    // a is a name of its own again: its later time counts under it. The split is done: again is 404.
    await write(o.sync, [{ date: d, hour: 12, language: 'Go', project: 'a', seconds: 60 }]);
    expect((await list(o.account)).projects.find((p: { name: string }) => p.name === 'a').seconds).toBe(1500 + 360 + 60);
    expect((await split(o.account, 'b', 'a')).status).toBe(404);
  });

  it('ends with a later rename of either name; refuses once an import replaced a merged day; validates', async () => {
    const o = await owner();
    const d = addDays(today(), -1);
    const both = () => write(o.sync, [{ date: d, hour: 9, language: 'Go', project: 'a', seconds: 60 }, { date: d, hour: 9, language: 'Go', project: 'b', seconds: 60 }]);
    await both();
    await rename(o.account, 'a', 'b');
    await rename(o.account, 'b', 'c');
    expect((await split(o.account, 'b', 'a')).status).toBe(404);
    expect((await split(o.account, 'c', 'a')).status).toBe(404);
    expect((await split(o.account, 'c', 'b')).status).toBe(404);
    expect((await split(o.account, 'c', '')).status).toBe(422);
    // Text PostgreSQL cannot store is refused by name, never sent to it.
    for (const bad of ['a\u0000b', '\uD800']) {
      const res = await split(o.account, 'c', bad);
      expect(res.status).toBe(422);
      expect((await res.json()).errors[0].path).toBe('project');
    }
    expect((await send(splitRoute, 'POST', '/me/projects/c/split', o.account, { name: 'c' }, { project: 5 })).status).toBe(422);
    expect((await send(splitRoute, 'POST', '/me/projects/c/split', o.sync, { name: 'c' }, { project: 'a' })).status).toBe(403);

    // An import into the merged project's days since the merge: 409, and nothing changes.
    const p = await owner();
    await importDump(p.account, dumpOf('a', [0, 5, 10]));
    await write(p.sync, [{ date: d, hour: 9, language: 'Go', project: 'b', seconds: 60 }]);
    await rename(p.account, 'a', 'b');
    await importDump(p.account, dumpOf('a', [0, 5, 10, 15]));
    const stored = await storedIde(p.user.id);
    const refused = await split(p.account, 'b', 'a');
    expect(refused.status).toBe(409);
    expect((await refused.json()).code).toBe('merge_changed');
    expect(await storedIde(p.user.id)).toEqual(stored);
  });

  it("puts imported days' credits back under the old name, so that a day imported again replaces them there", async () => {
    const o = await owner();
    await importDump(o.account, dumpOf('a', [0, 5, 10]));
    await write(o.sync, [{ date: addDays(today(), -1), hour: 9, language: 'Go', project: 'b', seconds: 60 }]);
    await rename(o.account, 'a', 'b');
    expect((await split(o.account, 'b', 'a')).status).toBe(200);
    await importDump(o.account, dumpOf('a', [0, 5, 10, 15]));
    const figures = (await list(o.account, 'range=all')).projects.map((p: { name: string; seconds: number }) => [p.name, p.seconds]);
    expect(figures).toEqual([['a', 900], ['b', 60]]);
  });
});

// The split property: any writes (buckets, heartbeats in order and late), a merge, more writes
// under either name, then the split, end at the figures of the history written directly: what was
// written before the merge under its own name, what came after it under the name it counted under.

type Write = { kind: 'bucket'; day: number; hour: number; language: string; project: 'a' | 'b'; seconds: number } | { kind: 'beats'; minute: number; language: string; project: 'a' | 'b'; offsets: number[] };
const writeArb: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('bucket' as const), day: fc.integer({ min: 1, max: 2 }), hour: fc.integer({ min: 8, max: 9 }), language: fc.constantFrom('Go', 'Rust'), project: fc.constantFrom('a' as const, 'b' as const), seconds: fc.integer({ min: 1, max: 3600 }) }),
  fc.record({
    kind: fc.constant('beats' as const),
    minute: fc.integer({ min: 0, max: 60 }),
    language: fc.constantFrom('Go', 'Rust'),
    project: fc.constantFrom('a' as const, 'b' as const),
    offsets: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 3 }),
  }),
);

describe('split property', () => {
  it('a merge split back out leaves the figures of the history written under the names it counted under', async () => {
    const start = Date.now() - 3 * 86_400_000;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(writeArb, { minLength: 1, maxLength: 4 }), fc.array(writeArb, { minLength: 0, maxLength: 4 }), async (before, after) => {
        run += 1;
        const timezone = run % 2 ? 'UTC' : 'Asia/Kolkata';
        const [merged, direct] = [await owner({ timezone }), await owner({ timezone })];
        const d = addDays(today(timezone), -3);
        // Both names have time, so that the rename merges.
        const seed = [{ date: d, hour: 7, language: 'Go', project: 'a', seconds: 60 }, { date: d, hour: 7, language: 'Go', project: 'b', seconds: 60 }];
        await write(merged.sync, seed);
        await write(direct.sync, seed);
        let n = 0;
        const apply = async (who: typeof merged, w: Write, project: string) => {
          n += 1;
          if (w.kind === 'bucket') await write(who.sync, [{ date: addDays(today(timezone), -w.day), hour: w.hour, language: w.language, project, seconds: w.seconds }]);
          else await heartbeats(who.key, w.offsets.map((o) => ({ at: start + (w.minute + o) * 60_000, project, language: w.language, entity: `${w.minute}.${o}.${w.language}` })));
        };
        for (const w of before) await apply(merged, w, w.project);
        expect(await (await rename(merged.account, 'a', 'b')).json()).toEqual({ project: 'b', merged: true });
        for (const w of after) await apply(merged, w, w.project);
        expect((await split(merged.account, 'b', 'a')).status).toBe(200);
        // The same history in one go: before the merge under its own name, after it under b.
        for (const w of before) await apply(direct, w, w.project);
        for (const w of after) await apply(direct, w, 'b');
        const strip = (r: Awaited<ReturnType<typeof storedDimensions>>) => r.filter((x) => x.millis !== 0);
        expect(strip(await storedDimensions(merged.user.id))).toEqual(strip(await storedDimensions(direct.user.id)));
        expect((await list(merged.account)).projects).toEqual((await list(direct.account)).projects);
        expect(n).toBeGreaterThan(0);
      }),
      { numRuns: Number(process.env.PROJECT_RUNS ?? 12), seed: Number(process.env.PROJECT_SEED ?? 20261129) },
    );
  });
});

// The split at a size that made it quadratic (decision 0028): thousands of buckets and stored
// heartbeats, more than one chunk of each step, on a database where another user holds many more
// rows. The same figures as the history written directly, as in the property above.
describe('a large split', () => {
  it('gives back every bucket and credit of thousands, and leaves another user\'s many rows as they were', async () => {
    const db = await getDb();
    const stranger = await owner();
    await db.execute(sql`INSERT INTO ide_activity (user_id, date, hour, language, project, editor, millis)
                         SELECT ${stranger.user.id}::uuid, current_date - 1 - i / 96, (i / 4) % 24, 'L' || i % 4, 'b', 'vscode', 60000 + i
                         FROM generate_series(0, 59999) AS i`);
    const strangers = await storedDimensions(stranger.user.id);
    const [merged, direct] = [await owner(), await owner()];
    // 120 buckets a day (24 hours, 5 languages): a holds 3 000, b 3 000 of which half have a's keys.
    const buckets = (project: string, from: number, count: number) =>
      Array.from({ length: count }, (_, k) => from + k).map((i) => ({ date: addDays(today(), -1 - Math.floor(i / 120)), hour: Math.floor(i / 5) % 24, language: `L${i % 5}`, project, seconds: 60 + (i % 600) }));
    const start = Math.floor(Date.now() / 60_000) * 60_000 - 2 * 86_400_000;
    // Heartbeats 20 s apart, each credited until the next.
    const beats = (project: string, from: number, count: number) =>
      Array.from({ length: count }, (_, k) => ({ at: start + (from + k) * 20_000, project, language: 'Go', entity: `f${(from + k) % 7}.go` }));
    const send = async (who: Awaited<ReturnType<typeof owner>>, list: Bucket[], sent: Parameters<typeof heartbeats>[1]) => {
      for (let i = 0; i < list.length; i += 1000) await write(who.sync, list.slice(i, i + 1000));
      for (let i = 0; i < sent.length; i += 1000) await heartbeats(who.key, sent.slice(i, i + 1000));
    };
    const before = { buckets: [...buckets('a', 0, 3000), ...buckets('b', 1500, 3000)], beats: beats('a', 0, 2500) };
    // After the merge: a bucket and heartbeats under the old name, one of which extends the last
    // merged heartbeat's credit and one, late, cuts an early one's short.
    const after = (project: string) => ({
      buckets: buckets(project, 0, 1),
      beats: [...beats(project, 2500, 10), { at: start + 100 * 20_000 + 10_000, project, language: 'Go', entity: 'late.go' }],
    });

    await send(merged, before.buckets, before.beats);
    expect(await (await rename(merged.account, 'a', 'b')).json()).toEqual({ project: 'b', merged: true });
    await send(merged, after('a').buckets, after('a').beats);
    expect((await split(merged.account, 'b', 'a')).status).toBe(200);

    await send(direct, before.buckets, before.beats);
    await send(direct, after('b').buckets, after('b').beats);
    const strip = (r: Awaited<ReturnType<typeof storedDimensions>>) => r.filter((x) => x.millis !== 0);
    const got = strip(await storedDimensions(merged.user.id));
    expect(got).toEqual(strip(await storedDimensions(direct.user.id)));
    expect((await list(merged.account, 'range=all')).projects).toEqual((await list(direct.account, 'range=all')).projects);
    // More than one chunk of buckets and of heartbeats went back (not a split of a few rows).
    expect(got.filter((r) => r.project === 'a').length).toBeGreaterThan(3000);
    expect(await storedDimensions(stranger.user.id)).toEqual(strangers);
  }, 300_000);
});

describe('what else names a project', () => {
  it('a goal on a project follows its rename; the timeline leaves a hidden project unnamed', async () => {
    const o = await owner();
    const day = addDays(today(), -1);
    await write(o.sync, [{ date: day, hour: 9, language: 'Go', project: 'api', seconds: 1800 }]);
    expect((await call(postGoal, '/me/goals', { token: o.account, body: { period: 'day', seconds: 3600, project: 'API' } })).status).toBe(201);
    expect((await rename(o.account, 'api', 'backend')).status).toBe(200);
    const goals = await (await listGoals(new Request(`${base}/me/goals`, { headers: { authorization: `Bearer ${o.account}` } }))).json();
    expect(goals.goals.map((g: { project: string }) => g.project)).toEqual(['backend']);

    const timeline = async () => (await timelineRoute(new Request(`${base}/me/timeline?date=${day}`, { headers: { authorization: `Bearer ${o.stats}` } }))).json();
    expect((await timeline()).segments.map((s: { project: string | null }) => s.project)).toEqual(['backend']);
    expect((await hide(o.account, 'backend', true)).status).toBe(200);
    expect((await timeline()).segments).toMatchObject([{ project: null, language: 'Go', seconds: 1800 }]);
  });
});

describe('PUT /me/projects/{name}/hidden', () => {
  it('keeps the time in totals but the name on the owner\'s project list only', async () => {
    const o = await owner({ public: true });
    const d = addDays(today(), -1);
    await write(o.sync, [
      { date: d, hour: 9, language: 'Go', project: 'secret', seconds: 600 },
      { date: d, hour: 10, language: 'Go', project: 'open', seconds: 300 },
    ]);
    const res = await hide(o.account, 'secret', true);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project: 'secret', hidden: true });
    const mine = await list(o.account);
    expect(mine.hidden).toEqual(['secret']);
    expect(mine.projects.map((p: { name: string }) => p.name)).toEqual(['secret', 'open']);
    const waka = async (handler: typeof wakaStats, path: string, params: Record<string, string>) => {
      const url = `http://localhost/api/wakatime/v1/users/current/${path}`;
      const r = await handler(new Request(url, { headers: { authorization: `Bearer ${o.key}` } }), { params: Promise.resolve({ user: 'current', range: '', ...params }) });
      return expectDocumented('GET', url, r).then((x) => x.json());
    };
    const stats = await waka(wakaStats, 'stats/last_7_days', { range: 'last_7_days' });
    expect(stats.data.projects.map((p: { name: string }) => p.name)).toEqual(['open']);
    expect(stats.data.total_seconds).toBe(900);
    const projects = await waka(wakaProjects as typeof wakaStats, 'projects', {});
    expect(projects.data.map((p: { name: string }) => p.name)).toEqual(['open']);
    // Renamed, it stays hidden; shown again, it is listed everywhere.
    await rename(o.account, 'secret', 'classified');
    expect((await list(o.account)).hidden).toEqual(['classified']);
    expect(await (await hide(o.account, 'classified', false)).json()).toEqual({ project: 'classified', hidden: false });
    expect((await waka(wakaProjects as typeof wakaStats, 'projects', {})).data.map((p: { name: string }) => p.name).sort()).toEqual(['classified', 'open']);
    expect((await hide(o.account, 'nothing', true)).status).toBe(404);
    expect((await send(hiddenRoute, 'PUT', '/me/projects/open/hidden', o.account, { name: 'open' }, { hidden: 'yes' })).status).toBe(422);
  });
});

// The rename property: any sequence of writes (buckets and heartbeats), renames and merges ends
// at the figures of the same history written directly under the names it ends up under.

const names = ['a', 'b', 'c', ''] as const;
type Op =
  | { kind: 'bucket'; day: number; hour: number; language: string; project: string; seconds: number }
  | { kind: 'beats'; project: string; language: string; offsets: number[] }
  | { kind: 'rename'; from: string; to: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('bucket' as const),
    day: fc.integer({ min: 1, max: 3 }),
    hour: fc.integer({ min: 8, max: 9 }),
    language: fc.constantFrom('Go', 'Rust'),
    project: fc.constantFrom(...names),
    seconds: fc.integer({ min: 1, max: 3600 }),
  }),
  fc.record({
    kind: fc.constant('beats' as const),
    project: fc.constantFrom(...names),
    language: fc.constantFrom('Go', 'Rust'),
    offsets: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('rename' as const), from: fc.constantFrom(...names), to: fc.constantFrom(...names) }).filter((r) => r.from !== r.to),
);

const shown = (n: string) => (n === '' ? '(no project)' : n);
const stored = (n: string) => (n === '(no project)' ? '' : n);

describe('rename property', () => {
  it('any renames, merges and writes give the figures of the history written under the final names', async () => {
    // Heartbeats within the last 14 days, on a grid of minutes (each offset a minute).
    const start = Date.now() - 3 * 86_400_000;
    let run = 0;
    let applied = 0;
    await fc.assert(
      // Writes first, so that most renames find time to move; then anything.
      fc.asyncProperty(fc.tuple(fc.array(opArb.filter((o) => o.kind !== 'rename'), { minLength: 1, maxLength: 3 }), fc.array(opArb, { minLength: 1, maxLength: 8 })), async ([first, rest]) => {
        const ops = [...first, ...rest];
        run += 1;
        const timezone = run % 2 ? 'UTC' : 'Asia/Kolkata';
        const [renamed, direct] = [await owner({ timezone, public: true }), await owner({ timezone, public: true })];
        // The model: each write's project as it counts now. A name renamed away leaves a phantom
        // write behind, moved by later renames like any other: the name's later time goes where it
        // is, until a rename onto the name makes it a name of its own again.
        const writes: { op: Op & { kind: 'bucket' | 'beats' }; at: string; entity: string }[] = [];
        const phantoms = new Map<string, { at: string }>();
        let minute = 0;
        for (const op of ops) {
          if (op.kind === 'rename') {
            const located = writes.some((w) => w.at === op.from);
            const res = await rename(renamed.account, shown(op.from), shown(op.to));
            if (located) {
              expect(res.status).toBe(200);
              expect((await res.json()).project).toBe(shown(op.to));
              applied += 1;
              for (const w of [...writes, ...phantoms.values()]) if (w.at === op.from) w.at = op.to;
              if (op.from !== '') phantoms.set(op.from, { at: op.to });
              phantoms.delete(op.to);
            } else {
              expect([200, 404]).toContain(res.status);
            }
            continue;
          }
          const at = phantoms.get(op.project)?.at ?? op.project;
          const entity = `${writes.length}.src`;
          if (op.kind === 'bucket') {
            writes.push({ op, at, entity });
            await write(renamed.sync, [{ date: addDays(today(timezone), -op.day), hour: op.hour, language: op.language, project: op.project, seconds: op.seconds }]);
          } else {
            const beats = op.offsets.map((o) => ({ at: start + (minute + o) * 60_000, project: op.project, language: op.language, entity }));
            minute += 5;
            writes.push({ op, at, entity });
            await heartbeats(renamed.key, beats);
          }
        }
        // The same history, every write under the name it counts under now, in one go each.
        const buckets = writes.filter((w) => w.op.kind === 'bucket');
        if (buckets.length) {
          for (const w of buckets) {
            const b = w.op as Op & { kind: 'bucket' };
            await write(direct.sync, [{ date: addDays(today(timezone), -b.day), hour: b.hour, language: b.language, project: w.at, seconds: b.seconds }]);
          }
        }
        let replay = 0;
        const beats = writes.flatMap((w) => {
          if (w.op.kind !== 'beats') return [];
          const at = replay;
          replay += 5;
          return w.op.offsets.map((o) => ({ at: start + (at + o) * 60_000, project: w.at, language: w.op.language, entity: w.entity }));
        });
        if (beats.length) await heartbeats(direct.key, beats);

        // A bucket a late heartbeat took back to 0 stays stored (as without renames): no figure.
        const strip = (r: Awaited<ReturnType<typeof storedIde>>) => r.filter((x) => x.millis !== 0);
        expect(strip(await storedIde(renamed.user.id))).toEqual(strip(await storedIde(direct.user.id)));
        const [mine, theirs] = [await list(renamed.account), await list(direct.account)];
        expect(mine.projects).toEqual(theirs.projects);
        for (const p of theirs.projects as { name: string }[]) {
          expect(await (await days(renamed.account, p.name)).json()).toEqual(await (await days(direct.account, p.name)).json());
        }
        const language = async (handle: string) => (await (await getChart('language', `user=${handle}&range=30d`)).json()).languages;
        expect(await language(renamed.user.handle)).toEqual(await language(direct.user.handle));
        // Not vacuous: the renamed user has time, under the names the model says.
        const expected = new Set(writes.map((w) => shown(stored(w.at))));
        for (const p of mine.projects as { name: string }[]) expect(expected.has(p.name)).toBe(true);
      }),
      // A fixed seed by default, so that every run checks the same sequences and the count below
      // cannot fall short by chance; PROJECT_SEED explores others.
      { numRuns: Number(process.env.PROJECT_RUNS ?? 12), seed: Number(process.env.PROJECT_SEED ?? 20261127) },
    );
    // Not vacuous: renames that moved time happened.
    expect(applied).toBeGreaterThan(3);
  });

  it('holds while writes and renames of the same user run at the same time', async () => {
    const o = await owner();
    const d = addDays(today(), -1);
    await write(o.sync, [{ date: d, hour: 9, language: 'Go', project: 'old', seconds: 1 }]);
    const writes = Array.from({ length: 12 }, (_, i) => write(o.sync, [{ date: d, hour: i % 24, language: 'Go', project: 'old', seconds: 10 }]));
    const renamed = rename(o.account, 'old', 'new');
    await Promise.all([...writes, renamed]);
    expect((await renamed).status).toBe(200);
    // Every write, before the rename or after it, counts under the new name; none is left under the old.
    const left = await storedIde(o.user.id);
    expect(left.filter((r) => r.project === 'old')).toEqual([]);
    expect(left.reduce((sum, r) => sum + r.millis, 0)).toBe(121_000);
  });
});
