import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as postOne } from '@/app/api/wakatime/v1/users/[user]/heartbeats/route';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { POST as postLegacyOne } from '@/app/api/wakatime/v1/heartbeats/route';
import { issueToken } from '@/lib/accounts/tokens';
import { getDb, rows } from '@/lib/db/client';
import { newUser, storedDesktop, storedIde } from '../helpers/api';
import { clientFixture, clientFixtureNames, fixtureBeats, fixtureShift, replayRequest, type ClientFixtureName } from '../helpers/client-fixtures';
import { expectDocumented } from '../helpers/contract';

// What real WakaTime clients send, replayed against the heartbeat routes as each client sends it
// (tests/fixtures/wakatime-clients/): every heartbeat accepted and its time counted, whatever the
// Content-Type, the encoding of the body or of `time`, with the editor from `plugin` and the
// placeholders resolved.

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function wakaUser() {
  const u = await newUser();
  const { token } = await issueToken(await getDb(), u.user.id, { name: 'editor', format: 'uuid' });
  return { ...u, key: token };
}

/** Seconds a stream of heartbeats counts by WakaTime's rule: each gap of at most 15 minutes. */
function creditedMillis(times: number[]): number {
  const sorted = times.map((t) => Math.round(t * 1000)).sort((a, b) => a - b);
  return sorted.slice(1).reduce((sum, t, i) => sum + (t - sorted[i] <= 900_000 ? t - sorted[i] : 0), 0);
}

/** A fixture replayed against the bulk route's handler, its last heartbeat `endsAgo` seconds ago. */
async function replay(name: ClientFixtureName, key: string, endsAgo = 120) {
  const fixture = clientFixture(name);
  const request = replayRequest(fixture, key, 'http://localhost', nowSeconds() - endsAgo);
  const response = await expectDocumented('POST', request.url, await postBulk(request, { params: Promise.resolve({ user: 'current' }) }));
  const shift = fixtureShift(fixture, nowSeconds() - endsAgo);
  return { fixture, response, times: fixtureBeats(fixture).map((b) => Number(b.time) + shift) };
}

const total = (stored: { millis: number }[]) => stored.reduce((sum, r) => sum + r.millis, 0);

describe('each client\'s request, as its source sends it', () => {
  it.each(clientFixtureNames)('%s: every heartbeat is accepted and its time counted', async (name) => {
    const u = await wakaUser();
    const { response, times } = await replay(name, u.key);
    expect(response.status).toBe(201);
    const { responses } = await response.json();
    expect(responses.map((r: [unknown, number]) => r[1])).toEqual(times.map(() => 201));
    // Allow a millisecond per heartbeat: a time sent with fractions of a millisecond is rounded.
    expect(Math.abs(total(await storedIde(u.user.id)) - creditedMillis(times))).toBeLessThanOrEqual(times.length);
    expect(creditedMillis(times)).toBeGreaterThan(0);
  });

  it('WakaTime\'s browser extension: text/plain, string times, the editor from plugin, the project of the previous heartbeat', async () => {
    const u = await wakaUser();
    // The user's heartbeat just before, from an editor, names the project the extension's placeholders stand for.
    const before = nowSeconds() - 900;
    const first = await postOne(
      new Request('http://localhost/api/wakatime/v1/users/current/heartbeats', {
        method: 'POST',
        headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json', 'user-agent': 'wakatime/v2.1.0 (linux-6.8.0) go1.24.4 vscode/1.100.0 vscode-wakatime/25.3.0' },
        body: JSON.stringify({ entity: '/src/a.ts', time: before, project: 'acme', language: 'TypeScript' }),
      }),
      { params: Promise.resolve({ user: 'current' }) },
    );
    expect(first.status).toBe(201);
    const { fixture, response } = await replay('browser-extension', u.key, 300);
    expect(fixture.request.headers['content-type']).toMatch(/^text\/plain/);
    const { responses } = await response.json();
    expect(responses.every(([answer]: [{ data: { project: string } }]) => answer.data.project === 'acme')).toBe(true);
    const stored = await rows<{ project: string; editor: string; os: string; type: string }>(
      await getDb(),
      sql`SELECT project, editor, os, type FROM heartbeats WHERE user_id = ${u.user.id} AND type = 'domain' ORDER BY at`,
    );
    expect(stored).toEqual(fixtureBeats(fixture).map(() => ({ project: 'acme', editor: 'Chrome', os: 'Linux', type: 'domain' })));
    const names = JSON.stringify(await rows(await getDb(), sql`SELECT project, language FROM heartbeats WHERE user_id = ${u.user.id}`));
    expect(names).not.toContain('<<');
  });

  it('vscode.dev: an array encoded twice, the project from alternate_project, the editor and system from plugin', async () => {
    const u = await wakaUser();
    const { response } = await replay('vscode-dev', u.key);
    expect(response.status).toBe(201);
    const stored = await storedIde(u.user.id);
    expect([...new Set(stored.map((r) => `${r.project}/${r.editor}`))]).toEqual(['acme-site/VS Code']);
    const categories = await rows<{ category: string; os: string }>(await getDb(), sql`SELECT DISTINCT category, os FROM heartbeats WHERE user_id = ${u.user.id} ORDER BY 1`);
    expect(categories).toEqual([
      { category: 'ai coding', os: 'Linux' },
      { category: 'coding', os: 'Linux' },
    ]);
  });

  it('wakatime-cli with its AI sync: the AI fields are taken, and the agent\'s app heartbeat is coding time', async () => {
    const u = await wakaUser();
    const { fixture, response } = await replay('wakatime-cli-ai', u.key);
    expect(fixture.request.headers['x-machine-name']).toBeTruthy();
    expect(fixtureBeats(fixture).some((b) => b.type === 'app' && b.category === 'ai coding')).toBe(true);
    expect(response.status).toBe(201);
    expect(await storedDesktop(u.user.id)).toEqual([]);
    const categories = await rows<{ category: string; editor: string }>(await getDb(), sql`SELECT DISTINCT category, editor FROM heartbeats WHERE user_id = ${u.user.id} ORDER BY 1, 2`);
    expect(categories.map((c) => c.category)).toEqual(['ai coding', 'ai coding', 'coding']);
    expect(categories.filter((c) => c.editor === 'VS Code')).toHaveLength(2);
  });
});

describe('what clients send besides', () => {
  const post = (handler: typeof postBulk, url: string, key: string, body: string, headers: Record<string, string> = {}) =>
    handler(new Request(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...headers }, body }), { params: Promise.resolve({ user: 'current' }) });
  const bulkUrl = 'http://localhost/api/wakatime/v1/users/current/heartbeats.bulk';

  it('resolve placeholders from the previous heartbeat of the request, never keeping them as names', async () => {
    const u = await wakaUser();
    const t = nowSeconds() - 600;
    const res = await post(
      postBulk,
      bulkUrl,
      u.key,
      JSON.stringify([
        { entity: 'a.rs', time: t, project: '<<LAST_PROJECT>>', language: '<<LAST_LANGUAGE>>' },
        { entity: 'b.rs', time: t + 60, project: 'engine', language: 'Rust' },
        { entity: 'c.rs', time: t + 120, project: '<<LAST_PROJECT>>', language: '<<LAST_LANGUAGE>>', branch: '<<LAST_BRANCH>>' },
      ]),
      { 'content-type': 'application/json' },
    );
    expect(res.status).toBe(201);
    const stored = await rows<{ project: string; language: string }>(await getDb(), sql`SELECT project, language FROM heartbeats WHERE user_id = ${u.user.id} ORDER BY at`);
    // The first has nothing before it (no heartbeat stored): no project, language Other.
    expect(stored).toEqual([
      { project: '', language: 'Other' },
      { project: 'engine', language: 'Rust' },
      { project: 'engine', language: 'Rust' },
    ]);
  });

  it('take a body without a Content-Type, and refuse a JSON string that holds no JSON', async () => {
    const u = await wakaUser();
    const t = nowSeconds() - 300;
    const none = await post(postBulk, bulkUrl, u.key, JSON.stringify([{ entity: 'x.py', time: t }]));
    expect(none.status).toBe(201);
    const notJson = await post(postBulk, bulkUrl, u.key, JSON.stringify('[{"entity": "x.py", '), { 'content-type': 'application/json' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: expect.stringMatching(/not valid JSON/) });
    const badTime = await post(postBulk, bulkUrl, u.key, JSON.stringify([{ entity: 'x.py', time: 'soon' }]));
    expect((await badTime.json()).responses[0]).toEqual([{ error: expect.stringMatching(/time must be a number/) }, 400]);
  });

  it('take an array at the route of one heartbeat, as Wakapi\'s /api/heartbeat does, answering as the bulk route', async () => {
    const u = await wakaUser();
    const t = nowSeconds() - 300;
    const url = 'http://localhost/api/wakatime/v1/heartbeats';
    const res = await expectDocumented('POST', url, await post(postLegacyOne, url, u.key, JSON.stringify([{ entity: 'x.py', time: t }, { entity: 'x.py', time: t + 45 }])));
    expect(res.status).toBe(201);
    expect((await res.json()).responses).toHaveLength(2);
    expect(total(await storedIde(u.user.id))).toBe(45_000);
  });
});
