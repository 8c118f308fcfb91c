import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { POST as postImport } from '@/app/main/api/v1/me/imports/route';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { GET as getStatusBar } from '@/app/api/wakatime/v1/users/[user]/statusbar/today/route';
import { GET as getSummaries } from '@/app/api/wakatime/v1/users/[user]/summaries/route';
import { issueToken } from '@/lib/accounts/tokens';
import { usersChanged } from '@/lib/db/changes';
import { getDb, rows, type Db } from '@/lib/db/client';
import { timeChart } from '@/lib/stats/chart-bodies';
import { ownerTarget } from '@/lib/stats/own';
import { importsSettled } from '@/lib/wakatime/importing/import-queue';
import { call, newUser, storedIde, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';
import { getChart } from '../helpers/public';
import { expectRollupsMatchActivity } from '../helpers/rollups';

// Editor names are canonical on every write path, and the data migration gives history stored
// before under other spellings the same rows, figures and answers as that history sent today.

const DAY = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const neovimAgent = 'wakatime/v1.90.0 (linux-6.8.0-x86_64) go1.22.1 neovim/0.9.5 vim-wakatime/11.1.1';
const vscodeAgent = 'wakatime/v1.98.0 (darwin-23.4.0-arm64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';

/**
 * The statements of the migration that renames stored editors, run as the migrator runs them: in
 * one transaction. A server runs it before it serves, its caches empty; this process lives on, so
 * what it cached of the users whose rows moved is forgotten as after any write of theirs.
 *
 * It ran before migration 0017 keyed ide_activity by more dimensions too; here it runs on today's
 * schema, so its ON CONFLICT names today's key (the history it renamed had no dimensions, which is
 * what its INSERT gives the rows it moves).
 */
async function runEditorMigration(db: Db, userIds: string[]): Promise<void> {
  const oldKey = 'ON CONFLICT ("user_id", "date", "hour", "language", "project", "editor") DO';
  const todaysKey = 'ON CONFLICT ("user_id", "date", "hour", "language", "project", "editor", "category", "machine", "os", "ai_agent") DO';
  const text = fs.readFileSync(path.join('drizzle', fs.readdirSync('drizzle').find((f) => f.endsWith('_canonical_editors.sql'))!), 'utf8');
  expect(text).toContain(oldKey);
  await runStatements(db, text.replace(oldKey, todaysKey), userIds);
}

/** The statements of a migration file, in one transaction, as the migrator runs them. */
async function runStatements(db: Db, text: string, userIds: string[]): Promise<void> {
  const statements = text.split('--> statement-breakpoint');
  await db.transaction(async (tx) => {
    for (const statement of statements) await tx.execute(sql.raw(statement));
  });
  await usersChanged(db, userIds);
}

async function wakaUser(settings = { profile_public: true, share_languages: true, share_editors: true }) {
  const u = await newUser({ timezone: 'UTC', settings });
  const db = await getDb();
  return {
    ...u,
    key: (await issueToken(db, u.user.id, { name: 'vim', format: 'uuid' })).token,
    account: await tokenWithScopes(u.user.id, ['account']),
  };
}

async function waka(handler: typeof postBulk, route: string, key: string, body?: unknown, userAgent = neovimAgent) {
  const url = `http://localhost/api/wakatime/v1/users/current/${route}`;
  const request = new Request(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent, authorization: `Basic ${Buffer.from(key).toString('base64')}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return expectDocumented(request.method, url, await handler(request, { params: Promise.resolve({ user: 'current' }) }));
}

async function importDump(token: string, dump: unknown) {
  const url = 'http://localhost/main/api/v1/me/imports';
  const request = new Request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(dump) });
  const res = await expectDocumented('POST', url, await postImport(request));
  expect(res.status).toBe(202);
  await importsSettled();
}

/**
 * Writes the same history for a user through every write path: sync buckets in mixed spellings
 * (one hour over the cap, shared by two editors), heartbeats of the last hour from Neovim and VS
 * Code from `t` on, and an imported dump of an old day whose heartbeats name their User-Agent by id.
 */
async function writeHistory(u: Awaited<ReturnType<typeof wakaUser>>, today: string, old: number, t: number) {
  const bucket = (ide_name: string, time: number, hour: number, language = 'Go') => ({ language, time, hour, date: today, project_name: 'api', ide_name });
  const sync = await call(postBatch, '/sync/activities', {
    token: u.token,
    body: { activities: [bucket('nvim', 1800, 1), bucket('neovim', 1500, 1), bucket('VS Code', 1200, 1, 'TypeScript'), bucket('vscode', 300, 2), bucket('NeoVim', 60, 2), bucket('sublime', 90, 3)] },
  });
  expect(sync.status).toBe(200);
  expect((await waka(postBulk, 'heartbeats.bulk', u.key, [0, 60, 120].map((s) => ({ entity: '/src/a.go', time: t + s, language: 'Go', project: 'api' })))).status).toBe(201);
  expect((await waka(postBulk, 'heartbeats.bulk', u.key, [180, 240].map((s) => ({ entity: '/src/b.ts', time: t + s, language: 'TypeScript', project: 'api' })), vscodeAgent)).status).toBe(201);
  await importDump(u.account, {
    user_agents: [{ id: 'ua-1', value: neovimAgent, editor: 'Neovim', os: 'Linux' }],
    days: [{ date: new Date(old * 1000).toISOString().slice(0, 10), heartbeats: [0, 300, 600].map((s, i) => ({ id: `h${i}`, entity: '/src/c.go', time: old + s, language: 'Go', project: 'api', type: 'file', user_agent_id: 'ua-1' })) }],
  });
}

/** What a user's history is stored as, and what every surface answers, without the user's own ids. */
async function surfaces(u: Awaited<ReturnType<typeof wakaUser>>, today: string, oldDate: string) {
  const db = await getDb();
  const id = u.user.id;
  const [user] = await rows<{ id: string; handle: string; display_name: string; timezone: string; stats_version: number }>(
    db,
    sql`SELECT id, handle, display_name AS display_name, timezone, stats_version::int AS stats_version FROM users WHERE id = ${id}`,
  );
  const dashboard = await timeChart(db, ownerTarget({ ...user, displayName: user.display_name, statsVersion: user.stats_version }), { name: 'custom', from: oldDate, to: today });
  const publicTime = await (await getChart('time', `user=${u.user.handle}&from=${oldDate}&to=${today}`)).json();
  const summaries = await (await waka(getSummaries, `summaries?start=${oldDate}&end=${today}`, u.key)).json();
  const statusBar = await (await waka(getStatusBar, 'statusbar/today', u.key)).json();
  const strip = (r: Record<string, unknown>[]) => r.map(({ user_id: _, ...rest }) => rest);
  return {
    ide: await storedIde(id),
    dayEditors: await rows(db, sql`SELECT to_char(date, 'YYYY-MM-DD') AS date, editor, millis::float8 AS millis FROM user_day_editors WHERE user_id = ${id} ORDER BY 1, 2`),
    heartbeats: strip(await rows(db, sql`SELECT at - (SELECT min(at) FROM heartbeats WHERE user_id = ${id}) AS at, type, editor, os FROM heartbeats WHERE user_id = ${id} ORDER BY at`)),
    importedEditors: await rows(db, sql`SELECT e->>4 AS editor, sum((e->>5)::numeric)::float8 AS millis FROM imported_days, jsonb_array_elements(credits->'ide') e WHERE user_id = ${id} GROUP BY 1 ORDER BY 1`),
    dashboard: { days: dashboard.days, editors: dashboard.editors, total: dashboard.total_seconds },
    publicTime: { days: publicTime.days, editors: publicTime.editors, total: publicTime.total_seconds },
    // Not the operating systems: the history the migration renamed kept none with its buckets.
    summaries: summaries.data.map((d: { editors: unknown; grand_total: unknown }) => [d.editors, d.grand_total]),
    statusBar: [statusBar.data.editors, statusBar.data.grand_total.total_seconds],
  };
}

describe('editor names', () => {
  it('are canonical however they arrive, and the migration gives history stored under other spellings the same figures everywhere', async () => {
    const db = await getDb();
    const today = new Date().toISOString().slice(0, 10);
    const old = (Math.floor(nowSeconds() / DAY) - 40) * DAY + 3600;
    const oldDate = new Date(old * 1000).toISOString().slice(0, 10);
    // Half an hour ago, but today (UTC) even just after midnight: the heartbeats at most 4 minutes ahead.
    const recent = Math.max(nowSeconds() - 1800, Math.floor(nowSeconds() / DAY) * DAY + 1);
    // Sent today, in canonical names by the write paths.
    const fresh = await wakaUser();
    await writeHistory(fresh, today, old, recent);
    const expected = await surfaces(fresh, today, oldDate);
    expect(expected.dashboard.editors.map((e: { name: string }) => e.name).sort()).toEqual(['Neovim', 'Sublime Text', 'VS Code']);
    expect(new Set(expected.ide.map((r) => r.editor))).toEqual(new Set(['Neovim', 'VS Code', 'Sublime Text']));
    expect(expected.importedEditors).toEqual([{ editor: 'Neovim', millis: 600_000 }]);
    const systems = (await (await waka(getStatusBar, 'statusbar/today', fresh.key)).json()).data.operating_systems;
    expect(systems.map((o: { name: string }) => o.name).sort()).toEqual(['Linux', 'Mac']);

    // The same history as the code before stored it: spellings as sent, buckets split between
    // spellings of one editor, the rollups maintained over those names.
    const legacy = await wakaUser();
    await writeHistory(legacy, today, old, recent);
    const id = legacy.user.id;
    await db.transaction(async (tx) => {
      // That code kept no system (nor machine, agent, other category) with buckets and credits.
      // Rows that differed only by system then were one (the heartbeats' hour may be one of the sync buckets').
      await tx.execute(sql`WITH gone AS (DELETE FROM ide_activity WHERE user_id = ${id} RETURNING *)
        INSERT INTO ide_activity (user_id, date, hour, language, project, editor, category, ai_agent, millis, lines, ai_additions, ai_deletions, human_additions, human_deletions)
        SELECT user_id, date, hour, language, project, editor, category, ai_agent, sum(millis), sum(lines), sum(ai_additions), sum(ai_deletions), sum(human_additions), sum(human_deletions)
        FROM gone GROUP BY user_id, date, hour, language, project, editor, category, ai_agent`);
      await tx.execute(sql`UPDATE imported_days SET credits = jsonb_set(credits, '{ide}', (
          SELECT coalesce(jsonb_agg(jsonb_build_array(e->0, e->1, e->2, e->3, e->4, e->5) ORDER BY i), '[]'::jsonb)
          FROM jsonb_array_elements(credits->'ide') WITH ORDINALITY AS c(e, i))) WHERE user_id = ${id}`);
      // Each Neovim bucket in three: under nvim, neovim and Neovim (moved rows meet each other and a row already named right).
      for (const spelling of ['nvim', 'neovim']) {
        await tx.execute(sql`INSERT INTO ide_activity (user_id, date, hour, language, project, editor, millis, lines)
          SELECT user_id, date, hour, language, project, ${spelling}, millis / 3, lines / 3 FROM ide_activity WHERE user_id = ${id} AND editor = 'Neovim'`);
      }
      await tx.execute(sql`UPDATE ide_activity SET millis = millis - 2 * (millis / 3), lines = lines - 2 * (lines / 3) WHERE user_id = ${id} AND editor = 'Neovim'`);
      await tx.execute(sql`UPDATE ide_activity SET editor = 'vscode' WHERE user_id = ${id} AND editor = 'VS Code'`);
      await tx.execute(sql`UPDATE ide_activity SET editor = 'sublime' WHERE user_id = ${id} AND editor = 'Sublime Text'`);
      await tx.execute(sql`DELETE FROM user_day_editors WHERE user_id = ${id}`);
      await tx.execute(sql`INSERT INTO user_day_editors (user_id, date, editor, millis) SELECT user_id, date, editor, sum(millis) FROM ide_activity WHERE user_id = ${id} GROUP BY 1, 2, 3`);
      await tx.execute(sql`UPDATE heartbeats SET editor = CASE editor WHEN 'Neovim' THEN 'nvim' ELSE 'vscode' END WHERE user_id = ${id}`);
      await tx.execute(sql`UPDATE imported_days SET credits = replace(credits::text, '"Neovim"', '"neovim"')::jsonb WHERE user_id = ${id}`);
    });
    await expectRollupsMatchActivity(id);
    const before = await surfaces(legacy, today, oldDate);
    expect(before.dashboard.editors).not.toEqual(expected.dashboard.editors);
    const [{ version: versionBefore }] = await rows<{ version: number }>(db, sql`SELECT stats_version::int AS version FROM users WHERE id = ${id}`);

    await runEditorMigration(db, [id]);
    const after = await surfaces(legacy, today, oldDate);
    expect(after).toEqual(expected);
    await expectRollupsMatchActivity(id);
    const [{ version }] = await rows<{ version: number }>(db, sql`SELECT stats_version::int AS version FROM users WHERE id = ${id}`);
    expect(version).toBeGreaterThan(versionBefore);

    // It changes nothing when run again, and what comes later counts alike for both: a late
    // heartbeat (recomputing credits under the stored editor) and the same dump imported again.
    await runEditorMigration(db, [id]);
    expect(await surfaces(legacy, today, oldDate)).toEqual(expected);
    const late = recent + 100;
    for (const u of [fresh, legacy]) {
      expect((await waka(postBulk, 'heartbeats.bulk', u.key, [{ entity: '/src/d.go', time: late, language: 'Go', project: 'api' }], 'wakatime/v1 (linux-6) go1 nvim/0.10 vim-wakatime/11')).status).toBe(201);
      await importDump(u.account, {
        user_agents: [{ id: 'ua-1', value: neovimAgent }],
        days: [{ date: oldDate, heartbeats: [0, 300, 600, 900].map((s, i) => ({ id: `h${i}`, entity: '/src/c.go', time: old + s, language: 'Go', project: 'api', type: 'file', user_agent_id: 'ua-1' })) }],
      });
      await expectRollupsMatchActivity(u.user.id);
    }
    expect(await surfaces(legacy, today, oldDate)).toEqual(await surfaces(fresh, today, oldDate));
  });

  it("names an AI agent's and a browser's plugin, and migration 0019 renames what was stored under the plugin's own spelling, every dimension kept", async () => {
    const db = await getDb();
    const today = new Date().toISOString().slice(0, 10);
    const old = (Math.floor(nowSeconds() / DAY) - 40) * DAY + 3600;
    const oldDate = new Date(old * 1000).toISOString().slice(0, 10);
    const recent = Math.max(nowSeconds() - 1800, Math.floor(nowSeconds() / DAY) * DAY + 1);
    const claude = 'wakatime/v1.115.0 (linux-6.8.0-x86_64) go1.24.4 claude-code-wakatime/1.2.0';
    const chrome = 'Chrome/126.0.0.0 linux_x86_64 chrome-wakatime/4.0.9';
    const write = async (u: Awaited<ReturnType<typeof wakaUser>>) => {
      const sync = await call(postBatch, '/sync/activities', { token: u.token, body: { activities: [{ language: 'Go', time: 600, hour: 1, date: today, project_name: 'api', ide_name: 'claude-code', category: 'ai coding' }] } });
      expect(sync.status).toBe(200);
      const beats = [0, 60, 120].map((s) => ({ entity: '/src/a.go', time: recent + s, language: 'Go', project: 'api', category: 'ai coding', ai_line_changes: 12 }));
      expect((await waka(postBulk, 'heartbeats.bulk', u.key, beats, claude)).status).toBe(201);
      expect((await waka(postBulk, 'heartbeats.bulk', u.key, [180, 240].map((s) => ({ entity: 'https://docs.example.org', type: 'url', time: recent + s, category: 'browsing', project: 'api' })), chrome)).status).toBe(201);
      await importDump(u.account, {
        user_agents: [{ id: 'ua-1', value: claude }],
        days: [{ date: oldDate, heartbeats: [0, 300, 600].map((s, i) => ({ id: `h${i}`, entity: '/src/c.go', time: old + s, language: 'Go', project: 'api', type: 'file', category: 'ai coding', user_agent_id: 'ua-1' })) }],
      });
    };
    const stored = async (id: string) => ({
      credits: await rows(db, sql`SELECT day, credits FROM imported_days WHERE user_id = ${id} ORDER BY day`),
      agents: await rows(db, sql`SELECT value, editor, os FROM user_agents WHERE user_id = ${id} ORDER BY value`),
      dimensions: (await rows(db, sql`SELECT to_char(date, 'YYYY-MM-DD') AS date, hour, editor, category, ai_agent, millis::float8 AS millis, ai_additions::float8 AS ai FROM ide_activity WHERE user_id = ${id} ORDER BY 1, 2, 3, 4`)),
    });
    const fresh = await wakaUser();
    await write(fresh);
    const expected = { ...(await surfaces(fresh, today, oldDate)), ...(await stored(fresh.user.id)) };
    expect(new Set(expected.ide.map((r) => r.editor))).toEqual(new Set(['Claude Code', 'Chrome']));
    expect(expected.agents).toMatchObject([{ editor: 'Chrome' }, { editor: 'Claude Code' }]);
    expect(JSON.stringify(expected.credits)).toContain('"ai coding"');

    // The same history as the code before stored it: the AI agent's plugin under its own spelling.
    const legacy = await wakaUser();
    await write(legacy);
    const id = legacy.user.id;
    await db.transaction(async (tx) => {
      for (const table of ['ide_activity', 'user_day_editors', 'heartbeats', 'user_agents']) {
        await tx.execute(sql`UPDATE ${sql.identifier(table)} SET editor = 'claude-code' WHERE user_id = ${id} AND editor = 'Claude Code'`);
      }
      await tx.execute(sql`UPDATE imported_days SET credits = replace(credits::text, '"Claude Code"', '"claude-code"')::jsonb WHERE user_id = ${id}`);
    });
    await expectRollupsMatchActivity(id);
    expect((await surfaces(legacy, today, oldDate)).dashboard.editors).not.toEqual(expected.dashboard.editors);
    const migration = fs.readFileSync(path.join('drizzle', fs.readdirSync('drizzle').find((f) => f.endsWith('_agent_editor_names.sql'))!), 'utf8');
    await runStatements(db, migration, [id]);
    expect({ ...(await surfaces(legacy, today, oldDate)), ...(await stored(id)) }).toEqual(expected);
    await expectRollupsMatchActivity(id);
    // Again: nothing changes.
    await runStatements(db, migration, [id]);
    expect({ ...(await surfaces(legacy, today, oldDate)), ...(await stored(id)) }).toEqual(expected);
  });

  it('replays a retried sync batch from its first answer, whatever names were stored in between', async () => {
    const u = await wakaUser();
    const body = { activities: [{ language: 'Go', time: 600, hour: 4, date: new Date().toISOString().slice(0, 10), ide_name: 'nvim' }, { language: 'Go', time: 60, hour: 4, ide_name: 'neovim', date: new Date().toISOString().slice(0, 10) }] };
    const headers = { 'idempotency-key': 'retry-editor-1' };
    const first = await call(postBatch, '/sync/activities', { token: u.token, body, headers });
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    // Both spellings became one bucket.
    expect(JSON.parse(firstBody)).toMatchObject({ accepted: 2, grouped: 1 });
    await runEditorMigration(await getDb(), [u.user.id]);
    const retry = await call(postBatch, '/sync/activities', { token: u.token, body, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(firstBody);
    expect((await storedIde(u.user.id)).map((r) => [r.editor, r.millis])).toEqual([['Neovim', 660_000]]);
  });

  it("keeps an imported dump's editors, from its User-Agent list before or after the days, or from older dumps' own fields", async () => {
    const old = (Math.floor(nowSeconds() / DAY) - 30) * DAY + 7200;
    const date = new Date(old * 1000).toISOString().slice(0, 10);
    const beats = (extra: (i: number) => Record<string, unknown>) =>
      [0, 120, 240].map((s, i) => ({ id: `h${i}`, entity: `/src/${i}.go`, time: old + s, language: 'Go', project: 'api', type: 'file', ...extra(i) }));
    const agents = [
      { id: 'ua-vim', value: 'wakatime/13.1.0 (linux-5.15.0) python3.11 vim/9.0 vim-wakatime/9.0.1', editor: 'Vim', os: 'Linux' },
      { id: 'ua-nvim', value: neovimAgent, editor: 'Vim', os: 'Linux' },
      { id: 'ua-xcode', value: '', editor: 'xcode', os: 'Mac' },
    ];
    const byId = (i: number) => ({ user_agent_id: agents[i].id });
    const cases: [string, unknown, string[]][] = [
      ['the list before the days', { user_agents: agents, days: [{ date, heartbeats: beats(byId) }] }, ['Neovim', 'Vim']],
      ['the list after the days', { user: {}, days: [{ date, heartbeats: beats(byId) }], user_agents: agents }, ['Neovim', 'Vim']],
      ["the heartbeats' own fields", { days: [{ date, heartbeats: beats((i) => ({ editor: ['nvim', 'sublime', 'emacs'][i], operating_system: 'Linux' })) }] }, ['Neovim', 'Sublime Text']],
      ['no list: the editor is unknown', { days: [{ date, heartbeats: beats(byId) }] }, ['']],
    ];
    for (const [what, dump, editors] of cases) {
      const u = await wakaUser();
      await importDump(u.account, dump);
      // Three heartbeats two minutes apart: two gaps, credited to the earlier heartbeat's editor.
      const stored = await storedIde(u.user.id);
      expect([what, [...new Set(stored.map((r) => r.editor))].sort()]).toEqual([what, editors]);
      expect([what, stored.reduce((sum, r) => sum + r.millis, 0)]).toEqual([what, 240_000]);
    }
  });

  it('an editor no plugin named is "Unknown" to its owner and counted in "Other" on the public chart, with an editor named Other', async () => {
    const u = await wakaUser();
    const today = new Date().toISOString().slice(0, 10);
    const bucket = (ide_name: string | undefined, time: number, hour: number) => ({ language: 'Go', time, hour, date: today, project_name: 'api', ...(ide_name ? { ide_name } : {}) });
    const sync = await call(postBatch, '/sync/activities', { token: u.token, body: { activities: [bucket(undefined, 1200, 1), bucket('Other', 300, 2), bucket('nvim', 600, 3)] } });
    expect(sync.status).toBe(200);
    const db = await getDb();
    const [user] = await rows<{ display_name: string; stats_version: number }>(db, sql`SELECT display_name, stats_version::int AS stats_version FROM users WHERE id = ${u.user.id}`);
    const own = await timeChart(db, ownerTarget({ id: u.user.id, handle: u.user.handle, displayName: user.display_name, timezone: 'UTC', statsVersion: user.stats_version }), { name: 'today' });
    expect(own.editors.map((e) => [e.name, e.seconds])).toEqual([['Unknown', 1200], ['Neovim', 600], ['Other', 300]]);
    const shown = await (await getChart('time', `user=${u.user.handle}&range=today`)).json();
    expect(shown.editors.map((e: { name: string; seconds: number }) => [e.name, e.seconds])).toEqual([['Other', 1500], ['Neovim', 600]]);
    expect(JSON.stringify(shown)).not.toContain('Unknown');
  });
});
