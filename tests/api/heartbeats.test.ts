import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POST as postOne } from '@/app/api/wakatime/v1/users/[user]/heartbeats/route';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { POST as postLegacyOne } from '@/app/api/wakatime/v1/heartbeats/route';
import { POST as postLegacyBulk } from '@/app/api/wakatime/v1/heartbeats.bulk/route';
import { GET as getStatusBar } from '@/app/api/wakatime/v1/users/[user]/statusbar/today/route';
import { GET as getUser } from '@/app/api/wakatime/v1/users/[user]/route';
import { GET as getSummaries } from '@/app/api/wakatime/v1/users/[user]/summaries/route';
import { GET as getStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { GET as getAllTime } from '@/app/api/wakatime/v1/users/[user]/all_time_since_today/route';
import { GET as getProjects } from '@/app/api/wakatime/v1/users/[user]/projects/route';
import { POST as postToken } from '@/app/main/api/v1/me/tokens/route';
import { issueToken, revokeToken } from '@/lib/accounts/tokens';
import { purgeOldHeartbeats } from '@/lib/wakatime/sending/heartbeat-purge';
import { storeHeartbeats } from '@/lib/wakatime/sending/heartbeat-store';
import { getDb, rows } from '@/lib/db/client';
import { call, newUser, storedDesktop, storedIde, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';
import { referenceTotals, storedTotals, type Beat } from '../helpers/heartbeats';

// The WakaTime-compatible heartbeat routes, called as wakatime-cli calls them.

const base = 'http://localhost/api/wakatime/v1/users';
const vimAgent = 'wakatime/13.1.0 (linux-5.15.0) python3.11 vim/9.0 vim-wakatime/9.0.1';
const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;

async function waka(
  handler: typeof postOne,
  path: string,
  key: string | null,
  body?: unknown,
  init: { user?: string; headers?: Record<string, string>; query?: string; params?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': vimAgent, ...init.headers };
  if (key !== null && !init.query?.includes('api_key=')) headers.authorization ??= basic(key);
  const request = new Request(`${base}/${init.user ?? 'current'}${path ? `/${path}` : ''}${init.query ?? ''}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // Every answer must be as openapi.json describes it.
  return expectDocumented(request.method, request.url, await handler(request, { params: Promise.resolve({ user: init.user ?? 'current', ...init.params }) }));
}

/** A user with a WakaTime key (uuid format, scopes sync and stats) in the given timezone. */
async function wakaUser(timezone = 'UTC') {
  const u = await newUser({ timezone });
  const { token } = await issueToken(await getDb(), u.user.id, { name: 'vim', format: 'uuid' });
  return { ...u, key: token };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('keys in the WakaTime format', () => {
  it('are issued as a uuid with sync and stats by default, and work however a plugin sends them', async () => {
    const u = await newUser();
    const res = await call(postToken, '/me/tokens', { token: await issueToken(await getDb(), u.user.id, { name: 'acct', scopes: ['account'] }).then((t) => t.token), body: { name: 'editor', format: 'uuid' } });
    expect(res.status).toBe(201);
    const { token, info } = await res.json();
    expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(info.scopes).toEqual(['sync', 'stats']);
    const beat = (t: number) => ({ entity: '/home/me/src/app.ts', type: 'file', time: t, language: 'TypeScript', project: 'app' });
    const t0 = nowSeconds() - 600;
    const ways: [string, string | null, Record<string, string>, string?][] = [
      ['Basic base64(key)', token, {}],
      ['Basic base64(key:)', token, { authorization: basic(`${token}:`) }],
      ['Bearer', token, { authorization: `Bearer ${token}` }],
      ['waka_ prefix, upper case', token, { authorization: basic(`waka_${token.toUpperCase()}`) }],
      ['?api_key=', null, {}, `?api_key=${token}`],
    ];
    for (const [i, [way, key, headers, query]] of ways.entries()) {
      const answer = await waka(postOne, 'heartbeats', key, beat(t0 + i * 60), { headers, query });
      expect([way, answer.status]).toEqual([way, 201]);
    }
    const wrong = await waka(postOne, 'heartbeats', '9b2f2a4c-1111-4222-8333-444455556666', beat(t0));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: expect.stringMatching(/unknown or revoked/) });
    await revokeToken(await getDb(), u.user.id, info.id);
    expect((await waka(postOne, 'heartbeats', token, beat(t0))).status).toBe(401);
  });

  it('also reach the heartbeat routes older clients send to (an api_url naming the heartbeats URL)', async () => {
    const u = await wakaUser();
    const t = nowSeconds() - 300;
    const legacy = async (handler: typeof postOne, url: string, body: unknown) =>
      expectDocumented('POST', url, await handler(new Request(url, { method: 'POST', headers: { authorization: basic(u.key), 'content-type': 'application/json' }, body: JSON.stringify(body) })));
    expect((await legacy(postLegacyOne, 'http://localhost/api/wakatime/v1/heartbeats', { entity: 'a.c', time: t, language: 'C' })).status).toBe(201);
    const bulk = await legacy(postLegacyBulk, 'http://localhost/api/wakatime/v1/heartbeats.bulk', [{ entity: 'a.c', time: t + 30, language: 'C' }]);
    expect(bulk.status).toBe(201);
    expect((await storedIde(u.user.id)).reduce((sum, r) => sum + r.millis, 0)).toBe(30_000);
  });

  it('reach their own user only: current, the own handle or id', async () => {
    const a = await wakaUser();
    const b = await wakaUser();
    const beat = { entity: 'x.go', time: nowSeconds(), language: 'Go' };
    expect((await waka(postOne, 'heartbeats', a.key, beat, { user: a.user.handle })).status).toBe(201);
    expect((await waka(postOne, 'heartbeats', a.key, beat, { user: a.user.id })).status).toBe(201);
    const other = await waka(postOne, 'heartbeats', a.key, beat, { user: b.user.handle });
    expect(other.status).toBe(403);
    expect(Object.keys(await other.json())).toEqual(['error']);
  });
});

describe('heartbeats to time', () => {
  it('count the gap to the next heartbeat up to 15 minutes, credited to the earlier one, with the editor from the User-Agent', async () => {
    const u = await wakaUser();
    const t0 = Math.floor(nowSeconds() / 3600) * 3600 - 3 * 3600; // three hours ago, on the hour
    const beats = [
      { entity: 'a.go', time: t0, language: 'Go', project: 'api' },
      { entity: 'a.go', time: t0 + 300, language: 'Go', project: 'api' },
      { entity: 'b.rs', time: t0 + 600, language: 'Rust', project: 'api' },
      // 20 minutes later: the gap does not count.
      { entity: 'b.rs', time: t0 + 1800, language: 'Rust', project: 'api' },
      { entity: 'b.rs', time: t0 + 1860, language: 'Rust', project: 'api' },
    ];
    const res = await waka(postBulk, 'heartbeats.bulk', u.key, beats);
    expect(res.status).toBe(201);
    expect((await res.json()).responses.map((r: [unknown, number]) => r[1])).toEqual([201, 201, 201, 201, 201]);
    const stored = await storedIde(u.user.id);
    expect(stored.map((r) => [r.language, r.project, r.editor, r.millis])).toEqual([
      ['Go', 'api', 'Vim', 600_000],
      ['Rust', 'api', 'Vim', 60_000],
    ]);
  });

  it('answer each heartbeat of a bulk request in order; a bad one is refused alone', async () => {
    const u = await wakaUser();
    const t = nowSeconds() - 120;
    const res = await waka(postBulk, 'heartbeats.bulk', u.key, [
      { entity: 'ok.py', time: t, language: 'Python' },
      { entity: 'old.py', time: Date.UTC(1999, 11, 31) / 1000, language: 'Python' },
      { entity: 'future.py', time: t + 2 * 3600, language: 'Python' },
      { entity: 'diff.py', time: t, content: 'print(1)' },
      'not an object',
      { time: t },
      { entity: 'ok.py', time: t + 60, language: 'Python' },
    ]);
    expect(res.status).toBe(201);
    const { responses } = await res.json();
    expect(responses.map((r: [unknown, number]) => r[1])).toEqual([201, 400, 400, 400, 400, 400, 201]);
    expect(responses[1][0].error).toMatch(/from 2000-01-01/);
    expect(responses[3][0].error).toMatch(/never accepted/);
    expect(responses[0][0].data).toMatchObject({ type: 'file', language: 'Python' });
    expect(JSON.stringify(responses)).not.toContain('ok.py');
    // One minute, however the hours cut it.
    expect((await storedIde(u.user.id)).reduce((sum, r) => sum + r.millis, 0)).toBe(60_000);
  });

  it('check every heartbeat whole, however often a request repeats its names and files', async () => {
    const u = await wakaUser();
    const t = nowSeconds() - 600;
    const ok = { entity: 'same.go', language: 'Go', project: 'api', category: 'coding' };
    const res = await waka(postBulk, 'heartbeats.bulk', u.key, [
      { ...ok, time: t },
      { ...ok, time: t + 30, Content: 'package main' },
      { ...ok, time: t + 60, DIFF: '+x' },
      { ...ok, time: t + 90, entity: 'same.go\u0000' },
      { ...ok, time: t + 120, project: 'api\u202e' },
      { ...ok, time: t + 150, language: '\ud800Go' },
      { ...ok, time: t + 180, entity: 'same.go', project: 'api', branch: 'main', lines: 3 },
      { ...ok, time: t + 210, type: 'app', entity: 'same.go\u200b' },
    ]);
    const { responses } = await res.json();
    expect(responses.map((r: [unknown, number]) => r[1])).toEqual([201, 400, 400, 400, 400, 400, 201, 400]);
    expect(responses[1][0].error).toMatch(/^Content: .*never accepted/);
    expect(responses[2][0].error).toMatch(/^DIFF: .*never accepted/);
    expect(responses[3][0].error).toMatch(/entity must not contain control characters/);
    expect(responses[4][0].error).toMatch(/project must not contain invisible/);
    expect(responses[5][0].error).toMatch(/language must be well-formed/);
    expect(responses[7][0].error).toMatch(/application's name, which must not contain invisible/);
    expect(responses[0][0].data.id).not.toEqual(responses[6][0].data.id);
  });

  it('keep nothing of the file: no entity, branch, dependencies, line or cursor numbers', async () => {
    const u = await wakaUser();
    const t = nowSeconds() - 300;
    const secret = { entity: '/home/me/secret-client/contract.md', branch: 'feature/secret-deal', dependencies: ['secret-lib'], lineno: 4242, cursorpos: 777, lines: 31337 };
    await waka(postBulk, 'heartbeats.bulk', u.key, [
      { ...secret, time: t, language: 'Markdown', project: 'p' },
      { ...secret, time: t + 30, language: 'Markdown', project: 'p' },
    ]);
    const kept = await rows<{ row: string }>(await getDb(), sql`SELECT row_to_json(h)::text AS row FROM heartbeats h WHERE user_id = ${u.user.id}`);
    expect(kept).toHaveLength(2);
    for (const { row } of kept) {
      for (const text of ['secret-client', 'contract.md', 'secret-deal', 'secret-lib']) expect(row).not.toContain(text);
      // Numbers are compared whole: a time or a digest may contain their digits by chance.
      for (const n of [4242, 777, 31337]) expect(Object.values(JSON.parse(row))).not.toContain(n);
    }
  });

  it('are kept until no late heartbeat can reach them, then deleted, their time still counted', async () => {
    const [a, b] = [await wakaUser(), await wakaUser()];
    const now = Date.now();
    const beat = (at: number) => ({ at, type: 'file' as const, digest: at % 1000, category: 'coding', language: 'Go', project: 'p', editor: 'vim', os: 'Linux', app: '', machine: '', agent: '', aiLines: 0, humanLines: 0 });
    // Two older than 14 days, an hour and 15 minutes (the oldest a late heartbeat may change), one a
    // minute younger (storing starts a purge of its own, a little after \`now\`), and one a day old,
    // each sent when it happened.
    const oldest = now - 14 * 86_400_000 - 3_600_000 - 15 * 60_000;
    const times = [oldest - 120_000, oldest - 1, oldest + 60_000, now - 86_400_000];
    for (const u of [a, b]) for (const at of times) await storeHeartbeats(await getDb(), { id: u.user.id, timezone: 'UTC' }, [beat(at)], undefined, [], at + 1000);
    const kept = async (id: string) =>
      (await rows<{ at: number }>(await getDb(), sql`SELECT at::float8 AS at FROM heartbeats WHERE user_id = ${id} ORDER BY at`)).map((r) => r.at);
    const before = await storedIde(a.user.id);
    expect(before.reduce((sum, r) => sum + r.millis, 0)).toBe(180_000);
    await purgeOldHeartbeats(await getDb(), now);
    for (const u of [a, b]) expect(await kept(u.user.id)).toEqual(times.slice(2));
    expect(await storedIde(a.user.id)).toEqual(before);
  });

  it('count late ones (older than 14 days, as an AI sync sends history) once, however often they come, kept 14 days after they came', async () => {
    const u = await wakaUser();
    const db = await getDb();
    // A session of a year ago, sent in three requests of overlapping heartbeats, then all again.
    const start = nowSeconds() - 365 * 86_400;
    const session = Array.from({ length: 12 }, (_, i) => ({ entity: `f${i % 3}.ts`, time: start + i * 120, language: 'TypeScript', project: 'p', category: 'ai coding' }));
    for (const part of [session.slice(0, 5), session.slice(4, 9), session.slice(8)]) expect((await waka(postBulk, 'heartbeats.bulk', u.key, part)).status).toBe(201);
    const total = async () => (await storedIde(u.user.id)).reduce((sum, r) => sum + r.millis, 0);
    expect(await total()).toBe(11 * 120_000);
    await waka(postBulk, 'heartbeats.bulk', u.key, session);
    expect(await total()).toBe(11 * 120_000);
    // They do not tell an import that this path counted the year since.
    const [owner] = await rows<{ since: number | null }>(db, sql`SELECT heartbeats_since::float8 AS since FROM users WHERE id = ${u.user.id}`);
    expect(owner.since).toBeNull();
    // Kept 14 days after they came, then purged; sent again after that, they still count once.
    const count = async () => (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM heartbeats WHERE user_id = ${u.user.id}`))[0].n;
    await purgeOldHeartbeats(db, Date.now());
    expect(await count()).toBe(12);
    await purgeOldHeartbeats(db, Date.now() + 15 * 86_400_000);
    expect(await count()).toBe(0);
    await waka(postBulk, 'heartbeats.bulk', u.key, session);
    expect(await total()).toBe(11 * 120_000);
  });

  it('count once when sent again after their rows were purged, late or not; their keys are pruned by the purge after 90 days of silence', async () => {
    const u = await wakaUser();
    const db = await getDb();
    const day = 86_400_000;
    const beat = (at: number, entity: number) => ({ at, type: 'file' as const, digest: entity, category: 'coding', language: 'Go', project: 'p', editor: 'vim', os: 'Linux', app: '', machine: '', agent: '', aiLines: 0, humanLines: 0 });
    // A session sent as it happened (an hour ago), and one sent late (a year old when it came);
    // then the days after, each purge and request told its time (the purge that storing starts
    // now and then, at the real time, finds nothing of them to purge).
    const t = Date.now() - 3_600_000;
    const onTime = [beat(t, 1), beat(t + 120_000, 2), beat(t + 240_000, 1)];
    const late = [beat(t - 335 * day, 3), beat(t - 335 * day + 60_000, 4)];
    const store = (batch: ReturnType<typeof beat>[], now: number) => storeHeartbeats(db, { id: u.user.id, timezone: 'UTC' }, batch, undefined, [], now);
    await store(onTime, t + 300_000);
    await store(late, t + 300_000);
    const total = async () => (await storedIde(u.user.id)).reduce((sum, r) => sum + r.millis, 0);
    const counted = 240_000 + 60_000;
    expect(await total()).toBe(counted);
    const count = async (table: 'heartbeats' | 'late_heartbeat_keys') =>
      (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE user_id = ${u.user.id}`))[0].n;
    // 15 days on, every row is purged (the late ones 14 days after they came), each leaving its key.
    await purgeOldHeartbeats(db, t + 15 * day);
    expect([await count('heartbeats'), await count('late_heartbeat_keys')]).toEqual([0, 5]);
    // A client's queue sends them all again: nothing counts twice, whatever the batching.
    await store([...onTime, ...late], t + 16 * day);
    await store([onTime[1]], t + 20 * day);
    expect(await total()).toBe(counted);
    // Sent again (day 16 for all, day 20 for one), the keys are kept 90 days from then; past that, the purge prunes them.
    await purgeOldHeartbeats(db, t + 100 * day);
    expect(await count('late_heartbeat_keys')).toBe(5);
    await purgeOldHeartbeats(db, t + 107 * day);
    expect(await count('late_heartbeat_keys')).toBe(1);
    await purgeOldHeartbeats(db, t + 111 * day);
    expect(await count('late_heartbeat_keys')).toBe(0);
    expect(await total()).toBe(counted);
  });

  it('are purged, and their keys pruned, however many one account left behind (statement after statement)', async () => {
    const u = await wakaUser();
    const db = await getDb();
    const day = 86_400_000;
    const t = Date.now() - 3_600_000;
    // 12 000 heartbeats a minute apart, as storing leaves them (more than one statement of the purge takes).
    await db.execute(sql`INSERT INTO heartbeats (user_id, at, type, entity_digest, category, language, project, editor, os, app, credited_until, zone)
      SELECT ${u.user.id}::uuid, ${t}::bigint - g::bigint * 60000, 'file', g, 'coding', 'Go', 'p', 'vim', 'Linux', '', ${t}::bigint - g::bigint * 60000, 'UTC' FROM generate_series(1, 12000) g`);
    await db.execute(sql`UPDATE users SET heartbeats_since = ${t - 12_000 * 60_000} WHERE id = ${u.user.id}`);
    const count = async (table: 'heartbeats' | 'late_heartbeat_keys') =>
      (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE user_id = ${u.user.id}`))[0].n;
    await purgeOldHeartbeats(db, t + 30 * day);
    expect([await count('heartbeats'), await count('late_heartbeat_keys')]).toEqual([0, 12_000]);
    await purgeOldHeartbeats(db, t + 121 * day);
    expect(await count('late_heartbeat_keys')).toBe(0);
  });

  it('count app heartbeats as desktop time, per application', async () => {
    const u = await wakaUser();
    const t = nowSeconds() - 600;
    await waka(postBulk, 'heartbeats.bulk', u.key, [
      { entity: 'Figma', type: 'app', time: t, category: 'designing' },
      { entity: 'Figma', type: 'app', time: t + 120, category: 'designing' },
    ]);
    const desktop = await storedDesktop(u.user.id);
    expect([...new Set(desktop.map((r) => `${r.platform}/${r.app}`))]).toEqual(['Linux/Figma']);
    expect(desktop.reduce((sum, r) => sum + r.millis, 0)).toBe(120_000);
    expect(await storedIde(u.user.id)).toEqual([]);
    // A name too long to keep is refused whole, never cut (a cut could split an emoji's surrogate pair).
    const long = await waka(postBulk, 'heartbeats.bulk', u.key, [{ entity: '🎨'.repeat(200), type: 'app', time: t + 180 }]);
    expect((await long.json()).responses[0]).toEqual([{ error: expect.stringMatching(/at most 255 characters/) }, 400]);
  });

  it('show on the status bar: today\'s total, categories, languages, editors, projects and systems', async () => {
    const u = await wakaUser();
    // Twenty minutes ago, or the day's start if that was yesterday (UTC is the user's timezone).
    const t = Math.max(nowSeconds() - 1200, Math.floor(nowSeconds() / 86_400) * 86_400);
    await waka(postBulk, 'heartbeats.bulk', u.key, [
      { entity: 'a.ts', time: t, language: 'TypeScript', project: 'web', category: 'coding' },
      { entity: 'a.ts', time: t + 600, language: 'TypeScript', project: 'web', category: 'debugging' },
      { entity: 'a.ts', time: t + 900, language: 'TypeScript', project: 'web', category: 'debugging' },
    ]);
    const res = await waka(getStatusBar, 'statusbar/today', u.key);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.grand_total).toEqual({ digital: '0:15', hours: 0, minutes: 15, text: '15 mins', total_seconds: 900, ai_additions: 0, ai_deletions: 0, human_additions: 0, human_deletions: 0,
      ai_input_tokens: 0, ai_output_tokens: 0, ai_sessions: 0, ai_prompt_events_total: 0, ai_prompt_length_sum: 0, ai_model_breakdown: [] });
    expect(data.categories.map((c: { name: string; total_seconds: number }) => [c.name, c.total_seconds])).toEqual([
      ['Coding', 600],
      ['Debugging', 300],
    ]);
    expect(data.languages[0]).toMatchObject({ name: 'TypeScript', total_seconds: 900, percent: 100, text: '15 mins' });
    expect(data.editors[0].name).toBe('Vim');
    expect(data.projects[0].name).toBe('web');
    expect(data.operating_systems[0]).toMatchObject({ name: 'Linux', total_seconds: 900 });
  });
});

describe('the read routes, with a stats key', () => {
  it('answer summaries, stats, all time, the user and the projects in WakaTime\'s shapes', async () => {
    const u = await wakaUser();
    const now = nowSeconds();
    const t = Math.max(now - 1200, Math.floor(now / 86_400) * 86_400);
    const today = new Date(t * 1000).toISOString().slice(0, 10);
    await waka(postBulk, 'heartbeats.bulk', u.key, [
      { entity: 'a.ts', time: t, language: 'TypeScript', project: 'web' },
      { entity: 'b.go', time: t + 300, language: 'Go', project: 'api' },
      { entity: 'b.go', time: t + 600, language: 'Go', project: 'api' },
    ]);
    const read = async (handler: typeof getUser, path: string, query = '', params: Record<string, string> = {}) => {
      const res = await waka(handler, path, u.key, undefined, { query, params });
      return { status: res.status, body: await res.json() };
    };
    const summary = await read(getSummaries, 'summaries', `?start=${today}&end=${today}`);
    expect(summary.status).toBe(200);
    expect(summary.body.data).toHaveLength(1);
    expect(summary.body.data[0].grand_total.total_seconds).toBe(600);
    expect(summary.body.data[0].languages.map((l: { name: string; total_seconds: number }) => [l.name, l.total_seconds])).toEqual([
      ['Go', 300],
      ['TypeScript', 300],
    ]);
    expect(summary.body.data[0].range).toMatchObject({ date: today, timezone: 'UTC' });
    expect(summary.body.cumulative_total).toMatchObject({ seconds: 600, text: '10 mins', digital: '0:10', decimal: '0.17' });
    expect((await read(getSummaries, 'summaries', '?range=Today')).body.data[0].grand_total.total_seconds).toBe(600);
    expect((await read(getSummaries, 'summaries', '?range=Last%207%20Days')).body.data).toHaveLength(7);
    const badRange = await read(getSummaries, 'summaries', '?range=forever');
    expect(badRange).toEqual({ status: 400, body: { error: expect.stringMatching(/^range must be/) } });
    expect((await read(getSummaries, 'summaries', '?start=2020-01-01&end=2026-01-01')).status).toBe(400);

    const week = await read(getStats, 'stats/last_7_days', '', { range: 'last_7_days' });
    expect(week.body.data).toMatchObject({ total_seconds: 600, human_readable_total: '10 mins', range: 'last_7_days', username: u.user.handle });
    expect((await read(getStats, 'stats/all_time', '', { range: 'all_time' })).body.data.total_seconds).toBe(600);
    expect((await read(getStats, 'stats/forever', '', { range: 'forever' })).status).toBe(404);
    expect((await read(getAllTime, 'all_time_since_today')).body.data).toMatchObject({ total_seconds: 600, text: '10 mins' });
    expect((await read(getUser, '')).body.data).toMatchObject({ id: u.user.id, username: u.user.handle, timezone: 'UTC' });
    expect((await read(getProjects, 'projects')).body.data.map((p: { name: string }) => p.name).sort()).toEqual(['api', 'web']);
    expect((await read(getProjects, 'projects', '?q=WE')).body.data.map((p: { name: string }) => p.name)).toEqual(['web']);
    expect((await read(getProjects, 'projects', '?q=%00')).status).toBe(400);
  });

  it('need the stats scope, but for the status bar, which a plugin token reads too: it shows the time it sends', async () => {
    const u = await newUser(); // its first token: sync and badges, a plugin's
    const t = Math.max(nowSeconds() - 600, Math.floor(nowSeconds() / 86_400) * 86_400);
    await waka(postBulk, 'heartbeats.bulk', u.token, [0, 120, 300].map((s) => ({ entity: 'a.ts', time: t + s, language: 'TypeScript' })));
    const bar = await waka(getStatusBar, 'statusbar/today', u.token);
    expect(bar.status).toBe(200);
    expect((await bar.json()).data.grand_total).toMatchObject({ total_seconds: 300, text: '5 mins' });
    for (const [handler, path, range] of [[getSummaries, 'summaries', undefined], [getStats, 'stats/all_time', 'all_time'], [getAllTime, 'all_time_since_today', undefined], [getProjects, 'projects', undefined], [getUser, '', undefined]] as const) {
      const res = await waka(handler, path, u.token, undefined, { query: path === 'summaries' ? '?range=Today' : '', params: range ? { range } : {} });
      expect([path, res.status]).toEqual([path, 403]);
      expect(await res.json()).toEqual({ error: 'This route needs a token with the "stats" scope.' });
    }
    // Neither scope: no status bar.
    const badgesOnly = await waka(getStatusBar, 'statusbar/today', await tokenWithScopes(u.user.id, ['badges', 'account']));
    expect(badgesOnly.status).toBe(403);
    expect(await badgesOnly.json()).toEqual({ error: 'This route needs a token with the "stats" or "sync" scope.' });
  });
});

// The property: late, duplicated, reordered heartbeats in any batching give exactly the totals of
// the stream in order. The reference credits each gap of at most 15 minutes to the earlier
// heartbeat and cuts it at local hours of a timezone whose offset (+05:45, no daylight saving)
// is not a whole hour.
const zone = 'Asia/Kathmandu';
const offsetMs = (5 * 60 + 45) * 60_000;

const expected = (beats: Beat[]) => referenceTotals(beats, offsetMs);

describe('heartbeats in any order and batching', () => {
  it('give exactly the totals of the stream in order', async () => {
    const start = nowSeconds() - 12 * 86_400;
    const beatArb = fc.record({
      entity: fc.constantFrom('a.go', 'b.go', 'c.rs'),
      // Clustered times: many gaps under 15 minutes, some over, some hour boundaries crossed.
      time: fc.integer({ min: 0, max: 3 * 3600 }).map((s) => start + s),
      language: fc.constantFrom('Go', 'Rust'),
      project: fc.constantFrom('api', 'web'),
      category: fc.constantFrom('coding', 'debugging'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(beatArb, { minLength: 1, maxLength: 40 }), fc.infiniteStream(fc.nat()), async (stream, random) => {
        // A duplicate (same time and entity) carries the first one's fields, as a resend does.
        const firstOf = new Map<string, Beat>();
        const beats = stream.map((b) => {
          const key = `${b.time}/${b.entity}`;
          if (!firstOf.has(key)) firstOf.set(key, b);
          return firstOf.get(key)!;
        });
        const inOrder = await wakaUser(zone);
        const sorted = [...new Map(beats.map((b) => [`${b.time}/${b.entity}`, b])).values()].sort((a, b) => a.time - b.time);
        expect((await waka(postBulk, 'heartbeats.bulk', inOrder.key, sorted)).status).toBe(201);

        // The same heartbeats, some twice, shuffled, in batches of random sizes.
        const late = await wakaUser(zone);
        const it = random[Symbol.iterator]();
        const next = () => it.next().value as number;
        const sent = [...beats, ...beats.filter(() => next() % 3 === 0)];
        for (let i = sent.length - 1; i > 0; i--) {
          const j = next() % (i + 1);
          [sent[i], sent[j]] = [sent[j], sent[i]];
        }
        while (sent.length > 0) {
          const batch = sent.splice(0, 1 + (next() % 7));
          expect((await waka(postBulk, 'heartbeats.bulk', late.key, batch)).status).toBe(201);
        }
        // Both orders end at the same totals; where no two heartbeats share a time (whose order
        // the server settles by a digest this test cannot know), they are the reference's too.
        expect(await storedTotals(late.user.id)).toEqual(await storedTotals(inOrder.user.id));
        if (new Set(sorted.map((b) => b.time)).size === sorted.length) expect(await storedTotals(inOrder.user.id)).toEqual(expected(beats));
      }),
      { numRuns: 25, endOnFailure: true },
    );
  }, 120_000);

  it('give the same totals when batches of one user arrive at the same time', async () => {
    const start = nowSeconds() - 5 * 86_400;
    const beats: Beat[] = Array.from({ length: 240 }, (_, i) => ({
      entity: ['a.go', 'b.go', 'c.rs'][i % 3],
      time: start + i * 97 + (i % 4) * 13,
      language: i % 5 ? 'Go' : 'Rust',
      project: i % 7 ? 'api' : 'web',
      category: 'coding',
    }));
    const u = await wakaUser(zone);
    // Interleaved batches, so that every batch has neighbours in the others.
    const batches = Array.from({ length: 12 }, (_, k) => beats.filter((_, i) => i % 12 === k));
    const answers = await Promise.all(batches.map((batch) => waka(postBulk, 'heartbeats.bulk', u.key, batch)));
    expect(answers.map((a) => a.status)).toEqual(batches.map(() => 201));
    expect(await storedTotals(u.user.id)).toEqual(expected(beats));
  });
});
