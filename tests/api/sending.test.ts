import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { GET as getTokens } from '@/app/main/api/v1/me/tokens/route';
import { issueToken, keysShownAgain, listTokens, revokeAllTokens, revokeToken, showKeyAgain } from '@/lib/accounts/tokens';
import { getDb, rows } from '@/lib/db/client';
import { QUIET_MS, sendersOf } from '@/lib/wakatime/sending/status';
import { newUser, tokenWithScopes } from '../helpers/api';

// "Is my editor sending?" (Settings, Sending) from what is stored: each editor, agent and machine
// with its version, system and last heartbeat, named as the dashboard names them, quiet ones
// marked; and an editor key shown again to its owner only, never any other token.

const nowSeconds = () => Math.floor(Date.now() / 1000);
const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;

async function send(key: string, userAgent: string, machine: string, at: number) {
  const beats = [0, 60].map((d) => ({ entity: `/src/${machine}.go`, type: 'file', time: at + d, language: 'Go', project: 'api' }));
  const request = new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic(key), 'user-agent': userAgent, 'x-machine-name': machine },
    body: JSON.stringify(beats),
  });
  const res = await postBulk(request, { params: Promise.resolve({ user: 'current' }) });
  expect(res.status).toBe(201);
}

describe('Settings, Sending', () => {
  it('lists each editor, agent and machine with its version, system and last heartbeat, the quiet ones marked', async () => {
    const u = await newUser({ timezone: 'UTC' });
    const db = await getDb();
    const { token: key } = await issueToken(db, u.user.id, { name: 'editors', format: 'uuid' });
    const now = nowSeconds();
    await send(key, 'wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0', 'desk', now - 600);
    await send(key, 'Claude/2.1.5 wakatime/v2.1.0 (darwin-24.0-arm64) go1.24.4 vscode/1.100.0 vscode-wakatime/25.3.0', 'laptop', now - 3 * 3600);
    // A bare agent word, no wakatime plugin: Claude Code, as its own plugin is named.
    await send(key, 'Claude/2.1.5', 'laptop', now - 2 * 86_400);
    await send(key, 'wakatime/v1.90.0 (linux-6.8.0-x86_64) go1.22.1 neovim/0.9.5 vim-wakatime/11.1.1', 'desk', now - 3 * 86_400);

    const found = await sendersOf(db, u.user.id);
    expect(found.senders.map((s) => [s.name, s.version, s.os, s.machine, s.quiet])).toEqual([
      ['VS Code', '24.5.0', 'Linux', 'desk', false],
      ['Claude Code (AI agent) in VS Code', '25.3.0', 'Mac', 'laptop', false],
      ['Claude Code (AI agent)', null, '', 'laptop', true],
      ['Neovim', '11.1.1', 'Linux', 'desk', true],
    ]);
    // The last heartbeat to the second.
    expect(found.senders[0].last).toBe(new Date((now - 600 + 60) * 1000).toISOString());
    // Machines by their last heartbeat (the laptop's last was three hours ago, though its buckets were written now).
    expect(found.machines.map((m) => [m.name, m.last, m.quiet])).toEqual([
      ['desk', found.senders[0].last, false],
      ['laptop', found.senders[1].last, false],
    ]);

    // A day on, every one is quiet.
    const later = await sendersOf(db, u.user.id, Date.now() + QUIET_MS + 60_000);
    expect(later.senders.every((s) => s.quiet)).toBe(true);

    // Once the heartbeats are gone (kept 14 days), the User-Agents still name what sent, without a machine.
    await db.execute(sql`DELETE FROM heartbeats WHERE user_id = ${u.user.id}::uuid`);
    const old = await sendersOf(db, u.user.id);
    expect(old.senders.map((s) => [s.name, s.version, s.machine])).toEqual(
      expect.arrayContaining([
        ['VS Code', '24.5.0', ''],
        ['Neovim', '11.1.1', ''],
      ]),
    );
    // Another user sees none of it.
    expect((await sendersOf(db, (await newUser()).user.id)).senders).toEqual([]);
  });
});

describe('an editor key shown again', () => {
  it('shows a live editor key to its owner only, and no token with other scopes, nor a revoked one', async () => {
    const db = await getDb();
    const u = await newUser();
    const stranger = await newUser();
    const editor = await issueToken(db, u.user.id, { name: 'WakaTime plugins', format: 'uuid' });
    expect(editor.info.scopes).toEqual(['sync', 'stats']);
    expect(await showKeyAgain(db, u.user.id, editor.info.id)).toEqual({ token: editor.token, name: 'WakaTime plugins' });
    // Not to anyone else, not by a prefix, not for an id that is no UUID.
    expect(await showKeyAgain(db, stranger.user.id, editor.info.id)).toBeNull();
    expect(await showKeyAgain(db, u.user.id, editor.info.prefix)).toBeNull();
    expect(await showKeyAgain(db, u.user.id, "x' OR 1=1 --")).toBeNull();

    // Tokens that can do more, or are not editor keys, are never kept: shown once.
    const account = await issueToken(db, u.user.id, { name: 'acct', format: 'uuid', scopes: ['sync', 'account'] });
    const badges = await issueToken(db, u.user.id, { name: 'badges', format: 'uuid', scopes: ['sync', 'badges'] });
    const client = await issueToken(db, u.user.id, { name: 'client', scopes: ['sync'] });
    for (const t of [account, badges, client]) expect(await showKeyAgain(db, u.user.id, t.info.id)).toBeNull();
    expect([...(await keysShownAgain(db, u.user.id))]).toEqual([editor.info.id]);

    // Stored sealed: no column holds the key, and the API's token list says nothing of it.
    const [row] = await rows<Record<string, unknown>>(db, sql`SELECT * FROM api_tokens WHERE id = ${editor.info.id}::uuid`);
    expect(JSON.stringify(row)).not.toContain(editor.token);
    expect(String(row.sealed)).toMatch(/^v1\./);
    const listed = await getTokens(new Request('http://localhost/main/api/v1/me/tokens', { headers: { authorization: `Bearer ${await tokenWithScopes(u.user.id, ['account'])}` } }));
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).not.toContain(editor.token);
    expect(text).not.toContain(String(row.sealed));
    expect((await listTokens(db, u.user.id)).every((t) => !('sealed' in t))).toBe(true);

    // Revoked: not shown again, and the sealed copy is gone.
    expect(await revokeToken(db, u.user.id, editor.info.id)).toBe(true);
    expect(await showKeyAgain(db, u.user.id, editor.info.id)).toBeNull();
    const [gone] = await rows<{ sealed: string | null }>(db, sql`SELECT sealed FROM api_tokens WHERE id = ${editor.info.id}::uuid`);
    expect(gone.sealed).toBeNull();
    const another = await issueToken(db, u.user.id, { name: 'second', format: 'uuid' });
    await revokeAllTokens(db, u.user.id);
    expect(await showKeyAgain(db, u.user.id, another.info.id)).toBeNull();
    expect((await keysShownAgain(db, u.user.id)).size).toBe(0);
  });
});
