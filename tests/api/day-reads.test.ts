import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as getDurations } from '@/app/api/wakatime/v1/users/[user]/durations/route';
import { GET as getDayHeartbeats } from '@/app/api/wakatime/v1/users/[user]/heartbeats/route';
import { GET as getTimeline } from '@/app/main/api/v1/me/timeline/route';
import { GET as exportMe } from '@/app/main/api/v1/me/export/route';
import { issueToken } from '@/lib/accounts/tokens';
import { getDb, rows } from '@/lib/db/client';
import { MAX_SEGMENTS } from '@/lib/figures/timeline';
import { renameProject } from '@/lib/projects/rename';
import { PAGE_ROWS } from '@/lib/db/keyset';
import { DAY_PAGE } from '@/lib/wakatime/reading/day-beats';
import { MAX_DAY_RUNS } from '@/lib/wakatime/reading/day-reads';
import { daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// One account can fill a day with hundreds of thousands of heartbeats: the reads of a day and
// the account's export then read it a page at a time (no statement answers more than a page),
// heartbeats?date= answers a page with the way to the rest, and durations and the timeline keep
// only their runs. Here a day of BIG heartbeats (more than two pages), 5 s apart: its projects
// change every 100 heartbeats, its languages at every heartbeat.

const BIG = 2 * DAY_PAGE + 1234;
const STEP_S = 5;
const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;
const userAgent = 'wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

const date = daysFromToday(-2);
const dayStart = Date.parse(`${date}T00:00:00Z`) / 1000;
const beatAt = (i: number) => dayStart + 600 + i * STEP_S;

/**
 * Stores heartbeats straight in the table (a day of them through the routes takes long, and what
 * is read here is what they store): `count` of them STEP_S apart from `first` (epoch s), each
 * credited up to the next (WakaTime's rule; the last one nothing), their project and language
 * as projectOf and languageOf say.
 */
async function storeDay(userId: string, first: number, count: number) {
  await (await getDb()).execute(sql`
    INSERT INTO heartbeats (user_id, at, type, entity_digest, category, language, project, editor, os, app, credited_until, zone)
    SELECT ${userId}::uuid, (${first}::bigint + i * ${STEP_S}) * 1000, 'file', 1000 + i % 7, 'coding',
           CASE WHEN i % 2 = 0 THEN 'TypeScript' ELSE 'Go' END, 'p' || ((i / 100) % 3), 'VS Code', 'Linux', '',
           (${first}::bigint + CASE WHEN i < ${count - 1} THEN i + 1 ELSE i END * ${STEP_S}) * 1000, 'UTC'
    FROM generate_series(0, ${count - 1}) AS i`);
}

async function wakaRead(handler: Handler, key: string, route: string): Promise<Response> {
  const url = `http://localhost/api/wakatime/v1/users/current/${route}`;
  return expectDocumented('GET', url, await handler(new Request(url, { headers: { authorization: basic(key) } }), { params: Promise.resolve({ user: 'current' }) }));
}

async function readOk(handler: Handler, key: string, route: string) {
  const res = await wakaRead(handler, key, route);
  expect(res.status).toBe(200);
  return res.json();
}

/** The most rows any one statement answered while `work` ran (the shared database's statements). */
async function largestStatement<T>(work: () => Promise<T>): Promise<{ result: T; rows: number }> {
  const db = await getDb();
  const execute = db.execute.bind(db);
  let most = 0;
  const spy = vi.spyOn(db, 'execute').mockImplementation(((query: Parameters<typeof db.execute>[0]) =>
    execute(query).then((result) => {
      const found = result as unknown as unknown[] | { rows: unknown[] };
      most = Math.max(most, Array.isArray(found) ? found.length : (found.rows?.length ?? 0));
      return result;
    })) as typeof db.execute);
  try {
    return { result: await work(), rows: most };
  } finally {
    spy.mockRestore();
  }
}

let owner: Awaited<ReturnType<typeof newUser>>;
let key: string;

beforeAll(async () => {
  owner = await newUser({ timezone: 'UTC' });
  key = (await issueToken(await getDb(), owner.user.id, { name: 'cli', format: 'uuid' })).token;
  await storeDay(owner.user.id, beatAt(0), BIG);
});

afterEach(() => vi.restoreAllMocks());

describe('heartbeats?date=, a page at a time', () => {
  it('answers a page of the big day, then the rest through next_after: every heartbeat once, in order', async () => {
    const first = await largestStatement(() => readOk(getDayHeartbeats, key, `heartbeats?date=${date}`));
    expect(first.result.data).toHaveLength(DAY_PAGE);
    expect(first.result.next_after).toBe(first.result.data.at(-1).id);
    expect(first.rows).toBeLessThanOrEqual(PAGE_ROWS);

    const seen: { id: string; time: number }[] = [...first.result.data];
    let after: string | null = first.result.next_after;
    let pages = 1;
    while (after !== null) {
      const page = await readOk(getDayHeartbeats, key, `heartbeats?date=${date}&after=${encodeURIComponent(after)}`);
      seen.push(...page.data);
      after = page.next_after;
      pages++;
    }
    expect(pages).toBe(Math.ceil(BIG / DAY_PAGE));
    expect(seen.map((b) => b.time)).toEqual(Array.from({ length: BIG }, (_, i) => beatAt(i)));
    expect(new Set(seen.map((b) => b.id)).size).toBe(BIG);
  });

  it('breaks ties in time by type and entity across a page boundary, a smaller limit as asked', async () => {
    const u = await newUser({ timezone: 'UTC' });
    const k = (await issueToken(await getDb(), u.user.id, { name: 'cli', format: 'uuid' })).token;
    const at = (dayStart + 3600) * 1000;
    // Seven heartbeats at one time (of two types, different entities), three later.
    await (await getDb()).execute(sql`
      INSERT INTO heartbeats (user_id, at, type, entity_digest, category, language, project, editor, os, app, credited_until, zone)
      SELECT ${u.user.id}::uuid, ${at}::bigint + CASE WHEN i < 7 THEN 0 ELSE (i - 6) * 60000 END, CASE WHEN i % 2 = 0 THEN 'domain' ELSE 'file' END,
             1000 + i, 'coding', 'Go', 'tie', 'VS Code', 'Linux', '', ${at}::bigint, 'UTC'
      FROM generate_series(0, 9) AS i`);
    const ids: string[] = [];
    let after = '';
    for (;;) {
      const page = await readOk(getDayHeartbeats, k, `heartbeats?date=${date}&limit=3${after && `&after=${encodeURIComponent(after)}`}`);
      expect(page.data.length).toBeLessThanOrEqual(3);
      ids.push(...page.data.map((b: { id: string }) => b.id));
      if (page.next_after === null) break;
      after = page.next_after;
    }
    const whole = await readOk(getDayHeartbeats, k, `heartbeats?date=${date}`);
    expect(whole.next_after).toBeNull();
    expect(ids).toEqual(whole.data.map((b: { id: string }) => b.id));
    expect(new Set(ids).size).toBe(10);
  });

  it('names the parameter of a bad limit or cursor, and its rule', async () => {
    for (const [query, param] of [
      ['limit=0', 'limit'],
      [`limit=${DAY_PAGE + 1}`, 'limit'],
      ['limit=ten', 'limit'],
      ['after=yesterday', 'after'],
      // Text that PostgreSQL refuses (a NUL, a lone surrogate) in the cursor's type: a 400, not a 5xx.
      [`after=${encodeURIComponent('1700000000-fi\u0000le-a')}`, 'after'],
      ['after=1700000000-fi%ED%A0%80le-a', 'after'],
      ['after=1700000000-folder-a', 'after'],
    ]) {
      const res = await wakaRead(getDayHeartbeats, key, `heartbeats?date=${date}&${query}`);
      expect(res.status).toBe(400);
      // WakaTime's error shape, naming the parameter and its rule.
      expect((await res.json()).error).toMatch(new RegExp(`^${param}: must be`));
    }
  });
});

/** The runs of the day the simple way: every heartbeat of the day at once, credited as stored. */
async function simpleRuns(userId: string, slice: 'project' | 'language') {
  const beats = await rows<{ at: number; until: number; project: string; language: string }>(
    await getDb(),
    sql`SELECT at::float8 AS at, credited_until::float8 AS until, project, language FROM heartbeats WHERE user_id = ${userId}::uuid ORDER BY at, type, entity_digest`,
  );
  const runs: { time: number; duration: number; project: string; language?: string }[] = [];
  const open = new Map<string, { start: number; end: number; run: (typeof runs)[number] }>();
  for (const b of beats) {
    if (b.until <= b.at) continue;
    const key = `${b.project}/${slice === 'language' ? b.language : ''}`;
    const last = open.get(key);
    if (last && last.end >= b.at) {
      last.end = Math.max(last.end, b.until);
      last.run.duration = (last.end - last.start) / 1000;
    } else {
      const run = { time: b.at / 1000, duration: (b.until - b.at) / 1000, project: b.project, ...(slice === 'language' ? { language: b.language } : {}) };
      runs.push(run);
      open.set(key, { start: b.at, end: Number(b.until), run });
    }
  }
  return runs;
}

describe('durations?date= over the big day', () => {
  it('equals the runs of the same heartbeats read whole, reading a page at a time, its answer as small as its runs', async () => {
    const { result, rows: most } = await largestStatement(() => readOk(getDurations, key, `durations?date=${date}`));
    expect(most).toBeLessThanOrEqual(PAGE_ROWS);
    expect(result).not.toHaveProperty('truncated');
    expect(result.data).toEqual(await simpleRuns(owner.user.id, 'project'));
    // A run per 100 heartbeats: the answer does not grow with the heartbeats.
    expect(result.data).toHaveLength(Math.ceil(BIG / 100));
    expect(result.data.reduce((sum: number, r: { duration: number }) => sum + r.duration, 0)).toBe((BIG - 1) * STEP_S);
  });

  it(`gives at most ${MAX_DAY_RUNS} runs of a day that switches more often, saying so`, async () => {
    const { result, rows: most } = await largestStatement(() => readOk(getDurations, key, `durations?date=${date}&slice_by=language`));
    expect(most).toBeLessThanOrEqual(PAGE_ROWS);
    expect(result.truncated).toBe(true);
    expect(result.data).toHaveLength(MAX_DAY_RUNS);
    // The runs given are the day's first ones, as read whole.
    expect(result.data.slice(0, -1)).toEqual((await simpleRuns(owner.user.id, 'language')).slice(0, MAX_DAY_RUNS - 1));
  });
});

describe('the timeline of the big day', () => {
  it(`reads it a page at a time and draws at most ${MAX_SEGMENTS} segments, saying so`, async () => {
    const stats = await tokenWithScopes(owner.user.id, ['stats']);
    const url = `http://localhost/main/api/v1/me/timeline?date=${date}`;
    const { result: res, rows: most } = await largestStatement(async () => getTimeline(new Request(url, { headers: { authorization: `Bearer ${stats}` } })));
    expect(res.status).toBe(200);
    const body = await (await expectDocumented('GET', url, res)).json();
    // A statement answers what it made of a page: at most a stretch per heartbeat, and a credit per quarter hour and key.
    expect(most).toBeLessThanOrEqual(2 * PAGE_ROWS);
    expect(body.truncated).toBe(true);
    // Languages change at every heartbeat: a segment each, the first MAX_SEGMENTS of them.
    const heartbeatSegments = body.segments.filter((s: { start: string; end: string }) => Date.parse(s.end) - Date.parse(s.start) < 3_600_000);
    expect(heartbeatSegments).toHaveLength(MAX_SEGMENTS);
    expect(heartbeatSegments[0]).toMatchObject({ project: 'p0', language: 'TypeScript', seconds: STEP_S });
  });
});

describe('the export of an account with a big day', () => {
  it('is written as it is read, whole, with the User-Agents and the merges kept', async () => {
    const db = await getDb();
    // Hourly buckets of 300 days (more than a page of them), long before the big day.
    await db.execute(sql`
      INSERT INTO ide_activity (user_id, date, hour, language, project, editor, millis)
      SELECT ${owner.user.id}::uuid, ${daysFromToday(-400)}::date + d, h, 'Go', 'p' || (d % 3), 'VS Code', 60000
      FROM generate_series(0, 299) AS d, generate_series(0, 23) AS h`);
    await db.execute(sql`INSERT INTO user_agents (user_id, value, editor, os) VALUES (${owner.user.id}::uuid, ${userAgent}, 'VS Code', 'Linux')`);
    // A merge of p2 into p1 that can still be split.
    expect((await renameProject(db, owner.user.id, 'p2', 'p1')).merged).toBe(true);
    const account = await tokenWithScopes(owner.user.id, ['account']);
    const url = 'http://localhost/main/api/v1/me/export';
    const { result, rows: most } = await largestStatement(async () => {
      const res = await exportMe(new Request(url, { headers: { authorization: `Bearer ${account}` } }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('content-disposition')).toMatch(/attachment/);
      // Written in pieces as the pages are read, not one string made whole first.
      const chunks: Uint8Array[] = [];
      const reader = res.body!.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
      return chunks;
    });
    expect(most).toBeLessThanOrEqual(PAGE_ROWS);
    expect(result.length).toBeGreaterThan(3);
    const exported = JSON.parse(Buffer.concat(result).toString('utf8'));
    expect(exported.account.id).toBe(owner.user.id);
    expect(exported.heartbeats).toHaveLength(BIG);
    expect(exported.heartbeats.map((h: { time: number }) => h.time)).toEqual(Array.from({ length: BIG }, (_, i) => beatAt(i)));
    expect(exported.heartbeats[0]).toMatchObject({ type: 'file', language: 'TypeScript', project: 'p0', editor: 'VS Code', operating_system: 'Linux', counted_seconds: STEP_S });
    expect(exported.activities).toHaveLength(300 * 24);
    expect(exported.activities[0]).toEqual({ date: daysFromToday(-400), hour: 0, language: 'Go', project_name: 'p0', ide_name: 'VS Code', time: 60, lines: 0 });
    expect(exported.user_agents).toEqual([expect.objectContaining({ value: userAgent, editor: 'VS Code', os: 'Linux' })]);
    expect(exported.project_merges).toEqual([{ project: 'p2', into: 'p1', merged_at: expect.any(String) }]);
    expect(Object.keys(exported)).toEqual([
      'exported_at', 'account', 'tokens', 'badges', 'goals', 'teams', 'activities', 'desktop_activities', 'heartbeats', 'imports', 'user_agents', 'project_merges', 'ai_models',
    ]);
  });

  it('stops reading, saying nothing, when the client goes away midway', async () => {
    const account = await tokenWithScopes(owner.user.id, ['account']);
    const printed = vi.spyOn(console, 'error');
    const { rows: most } = await largestStatement(async () => {
      const res = await exportMe(new Request('http://localhost/main/api/v1/me/export', { headers: { authorization: `Bearer ${account}` } }));
      const reader = res.body!.getReader();
      // The document's head, the start of its buckets, their first page: the next page is then on its way.
      for (let i = 0; i < 3; i++) await reader.read();
      await reader.cancel();
      // A page still on its way when the client left is dropped.
      await new Promise((r) => setTimeout(r, 200));
    });
    expect(most).toBeLessThanOrEqual(PAGE_ROWS);
    expect(printed).not.toHaveBeenCalled();
  });

  it("leaves out another user's User-Agents and merges", async () => {
    const other = await newUser({ timezone: 'UTC' });
    const account = await tokenWithScopes(other.user.id, ['account']);
    const res = await exportMe(new Request('http://localhost/main/api/v1/me/export', { headers: { authorization: `Bearer ${account}` } }));
    const exported = await res.json();
    expect(exported).toMatchObject({ heartbeats: [], activities: [], user_agents: [], project_merges: [] });
  });
});
