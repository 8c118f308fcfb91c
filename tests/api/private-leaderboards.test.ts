import { describe, expect, it } from 'vitest';
import { GET as wakaBoardRoute } from '@/app/api/wakatime/v1/users/[user]/leaderboards/[id]/route';
import { GET as wakaBoardsRoute } from '@/app/api/wakatime/v1/users/[user]/leaderboards/route';
import { GET as publicBoard } from '@/app/main/api/v1/leaderboard/api/get/public/route';
import { DELETE as deleteRoute, GET as boardRoute } from '@/app/main/api/v1/leaderboards/[id]/route';
import { POST as rotateRoute } from '@/app/main/api/v1/leaderboards/[id]/invite_code/route';
import { DELETE as leaveRoute } from '@/app/main/api/v1/leaderboards/[id]/members/me/route';
import { POST as joinRoute } from '@/app/main/api/v1/leaderboards/join/route';
import { GET as listRoute, POST as createRoute } from '@/app/main/api/v1/leaderboards/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { deleteAccount, updateAccount } from '@/lib/accounts/me';
import { issueToken } from '@/lib/accounts/tokens';
import { getDb } from '@/lib/db/client';
import { boardEntries } from '@/lib/leaderboards/entries';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';

// Private leaderboards: made, joined by code, read by members only, left at once; ranked by the
// public leaderboard's rules; WakaTime's shapes.

const today = daysFromToday(0);
type Entry = { rank: number; handle: string; display_name: string; seconds: number };

/** A user with an `account` token, a `stats` key (uuid format) and the given UTC buckets of today. */
async function member(activity: [string, number][] = [], settings: Record<string, boolean> = { profile_public: true, share_languages: true }) {
  const u = await newUser({ settings });
  const db = await getDb();
  const account = await tokenWithScopes(u.user.id, ['account']);
  const { token: key } = await issueToken(db, u.user.id, { name: 'cli', format: 'uuid' });
  let hour = 0;
  const activities = activity.flatMap(([language, time, date = today]: [string, number, string?]) =>
    Array.from({ length: Math.ceil(time / 3000) }, (_, i) => ({ language, time: Math.min(3000, time - i * 3000), hour: hour++, date })),
  );
  if (activities.length) expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
  return { ...u, account, key, handle: u.user.handle };
}

const url = (path: string) => `http://localhost/main/api/v1${path}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function create(token: string, body: unknown) {
  return call(createRoute, '/leaderboards', { token, body });
}
async function made(token: string, name = 'Friday coders') {
  const res = await create(token, { name });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; name: string; invite_code: string };
}
const join = (token: string, code: unknown) => call(joinRoute, '/leaderboards/join', { token, body: { code } });

async function read(token: string, id: string, query = '') {
  const u = url(`/leaderboards/${id}${query ? `?${query}` : ''}`);
  return expectDocumented('GET', u, await boardRoute(new Request(u, { headers: bearer(token) }), { params: Promise.resolve({ id }) }));
}
async function ranking(token: string, id: string, query = ''): Promise<Entry[]> {
  const res = await read(token, id, query);
  expect(res.status).toBe(200);
  return (await res.json()).entries;
}
async function list(token: string) {
  const u = url('/leaderboards');
  const res = await expectDocumented('GET', u, await listRoute(new Request(u, { headers: bearer(token) })));
  expect(res.status).toBe(200);
  return (await res.json()).leaderboards as { id: string; role: string; members_count: number; invite_code: string | null }[];
}
async function leave(token: string, id: string) {
  const u = url(`/leaderboards/${id}/members/me`);
  return expectDocumented('DELETE', u, await leaveRoute(new Request(u, { method: 'DELETE', headers: bearer(token) }), { params: Promise.resolve({ id }) }));
}
async function rotate(token: string, id: string) {
  const u = url(`/leaderboards/${id}/invite_code`);
  return expectDocumented('POST', u, await rotateRoute(new Request(u, { method: 'POST', headers: bearer(token) }), { params: Promise.resolve({ id }) }));
}
async function drop(token: string, id: string) {
  const u = url(`/leaderboards/${id}`);
  return expectDocumented('DELETE', u, await deleteRoute(new Request(u, { method: 'DELETE', headers: bearer(token) }), { params: Promise.resolve({ id }) }));
}
async function waka(key: string, id?: string, query = '') {
  const u = `http://localhost/api/wakatime/v1/users/current/leaderboards${id ? `/${id}` : ''}${query ? `?${query}` : ''}`;
  const request = new Request(u, { headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}` } });
  const params = Promise.resolve({ user: 'current', ...(id ? { id } : {}) });
  return expectDocumented('GET', u, id ? await wakaBoardRoute(request, { params }) : await wakaBoardsRoute(request, { params }));
}
const pairs = (entries: Entry[]) => entries.map((e) => [e.rank, e.handle]);

describe('private leaderboards', () => {
  it('are made, joined by code, listed and read by members only; others get 404 as for an unknown id', async () => {
    const ann = await member([['Go', 3000]]);
    const bob = await member([['Go', 1000]]);
    const eve = await member([['Go', 5000]]);
    const board = await made(ann.account);
    expect(board).toEqual({ id: expect.any(String), name: 'Friday coders', invite_code: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });

    const joined = await join(bob.account, board.invite_code);
    expect(joined.status).toBe(200);
    expect(await joined.json()).toEqual({ id: board.id, name: 'Friday coders' });
    expect((await join(bob.account, board.invite_code)).status).toBe(200); // again: nothing changes

    expect(await list(ann.account)).toMatchObject([{ id: board.id, role: 'owner', members_count: 2, invite_code: board.invite_code }]);
    expect(await list(bob.account)).toMatchObject([{ id: board.id, role: 'member', members_count: 2, invite_code: null }]);
    expect(await list(eve.account)).toEqual([]);

    const res = await read(bob.account, board.id);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const body = await res.json();
    expect(body).toMatchObject({ id: board.id, name: 'Friday coders', range: '7d', to: today, language: null, role: 'member', members_count: 2 });
    expect(body.entries).toEqual([
      { rank: 1, handle: ann.handle, display_name: ann.user.display_name, seconds: 3000 },
      { rank: 2, handle: bob.handle, display_name: bob.user.display_name, seconds: 1000 },
    ]);

    // An outsider, an unknown id and a malformed one: the same 404.
    const outsider = await read(eve.account, board.id);
    expect(outsider.status).toBe(404);
    const unknown = await read(eve.account, '00000000-0000-4000-8000-000000000000');
    const malformed = await read(eve.account, 'not-an-id');
    for (const r of [unknown, malformed]) expect(r.status).toBe(404);
    const [a, b] = [await outsider.json(), await unknown.json()];
    expect(a.detail).toBe(b.detail);
    expect((await waka(eve.key, board.id)).status).toBe(404);
    expect((await leave(eve.account, board.id)).status).toBe(404);
    expect((await rotate(eve.account, board.id)).status).toBe(404);
    expect((await drop(eve.account, board.id)).status).toBe(404);

    // Only the owner replaces the code or deletes the board.
    expect((await rotate(bob.account, board.id)).status).toBe(403);
    expect((await drop(bob.account, board.id)).status).toBe(403);

    // A `stats` key reads boards; writing needs `account`.
    expect((await read(bob.key, board.id)).status).toBe(200);
    expect((await create(bob.key, { name: 'x' })).status).toBe(403);
  });

  it('refuses a bad name or code, naming the field', async () => {
    const ann = await member();
    for (const [body, code] of [
      [{ name: '' }, 'too_small'],
      [{ name: '   ' }, 'too_small'],
      [{ name: 'x'.repeat(101) }, 'too_big'],
      [{ name: 'a\u0007b' }, 'control_character'],
      [{ name: 'a\u202Eb' }, 'format_character'],
      [{}, 'invalid_type'],
      [{ name: 5 }, 'invalid_type'],
    ] as const) {
      const res = await create(ann.account, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).errors).toEqual([expect.objectContaining({ path: 'name', code })]);
    }
    expect((await create(ann.account, { name: `  ${'y'.repeat(100)}  ` })).status).toBe(201); // trimmed first

    for (const code of ['', 'a\u0000b', 'x'.repeat(65), 7]) {
      const res = await join(ann.account, code);
      expect(res.status).toBe(422);
      expect((await res.json()).errors[0].path).toBe('code');
    }
    const unknown = await join(ann.account, 'no-such-code');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).errors).toEqual([expect.objectContaining({ path: 'code', code: 'not_found' })]);
  });

  it('ranks as the public leaderboard: the same order, ties and hour cap', async () => {
    // Capped: 2 buckets of 3000 s in one hour count 3600 s.
    const capped = await newUser({ settings: { leaderboard: true, profile_public: true, share_languages: true } });
    const capBody = { activities: [0, 1].map(() => ({ language: 'Go', time: 3000, hour: 5, date: today })) };
    // Two buckets with the same key are summed into one of 6000 s in hour 5.
    expect((await call(postBatch, '/sync/activities', { token: capped.token, body: capBody })).status).toBe(200);
    const tiedA = await member([['Go', 2000]], { leaderboard: true, profile_public: true, share_languages: true });
    const tiedB = await member([['Rust', 2000]], { leaderboard: true, profile_public: true, share_languages: true });
    const low = await member([['Go', 500]], { leaderboard: true, profile_public: true, share_languages: true });
    const old = await member([['Go', 4000, daysFromToday(-10)] as unknown as [string, number]], { leaderboard: true, profile_public: true, share_languages: true });
    const owner = await member([], { leaderboard: true, profile_public: true, share_languages: true });
    const board = await made(owner.account);
    for (const u of [tiedA, tiedB, low, old]) expect((await join(u.account, board.invite_code)).status).toBe(200);
    const cappedAccount = await tokenWithScopes(capped.user.id, ['account']);
    expect((await join(cappedAccount, board.invite_code)).status).toBe(200);

    const tied = [tiedA, tiedB].sort((a, b) => (a.user.id < b.user.id ? -1 : 1)).map((u) => u.handle);
    const week = await ranking(owner.account, board.id);
    expect(week.map((e) => [e.rank, e.handle, e.seconds])).toEqual([
      [1, capped.user.handle, 3600],
      [2, tied[0], 2000],
      [2, tied[1], 2000],
      [4, low.handle, 500],
    ]);
    const month = await ranking(owner.account, board.id, 'range=30d');
    expect(month.map((e) => [e.rank, e.handle, e.seconds])).toEqual([
      [1, old.handle, 4000],
      [2, capped.user.handle, 3600],
      [3, tied[0], 2000],
      [3, tied[1], 2000],
      [5, low.handle, 500],
    ]);

    // The public leaderboard ranks the same users the same way (everyone here is listed on it).
    const request = new Request('http://localhost/main/api/v1/leaderboard/api/get/public?range=30d&limit=100');
    const pub = (await (await publicBoard(request)).json()) as { entries: { rank: number; total_seconds: number; user: { handle: string } }[] };
    const ours = new Set(month.map((e) => e.handle));
    const theirs = pub.entries.filter((e) => ours.has(e.user.handle));
    expect(theirs.map((e) => [e.user.handle, e.total_seconds])).toEqual(month.map((e) => [e.handle, e.seconds]));
    // Equal ranks in one are equal ranks in the other.
    for (let i = 1; i < month.length; i++) expect(theirs[i].rank === theirs[i - 1].rank).toBe(month[i].rank === month[i - 1].rank);

    // By a language, in any case; a bad range or language is a 400 naming it.
    const go = await read(owner.account, board.id, 'language=go');
    const goBody = await go.json();
    expect(goBody.language).toBe('Go');
    expect(pairs(goBody.entries)).toEqual([
      [1, capped.user.handle],
      [2, tiedA.handle],
      [3, low.handle],
    ]);
    expect(goBody.entries[0].seconds).toBe(3600);
    for (const q of ['range=1y', 'language=a%07b']) {
      const res = await read(owner.account, board.id, q);
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].path).toBe(q.split('=')[0]);
    }
    expect(await boardEntries(await getDb(), board.id, '7d', null)).toMatchObject({ range: '7d', to: today, entries: week.map((e) => ({ handle: e.handle, seconds: e.seconds, rank: e.rank })) });
  });

  it('ranks a language only over members whose public profile shows their languages, and follows the settings at once', async () => {
    const ann = await member([['Go', 3000]]);
    const bob = await member([['Go', 2000]], { profile_public: true, share_languages: false });
    const dan = await member([['Go', 1000]], { profile_public: false, share_languages: true }); // a private profile shows no languages
    const board = await made(ann.account);
    await join(bob.account, board.invite_code);
    await join(dan.account, board.invite_code);
    expect((await leave(dan.account, board.id)).status).toBe(204);
    expect(pairs(await ranking(ann.account, board.id))).toEqual([
      [1, ann.handle],
      [2, bob.handle],
    ]);
    await join(dan.account, board.invite_code);
    const withDan = await (await waka(ann.key, board.id)).json();
    expect(withDan.data.find((e: { user: { username: string } }) => e.user.username === dan.handle).running_total).toMatchObject({ total_seconds: 1000, languages: [] });
    expect(pairs(await ranking(ann.account, board.id, 'language=Go')).map(([, h]) => h)).not.toContain(dan.handle);
    expect((await leave(dan.account, board.id)).status).toBe(204);
    // Totals show everyone; the language ranking only those who share languages.
    expect(pairs(await ranking(ann.account, board.id))).toEqual([
      [1, ann.handle],
      [2, bob.handle],
    ]);
    expect(pairs(await ranking(ann.account, board.id, 'language=Go'))).toEqual([[1, ann.handle]]);
    const wb = await (await waka(ann.key, board.id)).json();
    expect(wb.data.find((e: { user: { username: string } }) => e.user.username === bob.handle).running_total.languages).toEqual([]);

    const db = await getDb();
    await updateAccount(db, bob.user.id, { settings: { share_languages: true } });
    expect(pairs(await ranking(ann.account, board.id, 'language=Go'))).toEqual([
      [1, ann.handle],
      [2, bob.handle],
    ]);
    await updateAccount(db, ann.user.id, { settings: { share_languages: false } });
    expect(pairs(await ranking(bob.account, board.id, 'language=GO'))).toEqual([[1, bob.handle]]);
  });

  it('leaving removes one at once; the rotated code joins nobody; the last to leave deletes the board', async () => {
    const ann = await member([['Go', 3000]]);
    const bob = await member([['Go', 2000]]);
    const cat = await member([['Go', 1000]]);
    const board = await made(ann.account);
    await join(bob.account, board.invite_code);
    expect((await ranking(ann.account, board.id)).map((e) => e.handle)).toEqual([ann.handle, bob.handle]);

    expect((await leave(bob.account, board.id)).status).toBe(204);
    expect((await ranking(ann.account, board.id)).map((e) => e.handle)).toEqual([ann.handle]);
    expect((await read(bob.account, board.id)).status).toBe(404);
    expect((await leave(bob.account, board.id)).status).toBe(404);

    const rotated = await rotate(ann.account, board.id);
    expect(rotated.status).toBe(200);
    const { invite_code } = await rotated.json();
    expect(invite_code).not.toBe(board.invite_code);
    expect((await join(cat.account, board.invite_code)).status).toBe(404);
    expect((await join(cat.account, invite_code)).status).toBe(200);
    expect((await list(ann.account))[0]).toMatchObject({ invite_code, members_count: 2 });

    // The owner, who alone can replace the code or delete the board, cannot leave it to others.
    const stuck = await leave(ann.account, board.id);
    expect(stuck.status).toBe(409);
    expect((await stuck.json()).code).toBe('last_owner');
    expect((await leave(cat.account, board.id)).status).toBe(204);
    expect((await leave(ann.account, board.id)).status).toBe(204);
    expect((await join(bob.account, invite_code)).status).toBe(404); // gone with its last member

    // An owner's account deleted: the board passes to its longest-standing other member.
    const handed = await made(cat.account, 'Handed');
    await join(bob.account, handed.invite_code);
    await deleteAccount(await getDb(), cat.user.id);
    expect((await list(bob.account)).find((x) => x.id === handed.id)).toMatchObject({ role: 'owner', members_count: 1, invite_code: expect.any(String) });

    const other = await made(ann.account, 'Other');
    await join(bob.account, other.invite_code);
    expect((await drop(ann.account, other.id)).status).toBe(204);
    expect((await read(bob.account, other.id)).status).toBe(404);
    expect((await list(bob.account)).map((x) => x.id)).toEqual([handed.id]);
  });

  it('answers in WakaTime\'s shapes with a key', async () => {
    const ann = await member([['Go', 3000], ['Rust', 600]]);
    const bob = await member([['Go', 1000]]);
    const board = await made(ann.account, 'Waka');
    await join(bob.account, board.invite_code);

    const listed = await waka(bob.key);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('private, no-store');
    expect(await listed.json()).toMatchObject({
      data: [{ id: board.id, name: 'Waka', members_count: 2, time_range: 'last_7_days', can_edit: false, can_delete: false }],
      total: 1,
      total_pages: 1,
    });
    expect((await (await waka(ann.key)).json()).data[0]).toMatchObject({ can_edit: true, can_delete: true });

    const res = await waka(bob.key, board.id);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data[0]).toMatchObject({
      rank: 1,
      running_total: { total_seconds: 3600, human_readable_total: '1 hr', daily_average: 514, languages: [{ name: 'Go', total_seconds: 3000 }, { name: 'Rust', total_seconds: 600 }] },
      user: { id: ann.user.id, username: ann.handle, display_name: ann.user.display_name },
    });
    expect(body.current_user).toMatchObject({ rank: 2, page: 1, user: { username: bob.handle } });
    expect(body.range).toMatchObject({ end_date: today, name: 'last_7_days' });
    const month = await (await waka(bob.key, board.id, 'range=last_30_days&language=rust')).json();
    expect(month).toMatchObject({ language: 'Rust', range: { name: 'last_30_days' }, current_user: null });
    expect(month.data.map((e: { user: { username: string } }) => e.user.username)).toEqual([ann.handle]);
    const bad = await waka(bob.key, board.id, 'range=forever');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: expect.stringContaining('range') });
  });
});
