import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { imports } from '@/lib/db/schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GET as listImports, POST as postImport } from '@/app/main/api/v1/me/imports/route';
import { GET as getImport } from '@/app/main/api/v1/me/imports/[id]/route';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { issueToken } from '@/lib/accounts/tokens';
import { getDb, rows } from '@/lib/db/client';
import { MAX_DAY_HEARTBEATS, MAX_DAY_NAMES } from '@/lib/wakatime/importing/day-importer';
import { importsSettled, resumeImports, stopImports } from '@/lib/wakatime/importing/import-queue';
import { config, resetConfig } from '@/lib/config';
import { newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';
import { referenceTotals, storedTotals, type Beat } from '../helpers/heartbeats';
import { until } from '../helpers/until';

// Imports of WakaTime data dumps (POST /me/imports), read in the background, against the
// reference of the heartbeat stream in order.

const zone = 'Asia/Kathmandu';
const offsetMs = (5 * 60 + 45) * 60_000;
const DAY = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A user with an account token (for imports) and a WakaTime key (for heartbeats). */
async function importer() {
  const u = await newUser({ timezone: zone });
  const db = await getDb();
  return { ...u, token: await tokenWithScopes(u.user.id, ['account']), key: (await issueToken(db, u.user.id, { name: 'vim', format: 'uuid' })).token };
}

/** A heartbeat as a WakaTime data dump holds it: with what the dump adds and nothing Codetally keeps. */
const dumped = (b: Beat, i: number) => ({
  id: `hb-${i}`,
  branch: 'main',
  category: b.category,
  created_at: new Date(b.time * 1000).toISOString(),
  cursorpos: 120,
  dependencies: ['react', 'zod'],
  entity: `/home/me/src/${b.project}/${b.entity}`,
  is_write: i % 3 === 0,
  language: b.language,
  lineno: 12,
  lines: 300,
  machine_name_id: 'm-1',
  project: b.project,
  time: b.time,
  type: 'file',
  user_agent_id: 'ua-1',
});

/** A WakaTime data dump of these heartbeats, by date, in order. */
function dumpOf(beats: Beat[]): string {
  const days = new Map<string, unknown[]>();
  [...beats]
    .sort((a, b) => a.time - b.time)
    .forEach((b, i) => {
      const date = new Date(b.time * 1000).toISOString().slice(0, 10);
      if (!days.has(date)) days.set(date, []);
      days.get(date)!.push(dumped(b, i));
    });
  return JSON.stringify({
    user: { id: 'u-1', username: 'me', timezone: zone },
    range: { start: 0, end: 0 },
    days: [...days].map(([date, heartbeats]) => ({ date, heartbeats })),
  });
}

async function send(token: string, body: BodyInit | Readable, contentType = 'application/json', headers: Record<string, string> = {}) {
  const url = 'http://localhost/main/api/v1/me/imports';
  // A Node stream is how Next passes the request on (undici makes it a ReadableStream).
  const init = { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType, ...headers }, body, duplex: 'half' };
  const request = new Request(url, init as RequestInit);
  return expectDocumented('POST', url, await postImport(request));
}

async function status(token: string, id: string) {
  const url = `http://localhost/main/api/v1/me/imports/${id}`;
  const res = await getImport(new Request(url, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({ id }) });
  return expectDocumented('GET', url, res);
}

/** Imports a dump and waits until it is read; returns its last status. */
async function importDump(token: string, dump: string) {
  const res = await send(token, dump);
  expect(res.status).toBe(202);
  const accepted = await res.json();
  await importsSettled();
  return (await status(token, accepted.id)).json();
}

const spool = () => path.join(config().DATA_DIR, 'imports');
const spooled = () => (fs.existsSync(spool()) ? fs.readdirSync(spool()) : []);
const spoolFile = (id: string) => path.join(spool(), `${id}.json`);
/** Puts an import's file in the spool, as an upload or a stop left it. */
const place = (id: string, body: string) => {
  fs.mkdirSync(spool(), { recursive: true });
  fs.writeFileSync(spoolFile(id), body);
};

/** An import's row as the database holds it. */
async function stored(id: string) {
  const [row] = await (await getDb()).select({ status: imports.status, attempts: imports.attempts, error: imports.error }).from(imports).where(eq(imports.id, id));
  return row;
}

const beat = (time: number, entity = 'a.go', language = 'Go', project = 'api'): Beat => ({ entity, time, language, project, category: 'coding' });

describe('importing a WakaTime data dump', () => {
  it('answers 202 at once, reads it in the background, and counts it as the stream in order', async () => {
    const u = await importer();
    // Old days (one gap crosses UTC midnight) and a recent day.
    const midnight = Math.floor(nowSeconds() / DAY) * DAY - 100 * DAY;
    const beats = [
      beat(midnight - 2 * 3600),
      beat(midnight - 2 * 3600 + 300, 'b.rs', 'Rust'),
      beat(midnight - 400),
      beat(midnight + 200, 'c.ts', 'TypeScript', 'web'),
      beat(midnight + 800, 'c.ts', 'TypeScript', 'web'),
      beat(midnight + 3 * DAY),
      beat(midnight + 3 * DAY + 600),
      beat(nowSeconds() - 3 * DAY),
      beat(nowSeconds() - 3 * DAY + 420, 'd.py', 'Python'),
    ];
    const dump = JSON.parse(dumpOf(beats));
    // Two a heartbeat rule refuses: counted as read and skipped, the rest still counts.
    dump.days[0].heartbeats.push({ entity: 'x.go', time: 'yesterday', type: 'file' }, { entity: 'y.go', time: midnight, content: 'secret' });
    const res = await send(u.token, JSON.stringify(dump));
    expect(res.status).toBe(202);
    const accepted = await res.json();
    expect(res.headers.get('location')).toBe(`/main/api/v1/me/imports/${accepted.id}`);
    expect(accepted).toMatchObject({ status: 'queued', done: false, bytes: Buffer.byteLength(JSON.stringify(dump)) });
    await importsSettled();
    const done = await (await status(u.token, accepted.id)).json();
    expect(done).toMatchObject({ status: 'done', done: true, error: null, heartbeats_read: beats.length + 2, heartbeats_skipped: 2, bytes_read: accepted.bytes });
    expect(await storedTotals(u.user.id)).toEqual(referenceTotals(beats, offsetMs));

    const list = await listImports(new Request('http://localhost/main/api/v1/me/imports', { headers: { authorization: `Bearer ${u.token}` } }));
    expect((await list.json()).imports.map((i: { id: string }) => i.id)).toEqual([accepted.id]);
  });

  it('keeps nothing of the files: no entity, branch or dependencies anywhere', async () => {
    const u = await importer();
    const t = nowSeconds() - 40 * DAY;
    await importDump(u.token, dumpOf([beat(t), beat(t + 60), beat(nowSeconds() - 60), beat(nowSeconds() - 30)]));
    const db = await getDb();
    for (const table of ['heartbeats', 'imported_days', 'imports', 'ide_activity']) {
      const [row] = await rows<{ text: string }>(db, sql`SELECT coalesce(string_agg(t::text, ' '), '') AS text FROM ${sql.identifier(table)} t WHERE user_id = ${u.user.id}::uuid`);
      expect([table, row.text]).not.toEqual([table, expect.stringMatching(/home\/me|a\.go|main|react/)]);
    }
  });

  it('counts nothing twice: the same dump again, a later export that overlaps it, heartbeats the plugins sent too', async () => {
    const u = await importer();
    const start = nowSeconds() - 20 * DAY;
    const beats = Array.from({ length: 120 }, (_, i) => beat(start + i * 4 * 3600 + (i % 5) * 200, i % 2 ? 'a.go' : 'b.rs', i % 2 ? 'Go' : 'Rust'));
    // Every two of those 4 hours apart get a neighbour 5 minutes later: time to count.
    const all = beats.flatMap((b) => [b, { ...b, time: b.time + 300 }]);
    // The plugins sent the last days themselves.
    const recent = all.filter((b) => b.time > nowSeconds() - 5 * DAY);
    const bulk = new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(u.key).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify(recent.map((b) => ({ entity: `/home/me/src/${b.project}/${b.entity}`, type: 'file', time: b.time, language: b.language, project: b.project, category: b.category }))),
    });
    expect((await postBulk(bulk, { params: Promise.resolve({ user: 'current' }) })).status).toBe(201);
    // An export taken 17.5 days ago (its last day cut short), and one taken today.
    const older = all.filter((b) => b.time < nowSeconds() - 17.5 * DAY);
    expect((await importDump(u.token, dumpOf(older))).status).toBe('done');
    expect((await importDump(u.token, dumpOf(all))).status).toBe('done');
    expect((await importDump(u.token, dumpOf(older))).status).toBe('done');
    expect((await importDump(u.token, dumpOf(all))).status).toBe('done');
    expect(await storedTotals(u.user.id)).toEqual(referenceTotals(all, offsetMs));
  });

  it('imports a busy day: 130 000 heartbeats after a day of a few', async () => {
    const u = await importer();
    const midnight = Math.floor(nowSeconds() / DAY) * DAY - 60 * DAY;
    const beats = [beat(midnight - 3600), beat(midnight - 3000, 'b.rs', 'Rust')];
    for (let i = 0; i < 130_000; i++) beats.push(beat(midnight + i / 2, i % 3 ? 'a.go' : 'b.rs', i % 3 ? 'Go' : 'Rust', i % 5 ? 'api' : 'web'));
    expect(await importDump(u.token, dumpOf(beats))).toMatchObject({ status: 'done', error: null, heartbeats_read: beats.length, heartbeats_skipped: 0 });
    expect(await storedTotals(u.user.id)).toEqual(referenceTotals(beats, offsetMs));
  }, 120_000);

  it('refuses a day of more heartbeats, or more names, than a day of editing has, whole, saying which', async () => {
    const u = await importer();
    const midnight = Math.floor(nowSeconds() / DAY) * DAY - 60 * DAY;
    const day = new Date(midnight * 1000).toISOString().slice(0, 10);
    const heartbeats = Array.from({ length: MAX_DAY_HEARTBEATS + 1 }, (_, i) => `{"entity":"a.go","type":"file","time":${midnight + i / 8}}`);
    const dump = `{"days":[{"date":"${day}","heartbeats":[${heartbeats.join(',')}]}]}`;
    expect(await importDump(u.token, dump)).toMatchObject({ status: 'failed', error: expect.stringContaining(`more than ${MAX_DAY_HEARTBEATS} heartbeats on ${day}`) });
    // Each heartbeat of a project of its own.
    const named = Array.from({ length: MAX_DAY_NAMES + 1 }, (_, i) => `{"entity":"a.go","type":"file","time":${midnight + i},"project":"${'p'.repeat(200)}${i}"}`);
    const names = await importDump(u.token, `{"days":[{"date":"${day}","heartbeats":[${named.join(',')}]}]}`);
    expect(names).toMatchObject({ status: 'failed', error: expect.stringContaining(`more than ${MAX_DAY_NAMES} different combinations of type, language, project, editor, operating system and application on ${day}`) });
    expect(await storedTotals(u.user.id)).toEqual(new Map());
  }, 120_000);

  it('counts the combinations a day names once each, however many the days before it named', async () => {
    const u = await importer();
    const midnight = Math.floor(nowSeconds() / DAY) * DAY - 60 * DAY;
    // Nine days naming 1 000 projects each, then a day naming 1 500, each of them twice.
    const beats: Beat[] = [];
    for (let d = 0; d < 9; d++) for (let i = 0; i < 1000; i++) beats.push(beat(midnight + (d - 10) * DAY + i * 60, 'a.go', 'Go', `p${d}-${i}`));
    for (let r = 0; r < 2; r++) for (let i = 0; i < 1500; i++) beats.push(beat(midnight + r * 40_000 + i * 20, 'a.go', 'Go', `q${i}`));
    expect(await importDump(u.token, dumpOf(beats))).toMatchObject({ status: 'done', error: null, heartbeats_read: beats.length });
    expect(await storedTotals(u.user.id)).toEqual(referenceTotals(beats, offsetMs));
  }, 120_000);

  it('says what is wrong: not JSON, not a dump, cut short, out of order, not mine', async () => {
    const u = await importer();
    expect((await send(u.token, 'hello', 'text/plain')).status).toBe(415);
    const notADump = await send(u.token, 'hello');
    expect(notADump.status).toBe(422);
    expect((await notADump.json()).errors[0]).toMatchObject({ path: 'body' });
    const t = nowSeconds() - 50 * DAY;
    const full = dumpOf([beat(t), beat(t + 60)]);
    const cut = await importDump(u.token, full.slice(0, full.length - 20));
    expect(cut).toMatchObject({ status: 'failed', done: true, error: expect.stringMatching(/cut short/) });
    const days = JSON.parse(dumpOf([beat(t), beat(t + 60), beat(t + 10 * DAY)])).days.reverse();
    const unordered = await importDump(u.token, JSON.stringify({ days }));
    expect(unordered).toMatchObject({ status: 'failed', error: expect.stringMatching(/date order/) });
    const other = await importer();
    expect((await status(other.token, cut.id)).status).toBe(404);
    expect((await status(u.token, 'not-an-id')).status).toBe(404);
    // A plugin's token cannot import.
    expect((await send(u.key, full)).status).toBe(403);
  });

  it('says a JSON document that is not a data dump is not one, and takes an empty dump', async () => {
    const u = await importer();
    for (const doc of ['{"hello":"world"}', '[1,2,3]', '{"days":[1]}', '{"days":"all"}']) {
      const ended = await importDump(u.token, doc);
      expect([doc, ended]).toMatchObject([doc, { status: 'failed', done: true, heartbeats_read: 0, error: expect.stringMatching(/^Not a WakaTime data dump: /) }]);
    }
    // A new account's export: no days yet.
    expect(await importDump(u.token, JSON.stringify({ user: { id: 'u-1' }, range: { start: 0, end: 0 }, days: [] }))).toMatchObject({ status: 'done', error: null, heartbeats_read: 0 });
  });

  it('refuses an upload at its first bytes without an error nobody catches, the rest of the body arriving as Next passes it on', async () => {
    const u = await importer();
    const uncaught: unknown[] = [];
    const record = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', record);
    try {
      for (let i = 0; i < 3; i++) {
        const body = new PassThrough();
        body.write('date,hours\n');
        setTimeout(() => body.end('2024-01-01,3\n'), 20);
        const refused = await send(u.token, body);
        expect(refused.status).toBe(422);
        // In the reader's words, as when a document turns out not to be a dump once read.
        expect((await refused.json()).errors[0]).toMatchObject({ code: 'not_a_dump', message: 'Not a WakaTime data dump: the document is not JSON, where a data dump is a JSON object with "days"' });
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    } finally {
      process.off('uncaughtException', record);
    }
    expect(uncaught).toEqual([]);
  });

  it('takes one import of a user at a time; one left unfinished for a day gives way', async () => {
    const u = await importer();
    const db = await getDb();
    const t = nowSeconds() - 50 * DAY;
    const dump = dumpOf([beat(t), beat(t + 60)]);
    // An upload of the same user still being read (as on another server).
    const [stuck] = await db.insert(imports).values({ userId: u.user.id, status: 'running', bytes: 10 }).returning();
    const busy = await send(u.token, dump);
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('60');
    expect((await busy.json()).code).toBe('import_in_progress');
    // Another user is not held up.
    expect((await importDump((await importer()).token, dump)).status).toBe('done');
    // A day later, the stuck one is given up and the next import runs.
    await db.update(imports).set({ createdAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(imports.id, stuck.id));
    expect((await importDump(u.token, dump)).status).toBe('done');
    expect((await status(u.token, stuck.id)).status).toBe(200);
    expect(await (await status(u.token, stuck.id)).json()).toMatchObject({ status: 'failed', done: true, error: expect.stringMatching(/import the dump again/) });
  });

  it('reads a small import while a big one of another user is being read', async () => {
    const big = await importer();
    const small = await importer();
    const start = nowSeconds() - 300 * DAY;
    const beats = Array.from({ length: 120_000 }, (_, i) => beat(start + i * 60, i % 2 ? 'a.go' : 'b.rs', i % 2 ? 'Go' : 'Rust'));
    const bigRes = await send(big.token, dumpOf(beats));
    expect(bigRes.status).toBe(202);
    const bigId = (await bigRes.json()).id;
    const smallRes = await send(small.token, dumpOf([beat(start, 'c.py', 'Python'), beat(start + 60, 'c.py', 'Python')]));
    expect(smallRes.status).toBe(202);
    const smallId = (await smallRes.json()).id;
    await until(async () => (await status(small.token, smallId)).json(), (s) => s.done, 'read');
    const smallEnd = await (await status(small.token, smallId)).json();
    expect(smallEnd).toMatchObject({ status: 'done', heartbeats_read: 2 });
    // The big one, sent first, ended after it (its end, not a look while it runs: through a fast
    // pooler it may be over by the time the small one's end is seen), as it would have alone.
    await importsSettled();
    const bigEnd = await (await status(big.token, bigId)).json();
    expect(bigEnd).toMatchObject({ status: 'done', heartbeats_read: beats.length });
    expect(Date.parse(smallEnd.finished_at)).toBeLessThan(Date.parse(bigEnd.finished_at));
    expect(await storedTotals(big.user.id)).toEqual(referenceTotals(beats, offsetMs));
  }, 120_000);

  it('refuses a dump over IMPORT_MAX_BYTES (413) and one the uploads waiting on the server leave no room for (503), keeping nothing of it', async () => {
    process.env.IMPORT_MAX_BYTES = '3000';
    process.env.IMPORT_SPOOL_MAX_BYTES = '5000';
    resetConfig();
    try {
      const u = await importer();
      const v = await importer();
      const t = nowSeconds() - 50 * DAY;
      const sized = (n: number) => dumpOf([beat(t), beat(t + 60)]).padEnd(n, ' ');
      const before = spooled();
      // Said by Content-Length before anything is read, or found while reading.
      for (const headers of [{ 'content-length': '3001' }, {}] as Record<string, string>[]) {
        const res = await send(u.token, sized(3001), 'application/json', headers);
        expect(res.status).toBe(413);
        const problem = await res.json();
        expect(problem).toMatchObject({ code: 'payload_too_large', detail: expect.stringContaining('at most 3000 bytes (IMPORT_MAX_BYTES)'), errors: [{ path: 'body', code: 'too_big' }] });
      }
      expect(spooled()).toEqual(before);

      // u's upload arrives slowly: 2500 bytes of it are on the server...
      const body = Buffer.from(sized(2600));
      let more!: () => void;
      const rest = new Promise<void>((resolve) => (more = resolve));
      let pulls = 0;
      const slow = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (pulls++ === 0) return controller.enqueue(body.subarray(0, 2500));
          await rest;
          controller.enqueue(body.subarray(2500));
          controller.close();
        },
      });
      const uploading = send(u.token, slow);
      await until(async () => spooled().some((f) => fs.statSync(path.join(spool(), f)).size === 2500), Boolean, 'spooled');
      // ...so v's 2600 bytes would pass the 5000 the server keeps for uploads waiting.
      const full = await send(v.token, sized(2600));
      expect(full.status).toBe(503);
      expect(full.headers.get('retry-after')).toBe('600');
      expect(await full.json()).toMatchObject({ code: 'import_space_full', detail: expect.stringContaining('IMPORT_SPOOL_MAX_BYTES (5000 bytes)') });
      expect(await (await listImports(new Request('http://localhost/main/api/v1/me/imports', { headers: { authorization: `Bearer ${v.token}` } }))).json()).toEqual({ imports: [] });
      // Once u's import is read, its room is free again.
      more();
      expect((await uploading).status).toBe(202);
      await importsSettled();
      expect(spooled()).toEqual(before);
      expect(await importDump(v.token, sized(2600))).toMatchObject({ status: 'done', heartbeats_read: 2 });
    } finally {
      delete process.env.IMPORT_MAX_BYTES;
      delete process.env.IMPORT_SPOOL_MAX_BYTES;
      resetConfig();
    }
  });

  it('gives up an import the server stopped in while reading it three times, and never reads a failed one again', async () => {
    const db = await getDb();
    const t = nowSeconds() - 30 * DAY;
    const beats = [beat(t), beat(t + 300)];
    // As crashes left them: one whose reading began three times, one twice...
    const a = await importer();
    const [thrice] = await db.insert(imports).values({ userId: a.user.id, status: 'running', bytes: 100, attempts: 3 }).returning();
    place(thrice.id, dumpOf(beats));
    const b = await importer();
    const [twice] = await db.insert(imports).values({ userId: b.user.id, status: 'running', bytes: 100, attempts: 2 }).returning();
    place(twice.id, dumpOf(beats));
    // ...one that failed (its end recorded, its file not yet removed), and a file no import owns.
    const c = await importer();
    const [failed] = await db.insert(imports).values({ userId: c.user.id, status: 'failed', bytes: 100, attempts: 1, error: 'The dump is not in date order.' }).returning();
    place(failed.id, dumpOf(beats));
    const orphan = randomUUID();
    place(orphan, dumpOf(beats));
    await resumeImports(db);
    await importsSettled();
    expect(await (await status(a.token, thrice.id)).json()).toMatchObject({ status: 'failed', done: true, error: expect.stringMatching(/stopped while reading this import, 3 times: it is not read again/) });
    expect(await storedTotals(a.user.id)).toEqual(new Map());
    expect(await (await status(b.token, twice.id)).json()).toMatchObject({ status: 'done', heartbeats_read: 2 });
    expect(await storedTotals(b.user.id)).toEqual(referenceTotals(beats, offsetMs));
    const [counted] = await db.select({ attempts: imports.attempts }).from(imports).where(eq(imports.id, twice.id));
    expect(counted.attempts).toBe(3);
    expect(await (await status(c.token, failed.id)).json()).toMatchObject({ status: 'failed', error: 'The dump is not in date order.' });
    expect(await storedTotals(c.user.id)).toEqual(new Map());
    for (const id of [thrice.id, twice.id, failed.id, orphan]) expect(fs.existsSync(path.join(spool(), `${id}.json`))).toBe(false);
    // A later start reads none of them again.
    await resumeImports(db);
    await importsSettled();
    for (const [id, attempts] of [[thrice.id, 3], [twice.id, 3], [failed.id, 1]] as const) {
      expect([id, (await stored(id)).attempts]).toEqual([id, attempts]);
      expect(fs.existsSync(spoolFile(id))).toBe(false);
    }
  });

  it('reads an import the server died in alone, so that a file that kills it again counts no other import\'s start', async () => {
    const db = await getDb();
    const t = nowSeconds() - 200 * DAY;
    const dump = dumpOf(Array.from({ length: 20_000 }, (_, i) => beat(t + i * 60)));
    // Three imports the server died in while reading them (with others: each start counted once).
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const [row] = await db.insert(imports).values({ userId: (await importer()).user.id, status: 'running', bytes: dump.length, attempts: 1 }).returning();
      place(row.id, dump);
      ids.push(row.id);
    }
    await resumeImports(db);
    // Never two of them begun and not ended at once.
    const reading = () => db.select({ id: imports.id }).from(imports).where(and(inArray(imports.id, ids), eq(imports.status, 'running'), eq(imports.attempts, 2)));
    let most = 0;
    for (let settled = false; !settled; ) {
      settled = await Promise.race([importsSettled().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 10))]);
      most = Math.max(most, (await reading()).length);
    }
    expect(most).toBe(1);
    for (const id of ids) expect([id, await stored(id)]).toEqual([id, { status: 'done', attempts: 2, error: null }]);
  }, 120_000);

  it('puts an import being read back in the queue when the server stops, its start not counted, and reads it at the next start', async () => {
    const db = await getDb();
    const u = await importer();
    const start = nowSeconds() - 300 * DAY;
    const beats = Array.from({ length: 60_000 }, (_, i) => beat(start + i * 60, i % 2 ? 'a.go' : 'b.rs', i % 2 ? 'Go' : 'Rust'));
    const res = await send(u.token, dumpOf(beats));
    expect(res.status).toBe(202);
    const { id } = await res.json();
    await until(() => stored(id), (row) => row.status === 'running', 'read');
    // What scripts/serve.ts does at SIGTERM before it closes the database.
    await stopImports(10_000);
    expect(await stored(id)).toEqual({ status: 'queued', attempts: 0, error: null });
    expect(fs.existsSync(spoolFile(id))).toBe(true);
    // The next start reads it whole.
    await resumeImports(db);
    await importsSettled();
    expect(await (await status(u.token, id)).json()).toMatchObject({ status: 'done', heartbeats_read: beats.length });
    expect((await stored(id)).attempts).toBe(1);
    expect(await storedTotals(u.user.id)).toEqual(referenceTotals(beats, offsetMs));
    expect(fs.existsSync(spoolFile(id))).toBe(false);
  }, 120_000);

  it('leaves an import given up while it is being read as it was given up', async () => {
    const db = await getDb();
    const u = await importer();
    const start = nowSeconds() - 300 * DAY;
    const res = await send(u.token, dumpOf(Array.from({ length: 60_000 }, (_, i) => beat(start + i * 60))));
    const { id } = await res.json();
    await until(() => stored(id), (row) => row.status === 'running', 'read');
    // A day later (as if its server were gone), the user's next upload gives it up, while it is still read here.
    await db.update(imports).set({ createdAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(imports.id, id));
    const next = await send(u.token, dumpOf([beat(start), beat(start + 60)]));
    expect(next.status).toBe(202);
    await importsSettled();
    expect(await stored(id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/stopped for good/) });
    expect(fs.existsSync(spoolFile(id))).toBe(false);
    expect(await (await status(u.token, (await next.json()).id)).json()).toMatchObject({ status: 'done', heartbeats_read: 2 });
  }, 120_000);

  it('ends an upload a crash cut short, removing its file: at the next start on the embedded database, on PostgreSQL once its file is unchanged for twice HTTP_REQUEST_TIMEOUT_SECONDS', async () => {
    process.env.HTTP_REQUEST_TIMEOUT_SECONDS = '1';
    resetConfig();
    try {
      const db = await getDb();
      const a = await importer();
      const b = await importer();
      // Uploads a crash cut short: one a minute ago, one just now.
      const [old] = await db.insert(imports).values({ userId: a.user.id, status: 'receiving', bytes: 0 }).returning();
      place(old.id, '{"days":[');
      fs.utimesSync(spoolFile(old.id), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      const [recent] = await db.insert(imports).values({ userId: b.user.id, status: 'receiving', bytes: 0 }).returning();
      place(recent.id, '{"days":[');
      await resumeImports(db);
      const cutShort = { status: 'failed', error: expect.stringMatching(/^The upload stopped before it was whole/) };
      expect(await stored(old.id)).toMatchObject(cutShort);
      expect(fs.existsSync(spoolFile(old.id))).toBe(false);
      if (process.env.TEST_DB !== 'pglite') {
        // Another process may still be receiving it (were DATA_DIR shared): looked at again later.
        expect(await stored(recent.id)).toMatchObject({ status: 'receiving' });
        expect(fs.existsSync(spoolFile(recent.id))).toBe(true);
      }
      expect(await until(() => stored(recent.id), (row) => row.status !== 'receiving', 'ended')).toMatchObject(cutShort);
      // Marked failed first, then its file removed (a crash between leaves a failed import and a file the next start removes).
      expect(await until(async () => fs.existsSync(spoolFile(recent.id)), (exists) => !exists, 'its file removed')).toBe(false);
      // Its user may import at once.
      const t = nowSeconds() - 50 * DAY;
      expect(await importDump(b.token, dumpOf([beat(t), beat(t + 60)]))).toMatchObject({ status: 'done' });
    } finally {
      delete process.env.HTTP_REQUEST_TIMEOUT_SECONDS;
      resetConfig();
    }
  });

  it('starts over after a restart from the file it kept; with the embedded database, one whose file is lost fails', async () => {
    const db = await getDb();
    const a = await importer();
    const t = nowSeconds() - 30 * DAY;
    const beats = [beat(t), beat(t + 300)];
    // As a stop left them: an import being read, its file kept on this server...
    const [kept] = await db.insert(imports).values({ userId: a.user.id, status: 'running', bytes: 100 }).returning();
    fs.mkdirSync(path.join(config().DATA_DIR, 'imports'), { recursive: true });
    fs.writeFileSync(path.join(config().DATA_DIR, 'imports', `${kept.id}.json`), dumpOf(beats));
    // ...and one whose file is gone.
    const b = await importer();
    const [lost] = await db.insert(imports).values({ userId: b.user.id, status: 'queued', bytes: 100 }).returning();
    await resumeImports(db);
    await importsSettled();
    expect(await (await status(a.token, kept.id)).json()).toMatchObject({ status: 'done', heartbeats_read: 2 });
    expect(await storedTotals(a.user.id)).toEqual(referenceTotals(beats, offsetMs));
    expect(fs.existsSync(path.join(config().DATA_DIR, 'imports', `${kept.id}.json`))).toBe(false);
    const expected = process.env.TEST_DB !== 'pglite' ? { status: 'queued' } : { status: 'failed', error: expect.stringMatching(/lost/) };
    expect(await (await status(b.token, lost.id)).json()).toMatchObject(expected);
  });

  // The property: exports taken at different times (each a prefix of the stream, in date order)
  // and heartbeats the plugins sent, in any order, count as the union of them in order.
  it('gives the totals of the stream in order, whatever exports are imported in whatever order', async () => {
    const now = nowSeconds();
    const beatArb = fc.record({
      entity: fc.constantFrom('a.go', 'b.go', 'c.rs'),
      // Clustered on a few days, old and recent: gaps under and over 15 minutes, midnights crossed.
      time: fc.tuple(fc.constantFrom(90, 60, 59, 13, 2), fc.integer({ min: -2 * 3600, max: 2 * 3600 })).map(([days, s]) => Math.floor(now / DAY) * DAY - days * DAY + s),
      language: fc.constantFrom('Go', 'Rust'),
      project: fc.constantFrom('api', 'web'),
      category: fc.constant('coding'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(beatArb, { minLength: 1, maxLength: 60 }).map((bs) => [...new Map(bs.map((b) => [b.time, b])).values()].filter((b) => b.time < now - 60)),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.boolean(),
        async (beats, cuts, fullAt, pluginsToo) => {
          fc.pre(beats.length > 0);
          const u = await importer();
          const sorted = [...beats].sort((a, b) => a.time - b.time);
          // Exports taken at different times (prefixes), the full one among them, in any order.
          const exports = cuts.map(([cut]) => sorted.slice(0, 1 + (cut % sorted.length)));
          exports.splice(fullAt % (exports.length + 1), 0, sorted);
          if (pluginsToo) {
            const recent = sorted.filter((b) => b.time > now - 13 * DAY);
            const bulk = new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
              method: 'POST',
              headers: { authorization: `Basic ${Buffer.from(u.key).toString('base64')}`, 'content-type': 'application/json' },
              body: JSON.stringify(recent.map((b) => ({ entity: `/home/me/src/${b.project}/${b.entity}`, type: 'file', time: b.time, language: b.language, project: b.project }))),
            });
            expect((await postBulk(bulk, { params: Promise.resolve({ user: 'current' }) })).status).toBe(201);
          }
          for (const e of exports) if (e.length > 0) expect((await importDump(u.token, dumpOf(e))).status).toBe('done');
          expect(await storedTotals(u.user.id)).toEqual(referenceTotals(beats, offsetMs));
        },
      ),
      { numRuns: 30, endOnFailure: true, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}) },
    );
  }, 180_000);
});
