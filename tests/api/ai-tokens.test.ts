import { describe, expect, it } from 'vitest';
import { POST as postOne } from '@/app/api/wakatime/v1/users/[user]/heartbeats/route';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { GET as getSummaries } from '@/app/api/wakatime/v1/users/[user]/summaries/route';
import { GET as getRangedStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import { POST as postImport } from '@/app/main/api/v1/me/imports/route';
import { POST as renameRoute } from '@/app/main/api/v1/me/projects/[name]/rename/route';
import { POST as splitRoute } from '@/app/main/api/v1/me/projects/[name]/split/route';
import { GET as getExport } from '@/app/main/api/v1/me/export/route';
import { issueToken } from '@/lib/accounts/tokens';
import { getDb } from '@/lib/db/client';
import { importsSettled } from '@/lib/wakatime/importing/import-queue';
import { parseUserAgent } from '@/lib/wakatime/sending/user-agent';
import { daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// What AI agents report with their heartbeats (wakatime-cli's ai_session, ai_input_tokens,
// ai_output_tokens, ai_prompt_length, and the model its User-Agent names; decision 0037), kept per
// bucket and read back in summaries' grand_total and stats' data: through the real heartbeat
// routes, a dump import, and the public stats route with and without the owner's share_ai.

// wakatime-cli's AI sync inside VS Code (the model's word first, then Claude Code's), and Codex
// outside an editor.
const claudeOpus = 'opus/4-5 claude-code/2.0.14 wakatime/v2.2.0 (linux-6.8.0-x86_64) go1.25.1 vscode/1.105.1 vscode-wakatime/25.4.0';
const codex = 'gpt/5.1-codex codex/0.58.0';
const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

async function wakaUser(settings: Record<string, boolean> = {}) {
  const u = await newUser({ timezone: 'UTC', settings: { profile_public: true, share_languages: true, share_editors: true, ...settings } });
  const { token } = await issueToken(await getDb(), u.user.id, { name: 'cli', format: 'uuid' });
  return { ...u, key: token };
}

async function send(handler: Handler, route: string, key: string, body: unknown, userAgent: string) {
  const url = `http://localhost/api/wakatime/v1/users/current/${route}`;
  const request = new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic(key), 'user-agent': userAgent },
    body: JSON.stringify(body),
  });
  return expectDocumented('POST', url, await handler(request, { params: Promise.resolve({ user: 'current' }) }));
}

async function read(handler: Handler, route: string, opts: { key?: string; user?: string; params?: Record<string, string> } = {}) {
  const user = opts.user ?? 'current';
  const url = `http://localhost/api/wakatime/v1/users/${user}/${route}`;
  const request = new Request(url, { headers: opts.key ? { authorization: basic(opts.key) } : {} });
  const res = await expectDocumented('GET', url, await handler(request, { params: Promise.resolve({ user, ...opts.params }) }));
  expect(res.status).toBe(200);
  return res.json();
}

/** The AI figures of summaries' grand_total (one day) and of stats' data, flat. */
const FIGURES = ['ai_additions', 'ai_deletions', 'human_additions', 'human_deletions', 'ai_input_tokens', 'ai_output_tokens', 'ai_sessions', 'ai_prompt_events_total', 'ai_prompt_length_sum', 'ai_model_breakdown'];
const figuresOf = (o: Record<string, unknown>) => Object.fromEntries(FIGURES.map((k) => [k, o[k]]));

async function dayFigures(key: string, date: string) {
  const summaries = await read(getSummaries, `summaries?start=${date}&end=${date}`, { key });
  return figuresOf(summaries.data[0].grand_total);
}

/** Two days ago at 09:00 UTC, in epoch seconds. */
const morning = () => Date.parse(`${daysFromToday(-2)}T09:00:00Z`) / 1000;

/**
 * Claude Code (Opus) in a bulk: a session of two heartbeats with tokens, a prompt and lines, and a
 * second session with a prompt only; Codex (GPT-5.1) as a single heartbeat with its own session.
 */
function beatsAt(at: number) {
  const bulk = [
    { entity: '/src/a.ts', time: at, language: 'TypeScript', project: 'app', category: 'ai coding', ai_session: 's-1', ai_input_tokens: 1000, ai_output_tokens: 200, ai_prompt_length: 120, ai_line_changes: 10 },
    { entity: '/src/b.ts', time: at + 60, language: 'TypeScript', project: 'app', category: 'ai coding', ai_session: 's-1', ai_input_tokens: 500, ai_output_tokens: 50, ai_line_changes: -4 },
    { entity: '/src/c.ts', time: at + 120, language: 'TypeScript', project: 'app', category: 'ai coding', ai_session: 's-2', ai_prompt_length: 30 },
  ];
  const one = { entity: '/src/d.ts', time: at + 180, language: 'TypeScript', project: 'app', category: 'ai coding', ai_session: 's-3', ai_input_tokens: 300, ai_output_tokens: 30, ai_prompt_length: 0, ai_line_changes: 6, user_agent: codex };
  return { bulk, one };
}

const expected = {
  ai_additions: 16,
  ai_deletions: 4,
  human_additions: 0,
  human_deletions: 0,
  ai_input_tokens: 1800,
  ai_output_tokens: 280,
  ai_sessions: 3,
  ai_prompt_events_total: 2,
  ai_prompt_length_sum: 150,
  ai_model_breakdown: [
    { name: 'opus-4-5', lines: 14, input_tokens: 1500, output_tokens: 250 },
    { name: 'gpt-5.1-codex', lines: 6, input_tokens: 300, output_tokens: 30 },
  ],
};

describe("AI sessions, tokens and models from wakatime-cli's heartbeats", () => {
  it('names the model a User-Agent carries, and the agent after it', () => {
    expect(parseUserAgent(claudeOpus)).toMatchObject({ model: 'opus-4-5', agent: 'claude-code', editor: 'VS Code', os: 'Linux' });
    expect(parseUserAgent(codex)).toMatchObject({ model: 'gpt-5.1-codex', editor: 'Codex' });
    expect(parseUserAgent('model/claude-sonnet-4-5 wakatime/v2.2.0 (darwin-25.0.0) go1.25.1 cursor/1.7.0 vscode-wakatime/25.4.0')).toMatchObject({ model: 'claude-sonnet-4-5', editor: 'Cursor' });
    // No model: an agent's word before wakatime-cli's, an editor with its plugin, a browser.
    expect(parseUserAgent('Claude/2.1.5 wakatime/v2.1.0 (linux-6.8.0) go1.24.4 vscode/1.100.0 vscode-wakatime/25.3.0')).toEqual({ editor: 'VS Code', os: 'Linux', agent: 'Claude' });
    expect(parseUserAgent('vscode/1.95.0 vscode-wakatime/25.0.0').model).toBeUndefined();
    expect(parseUserAgent('Firefox/133.0 linux_x86_64 firefox-wakatime/4.1.0').model).toBeUndefined();
    expect(parseUserAgent('wakatime/v1.115.0 (linux-6.8.0-x86_64) go1.24.4 claude/2.0.14 claude-code-wakatime/1.2.0').model).toBeUndefined();
  });

  it('keeps them per bucket from the single and the bulk route, and a resent heartbeat adds nothing twice', async () => {
    const u = await wakaUser();
    const at = morning();
    const { bulk, one } = beatsAt(at);
    expect((await send(postBulk, 'heartbeats.bulk', u.key, bulk, claudeOpus)).status).toBe(201);
    expect((await send(postOne, 'heartbeats', u.key, one, claudeOpus)).status).toBe(201);
    const date = daysFromToday(-2);
    expect(await dayFigures(u.key, date)).toEqual(expected);

    // wakatime-cli resends what it is not sure was taken: the same heartbeats, again, in other
    // batches, and a later heartbeat of a session already counted.
    expect((await send(postBulk, 'heartbeats.bulk', u.key, [...bulk, one], claudeOpus)).status).toBe(201);
    expect((await send(postOne, 'heartbeats', u.key, bulk[1], claudeOpus)).status).toBe(201);
    const later = { entity: '/src/e.ts', time: at + 240, language: 'TypeScript', project: 'app', category: 'ai coding', ai_session: 's-1', ai_input_tokens: 100 };
    expect((await send(postBulk, 'heartbeats.bulk', u.key, [later, later], claudeOpus)).status).toBe(201);
    // Only the later heartbeat's tokens are new; its session was counted.
    const total = { ...expected, ai_input_tokens: 1900, ai_model_breakdown: [{ ...expected.ai_model_breakdown[0], input_tokens: 1600 }, expected.ai_model_breakdown[1]] };
    expect(await dayFigures(u.key, date)).toEqual(total);

    // Stats carry the same figures in grand_total and flat on data.
    const { data } = await read(getRangedStats, 'stats/last_7_days', { key: u.key, params: { range: 'last_7_days' } });
    expect(data.grand_total.total_seconds).toBe(240);
    expect(figuresOf(data)).toEqual(total);
    expect(figuresOf(data.grand_total)).toEqual(total);
    // A filtered read has the filtered buckets' figures and no models (they are kept per day).
    const filtered = await read(getRangedStats, 'stats/last_7_days?project=app', { key: u.key, params: { range: 'last_7_days' } });
    expect(figuresOf(filtered.data)).toEqual({ ...total, ai_model_breakdown: [] });
  });

  it('carries nothing of it publicly without share_ai, and all of it with share_ai', async () => {
    for (const shareAi of [false, true]) {
      const u = await wakaUser({ share_ai: shareAi });
      const { bulk, one } = beatsAt(morning());
      expect((await send(postBulk, 'heartbeats.bulk', u.key, [...bulk, one], claudeOpus)).status).toBe(201);
      const { data } = await read(getRangedStats, 'stats/last_7_days', { user: u.user.handle, params: { range: 'last_7_days' } });
      expect(data.grand_total.total_seconds).toBe(180);
      if (!shareAi) {
        for (const name of FIGURES) {
          expect(data).not.toHaveProperty(name);
          expect(data.grand_total).not.toHaveProperty(name);
        }
        const text = JSON.stringify(data);
        for (const secret of ['opus', 'gpt', 'tokens', 'prompt']) expect(text).not.toContain(secret);
      } else {
        expect(figuresOf(data)).toEqual(expected);
        expect(figuresOf(data.grand_total)).toEqual(expected);
      }
    }
  });

  it('answers 400 naming the field for a negative, a string, a fraction or a huge value', async () => {
    const u = await wakaUser();
    const base = { entity: '/src/a.ts', time: morning(), language: 'TypeScript', project: 'app' };
    const bad: [string, unknown][] = [
      ['ai_input_tokens', -1],
      ['ai_output_tokens', '12'],
      ['ai_prompt_length', 2.5],
      ['ai_input_tokens', 1e12],
      ['ai_output_tokens', 100_000_001],
      ['ai_prompt_length', 10_000_001],
      ['ai_session', 42],
      ['ai_session', 'x'.repeat(256)],
    ];
    for (const [field, value] of bad) {
      const res = await send(postOne, 'heartbeats', u.key, { ...base, [field]: value }, claudeOpus);
      expect(res.status, `${field}: ${JSON.stringify(value)}`).toBe(400);
      expect((await res.json()).error).toContain(field);
      const bulkRes = await send(postBulk, 'heartbeats.bulk', u.key, [{ ...base, [field]: value }], claudeOpus);
      const [[answer, status]] = (await bulkRes.json()).responses;
      expect(status).toBe(400);
      expect(answer.error).toContain(field);
    }
    // Nothing of them was kept; the largest values taken are taken.
    expect(await dayFigures(u.key, daysFromToday(-2))).toMatchObject({ ai_input_tokens: 0, ai_sessions: 0, ai_model_breakdown: [] });
    const max = { ...base, ai_session: 'y'.repeat(255), ai_input_tokens: 100_000_000, ai_output_tokens: 0, ai_prompt_length: 10_000_000 };
    expect((await send(postOne, 'heartbeats', u.key, max, claudeOpus)).status).toBe(201);
    expect(await dayFigures(u.key, daysFromToday(-2))).toMatchObject({ ai_input_tokens: 100_000_000, ai_sessions: 1, ai_prompt_events_total: 1, ai_prompt_length_sum: 10_000_000 });
  });

  it('moves them with a project merged into another, and back with the split', async () => {
    const u = await wakaUser();
    const token = await tokenWithScopes(u.user.id, ['account']);
    const { bulk, one } = beatsAt(morning());
    // Two projects, each with AI figures in the same hours (the merge sums buckets of one key).
    const other = [...bulk, one].map((b, i) => ({ ...b, entity: `/other/${i}.ts`, project: 'other', time: b.time + 30 }));
    expect((await send(postBulk, 'heartbeats.bulk', u.key, [...bulk, one, ...other], claudeOpus)).status).toBe(201);
    const date = daysFromToday(-2);
    const ofProject = async (project: string) =>
      figuresOf((await read(getSummaries, `summaries?start=${date}&end=${date}&project=${project}`, { key: u.key })).data[0].grand_total);
    const alone = { ...expected, ai_model_breakdown: [] };
    expect(await ofProject('app')).toEqual(alone);
    expect(await ofProject('other')).toEqual({ ...alone, ai_sessions: 0 });
    const post = async (handler: typeof renameRoute, path: string, name: string, body: unknown) => {
      const url = `http://localhost/main/api/v1/me/projects/${name}/${path}`;
      const request = new Request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return expectDocumented('POST', url, await handler(request, { params: Promise.resolve({ name }) }));
    };
    expect((await post(renameRoute, 'rename', 'other', { to: 'app' })).status).toBe(200);
    const twice = (n: number) => 2 * n;
    expect(await ofProject('app')).toEqual({
      ...alone,
      ...Object.fromEntries(['ai_additions', 'ai_deletions', 'ai_input_tokens', 'ai_output_tokens', 'ai_prompt_events_total', 'ai_prompt_length_sum'].map((k) => [k, twice(expected[k as 'ai_additions'])])),
    });
    expect((await post(splitRoute, 'split', 'app', { project: 'other' })).status).toBe(200);
    expect(await ofProject('app')).toEqual(alone);
    expect(await ofProject('other')).toEqual({ ...alone, ai_sessions: 0 });
    // The day's models were never the projects': the same whatever the merges.
    expect((await dayFigures(u.key, date)).ai_model_breakdown).toEqual(
      expected.ai_model_breakdown.map((m) => ({ name: m.name, lines: 2 * m.lines, input_tokens: 2 * m.input_tokens, output_tokens: 2 * m.output_tokens })),
    );
  });

  it('counts an imported dump carrying them, once however often it is imported, and exports them', async () => {
    const u = await wakaUser();
    const token = await tokenWithScopes(u.user.id, ['account']);
    const date = daysFromToday(-100);
    const at = Date.parse(`${date}T09:00:00Z`) / 1000;
    const { bulk, one } = beatsAt(at);
    const heartbeats = [...bulk.map((b) => ({ ...b, type: 'file', user_agent: claudeOpus })), { ...one, type: 'file' }];
    // WakaTime's dump: the heartbeats of each day; the same heartbeat twice counts once.
    const dump = JSON.stringify({ user: { id: 'u-1', username: 'me', timezone: 'UTC' }, range: { start: 0, end: 0 }, days: [{ date, heartbeats: [...heartbeats, heartbeats[0]] }] });
    for (let i = 0; i < 2; i++) {
      const url = 'http://localhost/main/api/v1/me/imports';
      const request = new Request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: dump });
      expect((await expectDocumented('POST', url, await postImport(request))).status).toBe(202);
      await importsSettled();
      expect(await dayFigures(u.key, date)).toEqual(expected);
    }
    const url = 'http://localhost/main/api/v1/me/export';
    const res = await expectDocumented('GET', url, await getExport(new Request(url, { headers: { authorization: `Bearer ${token}` } })));
    expect(res.status).toBe(200);
    const exported = await res.json();
    expect(exported.ai_models).toEqual([
      { date, model: 'gpt-5.1-codex', lines: 6, input_tokens: 300, output_tokens: 30 },
      { date, model: 'opus-4-5', lines: 14, input_tokens: 1500, output_tokens: 250 },
    ]);
    const buckets = exported.activities.filter((a: { date: string }) => a.date === date);
    const sum = (name: string) => buckets.reduce((s: number, b: Record<string, number>) => s + (b[name] ?? 0), 0);
    expect([sum('ai_input_tokens'), sum('ai_output_tokens'), sum('ai_sessions'), sum('ai_prompt_events'), sum('ai_prompt_length_sum'), sum('ai_additions')]).toEqual([1800, 280, 3, 2, 150, 16]);
  });
});
