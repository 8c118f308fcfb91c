import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { issueToken } from '@/lib/accounts/tokens';
import { sql } from 'drizzle-orm';
import { getDb, rows } from '@/lib/db/client';
import { renameProject } from '@/lib/projects/rename';
import { ownBreakdowns } from '@/lib/stats/breakdowns';
import { call, daysFromToday, newUser, storedDimensions, tokenWithScopes } from '../helpers/api';

// Category, machine, operating system, AI agent and AI and human line changes, kept per bucket-hour
// over all history: from heartbeats (the User-Agent's agent, X-Machine-Name or hostname,
// ai_line_changes and human_line_changes) and from the sync route's buckets; however heartbeats
// are batched, repeated or renamed, the time per category and machine and the line totals are the
// stream's in order.

const claude = 'Claude/2.1.5 wakatime/v2.1.0 (linux-6.8.0) go1.24.4 vscode/1.100.0 vscode-wakatime/25.3.0';
const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;

async function wakaUser(timezone = 'UTC') {
  const u = await newUser({ timezone });
  const { token } = await issueToken(await getDb(), u.user.id, { name: 'cli', format: 'uuid' });
  return { ...u, key: token };
}

async function bulk(key: string, beats: unknown[], headers: Record<string, string> = {}) {
  const request = new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': claude, authorization: basic(key), ...headers },
    body: JSON.stringify(beats),
  });
  const res = await postBulk(request, { params: Promise.resolve({ user: 'current' }) });
  expect(res.status).toBe(201);
  return res.json();
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const startOfHour = (seconds: number) => Math.floor(seconds / 3600) * 3600;

describe('dimensions of heartbeats', () => {
  it("keep the agent, machine, system and category of an AI agent's heartbeats, and their line changes once, in their own hour", async () => {
    const u = await wakaUser();
    // A minute into an hour three hours ago: the heartbeats and their credits in that one hour, whenever the test runs.
    const t = startOfHour(nowSeconds() - 3 * 3600) + 60;
    const beats = [
      { entity: 'a.ts', time: t, language: 'TypeScript', project: 'app', category: 'ai coding', ai_line_changes: 30, human_line_changes: -2 },
      { entity: 'b.ts', time: t + 60, language: 'TypeScript', project: 'app', category: 'ai coding', ai_line_changes: -5 },
      { entity: 'b.ts', time: t + 60, language: 'TypeScript', project: 'app', category: 'ai coding', ai_line_changes: -5 },
    ];
    await bulk(u.key, beats, { 'x-machine-name': 'work-laptop' });
    await bulk(u.key, beats.slice(0, 2), { 'x-machine-name': 'work-laptop' }); // sent again: counted once
    const stored = await storedDimensions(u.user.id);
    expect(stored.map(({ category, machine, os, agent }) => ({ category, machine, os, agent }))).toEqual([{ category: 'ai coding', machine: 'work-laptop', os: 'Linux', agent: 'Claude' }]);
    const sum = (k: 'millis' | 'aiAdditions' | 'aiDeletions' | 'humanAdditions' | 'humanDeletions') => stored.reduce((s, r) => s + Number(r[k]), 0);
    expect([sum('millis'), sum('aiAdditions'), sum('aiDeletions'), sum('humanAdditions'), sum('humanDeletions')]).toEqual([60_000, 30, 5, 0, 2]);
  });

  it("count a heartbeat stored before migration 0020 (no machine as '', no lines as 0) as one stored now (NULL)", async () => {
    const [before, now] = [await wakaUser(), await wakaUser()];
    const t = startOfHour(nowSeconds() - 3 * 3600) + 60;
    const vim = { 'user-agent': 'wakatime/13.1.0 (linux-5.15.0) python3.11 vim/9.0 vim-wakatime/9.0.1' };
    for (const u of [before, now]) await bulk(u.key, [{ entity: 'a.go', time: t, language: 'Go', project: 'app' }], vim);
    const db = await getDb();
    // As migration 0017's defaults stored it: '' and 0, where a heartbeat stored now holds NULL.
    await db.execute(sql`UPDATE heartbeats SET machine = '', ai_agent = '', ai_lines = 0, human_lines = 0, purge_after = 0 WHERE user_id = ${before.user.id}`);
    const [{ nulls }] = await rows<{ nulls: number }>(db, sql`SELECT count(*)::int AS nulls FROM heartbeats WHERE user_id = ${now.user.id} AND machine IS NULL AND ai_agent IS NULL AND ai_lines IS NULL AND purge_after IS NULL`);
    expect(nulls).toBe(1);
    // The next heartbeat extends the stored one's credit: subtracted and added under the same bucket, whichever way it was stored.
    for (const u of [before, now]) await bulk(u.key, [{ entity: 'a.go', time: t + 120, language: 'Go', project: 'app' }], vim);
    const strip = (rows: Awaited<ReturnType<typeof storedDimensions>>) => rows.map(({ millis, machine, agent }) => ({ millis, machine, agent }));
    expect(strip(await storedDimensions(before.user.id))).toEqual([{ millis: 120_000, machine: '', agent: '' }]);
    expect(strip(await storedDimensions(now.user.id))).toEqual(strip(await storedDimensions(before.user.id)));
  });

  it("take the machine from a heartbeat's hostname without X-Machine-Name, and leave out a name that is not a plain one", async () => {
    const u = await wakaUser();
    const t = startOfHour(nowSeconds() - 7200) + 60;
    await bulk(u.key, [
      { entity: 'a.go', time: t, language: 'Go', hostname: 'desk' },
      { entity: 'a.go', time: t + 60, language: 'Go', hostname: 'bad\u0000name' },
      { entity: 'a.go', time: t + 120, language: 'Go' },
    ]);
    expect((await storedDimensions(u.user.id)).map((r) => [r.machine, r.millis])).toEqual([
      ['', 60_000],
      ['desk', 60_000],
    ]);
  });

  // The property: random heartbeats of random categories, machines and line changes, sent in
  // order, or shuffled in random batches with repeats and a rename in between, end at the same
  // time per (project, category, machine) and the same line totals as the stream in order.
  it('give the same time per category and machine, and the same line totals, however batched, repeated or renamed', async () => {
    const start = nowSeconds() - 4 * 86_400;
    const beat = fc.record({
      entity: fc.constantFrom('a.go', 'b.go', 'c.rs'),
      time: fc.integer({ min: 0, max: 4 * 3600 }).map((s) => start + s),
      language: fc.constantFrom('Go', 'Rust'),
      project: fc.constantFrom('api', 'web'),
      category: fc.constantFrom('coding', 'ai coding', 'debugging'),
      hostname: fc.constantFrom('desk', 'laptop'),
      ai_line_changes: fc.integer({ min: -50, max: 50 }),
      human_line_changes: fc.integer({ min: -20, max: 20 }),
    });
    const totals = async (userId: string) => {
      const byKey = new Map<string, number>();
      const lines = { ai: 0, aiDel: 0, human: 0, humanDel: 0 };
      for (const r of await storedDimensions(userId)) {
        const key = JSON.stringify([r.project, r.category, r.machine]);
        byKey.set(key, (byKey.get(key) ?? 0) + Number(r.millis));
        lines.ai += Number(r.aiAdditions);
        lines.aiDel += Number(r.aiDeletions);
        lines.human += Number(r.humanAdditions);
        lines.humanDel += Number(r.humanDeletions);
      }
      return { time: new Map([...byKey].filter(([, v]) => v !== 0)), lines };
    };
    await fc.assert(
      fc.asyncProperty(fc.array(beat, { minLength: 1, maxLength: 30 }), fc.infiniteStream(fc.nat()), async (stream, random) => {
        // A repeat (same time and entity) is the first one sent again.
        const first = new Map<string, (typeof stream)[number]>();
        const beats = stream.map((b) => first.get(`${b.time}/${b.entity}`) ?? (first.set(`${b.time}/${b.entity}`, b), b));
        const unique = [...first.values()].sort((a, b) => a.time - b.time);
        const inOrder = await wakaUser();
        await bulk(inOrder.key, unique);
        // Shuffled, some twice, in random batches; `web` renamed to `site` halfway, and the
        // in-order user's `web` too, so both name the same project.
        const shuffled = await wakaUser();
        const it = random[Symbol.iterator]();
        const next = () => it.next().value as number;
        const sent = [...beats, ...beats.filter(() => next() % 3 === 0)];
        for (let i = sent.length - 1; i > 0; i--) {
          const j = next() % (i + 1);
          [sent[i], sent[j]] = [sent[j], sent[i]];
        }
        let renamed = false;
        while (sent.length > 0) {
          await bulk(shuffled.key, sent.splice(0, 1 + (next() % 6)));
          // A rename before any time of `web` arrived is refused (no such project): it is tried again at the end.
          if (!renamed && sent.length < beats.length / 2) {
            renamed = await renameProject(await getDb(), shuffled.user.id, 'web', 'site').then(() => true, () => false);
          }
        }
        if (!renamed) await renameProject(await getDb(), shuffled.user.id, 'web', 'site').catch(() => undefined);
        await renameProject(await getDb(), inOrder.user.id, 'web', 'site').catch(() => undefined);
        const [a, b] = [await totals(inOrder.user.id), await totals(shuffled.user.id)];
        expect(b).toEqual(a);
        const expectedLines = unique.reduce(
          (s, h) => ({ ai: s.ai + Math.max(h.ai_line_changes, 0), aiDel: s.aiDel + Math.max(-h.ai_line_changes, 0), human: s.human + Math.max(h.human_line_changes, 0), humanDel: s.humanDel + Math.max(-h.human_line_changes, 0) }),
          { ai: 0, aiDel: 0, human: 0, humanDel: 0 },
        );
        expect(a.lines).toEqual(expectedLines);
      }),
      { numRuns: 15, endOnFailure: true },
    );
  }, 120_000);
});

describe('dimensions of sync buckets', () => {
  it('are kept per key and summed; the breakdowns read them back, an hour over the cap scaled down', async () => {
    const u = await newUser({ timezone: 'UTC' });
    const token = await tokenWithScopes(u.user.id, ['sync']);
    const date = daysFromToday(-1);
    const res = await call(postBatch, '/sync/activities', {
      token,
      body: {
        activities: [
          { language: 'Go', time: 1800, date, hour: 9, project_name: 'api', category: 'ai coding', machine: 'desk', ai_agent: 'Claude', ai_lines: 40, human_lines: 5 },
          { language: 'Go', time: 1800, date, hour: 9, project_name: 'api', machine: 'desk', human_lines: -3 },
          // An hour over the cap: 2 x 3600 s in hour 10, counted as 3600.
          { language: 'Go', time: 3600, date, hour: 10, project_name: 'api', category: 'debugging', machine: 'laptop' },
          { language: 'Rust', time: 3600, date, hour: 10, project_name: 'web', machine: 'laptop' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const found = await ownBreakdowns(await getDb(), u.user, { name: '7d' }, 'category');
    expect(found.total_seconds).toBe(7200);
    expect(found.categories).toEqual([
      { name: 'Coding', seconds: 3600 },
      { name: 'AI Coding', seconds: 1800 },
      { name: 'Debugging', seconds: 1800 },
    ]);
    expect(found.machines).toEqual([
      { name: 'desk', seconds: 3600 },
      { name: 'laptop', seconds: 3600 },
    ]);
    expect(found.ai).toMatchObject({ seconds: 1800, human_seconds: 5400, agents: [{ name: 'Claude Code', seconds: 1800 }], projects: [{ name: 'api', ai_seconds: 1800, seconds: 5400 }] });
    expect(found.ai.lines).toEqual({ ai_additions: 40, ai_deletions: 0, human_additions: 5, human_deletions: 3 });
    const day = found.daily.find((d) => d.date === date)!;
    expect(day.seconds).toBe(7200);
    expect(Object.fromEntries(day.parts.map((p) => [p.name, p.seconds]))).toEqual({ Coding: 3600, 'AI Coding': 1800, Debugging: 1800 });
    // One machine's time only.
    expect((await ownBreakdowns(await getDb(), u.user, { name: '7d' }, 'project', { machine: 'desk' })).total_seconds).toBe(3600);
    // An unknown category is refused, naming the field.
    const bad = await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'Go', time: 10, category: 'typing' }] } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors[0]).toMatchObject({ index: 0, path: 'category' });
  });
});
