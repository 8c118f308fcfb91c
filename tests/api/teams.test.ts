import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GET as getTeam, DELETE as deleteTeam } from '@/app/main/api/v1/teams/[id]/route';
import { POST as rotateCode } from '@/app/main/api/v1/teams/[id]/invite_code/route';
import { PATCH as patchMe } from '@/app/main/api/v1/teams/[id]/me/route';
import { DELETE as removeMember, PATCH as patchMember } from '@/app/main/api/v1/teams/[id]/members/[handle]/route';
import { POST as joinTeam } from '@/app/main/api/v1/teams/join/route';
import { GET as listTeams, POST as createTeam } from '@/app/main/api/v1/teams/route';
import { POST as invite } from '@/app/main/api/v1/teams/[id]/invitations/route';
import { GET as insights } from '@/app/main/api/v1/me/insights/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { resetConfig } from '@/lib/config';
import { daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { linkIn, startMailbox } from '../helpers/smtp';
import { expectDocumented } from '../helpers/contract';

// Teams: who may do what (an authorization matrix over roles and outsiders), joining by code,
// rotation and expiry, validation, and a property test that no team answer carries a figure its
// member did not share.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's handler
type Handler = (request: Request, context: any) => Promise<Response>;

interface Req {
  token?: string;
  body?: unknown;
  params?: Record<string, string>;
}

/** A request to a route handler as Next makes it; the answer must be as openapi.json says. */
async function send(handler: Handler, method: string, path: string, opts: Req = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const url = `http://localhost/main/api/v1${path}`;
  const request = new Request(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  return expectDocumented(method, url, await handler(request, { params: Promise.resolve(opts.params ?? {}) }));
}

async function person() {
  const u = await newUser();
  return { handle: u.user.handle, id: u.user.id, plugin: u.token, account: await tokenWithScopes(u.user.id, ['account']) };
}
type Person = Awaited<ReturnType<typeof person>>;

async function makeTeam(owner: Person, name = 'Core') {
  const res = await send(createTeam, 'POST', '/teams', { token: owner.account, body: { name } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; name: string; invite_code: string; invite_expires_at: string | null };
}

async function join(p: Person, code: string) {
  return send(joinTeam, 'POST', '/teams/join', { token: p.account, body: { code } });
}

async function setRole(team: string, by: Person, target: Person, role: string) {
  return send(patchMember, 'PATCH', `/teams/${team}/members/${target.handle}`, { token: by.account, body: { role }, params: { id: team, handle: target.handle } });
}

async function teamOf(team: string, as: Person, range = '7d') {
  const res = await send(getTeam, 'GET', `/teams/${team}?range=${range}`, { token: as.account, params: { id: team } });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  return (await res.json()) as {
    role: string;
    invite_code?: string;
    members: { handle: string; role: string; share: string; seconds: number | null; languages?: { name: string; seconds: number }[] }[];
  };
}

/** A team with an owner, two admins, two members, and an outsider who is in none of it. */
async function fixture() {
  const [owner, admin, admin2, member, member2, outsider] = await Promise.all([person(), person(), person(), person(), person(), person()]);
  const team = await makeTeam(owner);
  for (const p of [admin, admin2, member, member2]) expect((await join(p, team.invite_code)).status).toBe(200);
  for (const p of [admin, admin2]) expect((await setRole(team.id, owner, p, 'admin')).status).toBe(200);
  return { team, owner, admin, admin2, member, member2, outsider };
}
type Fixture = Awaited<ReturnType<typeof fixture>>;

type Actor = 'owner' | 'admin' | 'member' | 'outsider' | 'anonymous' | 'no account scope';
const actors: Actor[] = ['owner', 'admin', 'member', 'outsider', 'anonymous', 'no account scope'];

/** The caller's token: the outsider is signed in; the token without `account` is the member's own plugin token. */
function tokenOf(f: Fixture, actor: Actor): string | undefined {
  if (actor === 'anonymous') return undefined;
  if (actor === 'no account scope') return f.member.plugin;
  return f[actor].account;
}

interface Case {
  name: string;
  run: (f: Fixture, token: string | undefined, id: string) => Promise<Response>;
  expect: Record<'owner' | 'admin' | 'member' | 'outsider', number>;
}

const member = (f: Fixture, key: 'owner' | 'admin' | 'admin2' | 'member2') => f[key].handle;
const self = (f: Fixture, actor: Actor) => (actor === 'owner' || actor === 'admin' || actor === 'member' || actor === 'outsider' ? f[actor].handle : f.member.handle);

function cases(actor: Actor): Case[] {
  return [
    { name: 'GET /teams/{id}', run: (f, token, id) => send(getTeam, 'GET', `/teams/${id}`, { token, params: { id } }), expect: { owner: 200, admin: 200, member: 200, outsider: 404 } },
    { name: 'DELETE /teams/{id}', run: (f, token, id) => send(deleteTeam, 'DELETE', `/teams/${id}`, { token, params: { id } }), expect: { owner: 204, admin: 403, member: 403, outsider: 404 } },
    {
      name: 'PATCH /teams/{id}/me',
      run: (f, token, id) => send(patchMe, 'PATCH', `/teams/${id}/me`, { token, body: { share: 'none' }, params: { id } }),
      expect: { owner: 200, admin: 200, member: 200, outsider: 404 },
    },
    {
      name: 'POST /teams/{id}/invite_code',
      run: (f, token, id) => send(rotateCode, 'POST', `/teams/${id}/invite_code`, { token, body: { expires_in_days: 3 }, params: { id } }),
      expect: { owner: 200, admin: 200, member: 403, outsider: 404 },
    },
    {
      // This site sends no mail: the owners and admins who may invite hear so.
      name: 'POST /teams/{id}/invitations',
      run: (f, token, id) => send(invite, 'POST', `/teams/${id}/invitations`, { token, body: { email: 'new@example.test' }, params: { id } }),
      expect: { owner: 501, admin: 501, member: 403, outsider: 404 },
    },
    {
      name: 'PATCH /teams/{id}/members/{member}',
      run: (f, token, id) => send(patchMember, 'PATCH', `/teams/${id}/members/${member(f, 'member2')}`, { token, body: { role: 'admin' }, params: { id, handle: member(f, 'member2') } }),
      expect: { owner: 200, admin: 403, member: 403, outsider: 404 },
    },
    ...(['member2', 'admin2', 'owner'] as const).map(
      (target): Case => ({
        name: `DELETE /teams/{id}/members/{${target}}`,
        run: (f, token, id) => send(removeMember, 'DELETE', `/teams/${id}/members/${member(f, target)}`, { token, params: { id, handle: member(f, target) } }),
        // The owner removing themselves is the only owner leaving: 409.
        expect: { owner: target === 'owner' ? 409 : 204, admin: target === 'member2' ? 204 : 403, member: 403, outsider: 404 },
      }),
    ),
    {
      name: 'DELETE /teams/{id}/members/{me}',
      run: (f, token, id) => send(removeMember, 'DELETE', `/teams/${id}/members/${self(f, actor)}`, { token, params: { id, handle: self(f, actor) } }),
      expect: { owner: 409, admin: 204, member: 204, outsider: 404 },
    },
  ];
}

describe('teams: authorization matrix', () => {
  it.each(actors)('%s', async (actor) => {
    const f = await fixture();
    for (const c of cases(actor)) {
      // Each case on a fresh team: what one case changes must not decide the next.
      const g = c.name.startsWith('GET') ? f : await fixture();
      const token = tokenOf(g, actor);
      const res = await c.run(g, token, g.team.id);
      const want = actor === 'anonymous' ? 401 : actor === 'no account scope' ? 403 : c.expect[actor];
      expect(res.status, `${actor}: ${c.name}`).toBe(want);
      if (want === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      if (want >= 400) expect((await res.json()).code, `${actor}: ${c.name}`).toBe({ 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'last_owner', 501: 'mail_disabled' }[want]);
      // An unknown team is the same answer an outsider gets.
      if (actor !== 'anonymous' && actor !== 'no account scope') {
        const unknown = await c.run(g, token, '00000000-0000-4000-8000-000000000000');
        expect(unknown.status, `${actor}: ${c.name} on an unknown team`).toBe(404);
        expect((await c.run(g, token, 'not-a-uuid')).status).toBe(404);
      }
    }
  });

  it('GET and POST /teams: any signed-in user; 401 anonymous, 403 without account', async () => {
    const f = await fixture();
    for (const p of [f.owner, f.member, f.outsider]) expect((await send(listTeams, 'GET', '/teams', { token: p.account })).status).toBe(200);
    expect((await send(listTeams, 'GET', '/teams')).status).toBe(401);
    expect((await send(listTeams, 'GET', '/teams', { token: f.member.plugin })).status).toBe(403);
    expect((await send(createTeam, 'POST', '/teams', { body: { name: 'x' } })).status).toBe(401);
    expect((await send(createTeam, 'POST', '/teams', { token: f.member.plugin, body: { name: 'x' } })).status).toBe(403);
    expect((await send(joinTeam, 'POST', '/teams/join', { token: f.outsider.plugin, body: { code: f.team.invite_code } })).status).toBe(403);
    const mine = (await (await send(listTeams, 'GET', '/teams', { token: f.member.account })).json()).teams;
    expect(mine).toEqual([{ id: f.team.id, name: 'Core', role: 'member', share: 'total', members: 5 }]);
    expect((await (await send(listTeams, 'GET', '/teams', { token: f.outsider.account })).json()).teams).toEqual([]);
  });

  it('only owners and admins see the invite code; the owner hands over, then may leave', async () => {
    const f = await fixture();
    expect((await teamOf(f.team.id, f.owner)).invite_code).toBe(f.team.invite_code);
    expect((await teamOf(f.team.id, f.admin)).invite_code).toBe(f.team.invite_code);
    expect((await teamOf(f.team.id, f.member)).invite_code).toBeUndefined();
    // The only owner cannot step down either.
    expect((await setRole(f.team.id, f.owner, f.owner, 'admin')).status).toBe(409);
    expect((await setRole(f.team.id, f.owner, f.member, 'owner')).status).toBe(200);
    const leave = await send(removeMember, 'DELETE', `/teams/${f.team.id}/members/${f.owner.handle.toUpperCase()}`, { token: f.owner.account, params: { id: f.team.id, handle: f.owner.handle.toUpperCase() } });
    expect(leave.status).toBe(204);
    const after = await teamOf(f.team.id, f.member);
    expect(after.role).toBe('owner');
    expect(after.members.map((m) => m.handle)).not.toContain(f.owner.handle);
    expect((await send(getTeam, 'GET', `/teams/${f.team.id}`, { token: f.owner.account, params: { id: f.team.id } })).status).toBe(404);
  });
});

describe('teams: an owner who deletes their account', () => {
  it('hands each team they alone own to an admin, else a member; a team of one goes with them', async () => {
    const f = await fixture();
    const solo = await makeTeam(f.owner, 'Solo');
    const { deleteAccount } = await import('@/lib/accounts/me');
    const { getDb } = await import('@/lib/db/client');
    await deleteAccount(await getDb(), f.owner.id);
    const after = await teamOf(f.team.id, f.member);
    expect(after.members.map((m) => m.handle)).not.toContain(f.owner.handle);
    expect(after.members.filter((m) => m.role === 'owner').map((m) => m.handle)).toEqual([f.admin.handle]);
    const { sql } = await import('drizzle-orm');
    const { rows } = await import('@/lib/db/client');
    expect(await rows(await getDb(), sql`SELECT id FROM teams WHERE id = ${solo.id}::uuid`)).toEqual([]);
  });
});

describe('teams: invite codes', () => {
  it('joins by code (again: no change), rotation ends the old code, an expired code is refused', async () => {
    const [owner, a, b, c] = await Promise.all([person(), person(), person(), person()]);
    const team = await makeTeam(owner, '  Platform  ');
    expect(team).toEqual({ id: expect.any(String), name: 'Platform', invite_code: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), invite_expires_at: null });

    const joined = await join(a, team.invite_code);
    expect(joined.status).toBe(200);
    expect(await joined.json()).toEqual({ id: team.id, name: 'Platform', role: 'member', share: 'total' });
    // Joining again keeps the role and the consent.
    await send(patchMe, 'PATCH', `/teams/${team.id}/me`, { token: a.account, body: { share: 'languages' }, params: { id: team.id } });
    expect(await (await join(a, team.invite_code)).json()).toEqual({ id: team.id, name: 'Platform', role: 'member', share: 'languages' });
    expect((await join(owner, team.invite_code)).status).toBe(200);
    expect((await teamOf(team.id, owner)).members.find((m) => m.handle === owner.handle)?.role).toBe('owner');

    const rotated = await send(rotateCode, 'POST', `/teams/${team.id}/invite_code`, { token: owner.account, params: { id: team.id } });
    expect(rotated.status).toBe(200);
    const fresh = await rotated.json();
    expect(fresh).toEqual({ invite_code: expect.any(String), invite_expires_at: null });
    expect(fresh.invite_code).not.toBe(team.invite_code);
    const old = await join(b, team.invite_code);
    expect(old.status).toBe(404);
    expect((await old.json()).code).toBe('not_found');
    expect((await join(b, fresh.invite_code)).status).toBe(200);

    // Expiring: works before, not after (the expiry moved into the past).
    const expiring = await (await send(rotateCode, 'POST', `/teams/${team.id}/invite_code`, { token: owner.account, body: { expires_in_days: 2 }, params: { id: team.id } })).json();
    const expires = Date.parse(expiring.invite_expires_at);
    expect(expires - Date.now()).toBeGreaterThan(2 * 86_400_000 - 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(2 * 86_400_000);
    const { getDb } = await import('@/lib/db/client');
    const { sql } = await import('drizzle-orm');
    await (await getDb()).execute(sql`UPDATE teams SET invite_expires_at = now() - interval '1 second' WHERE id = ${team.id}::uuid`);
    expect((await join(c, expiring.invite_code)).status).toBe(404);
    expect((await teamOf(team.id, owner)).members.map((m) => m.handle)).not.toContain(c.handle);
  });

  it('invites by mail: the link joins; rotation ends it; an expired code is not mailed', async () => {
    const mailbox = await startMailbox();
    Object.assign(process.env, { SMTP_URL: mailbox.url, MAIL_FROM: 'Codetally <codetally@example.test>', SITE_URL: 'https://codetally.test' });
    resetConfig();
    try {
      const [owner, guest] = await Promise.all([person(), person()]);
      const team = await makeTeam(owner, 'Mailers');
      const email = `guest-${guest.handle}@example.test`;
      const res = await send(invite, 'POST', `/teams/${team.id}/invitations`, { token: owner.account, body: { email: ` ${email} ` }, params: { id: team.id } });
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ email, invite_expires_at: null });
      const mail = await mailbox.next(email);
      // The subject is the site's words only; the team's name is in the body, labelled as a name.
      expect(mail.subject).toBe('An invitation to a team on Codetally');
      expect(mail.text).toContain(`The team's name, as @${owner.handle} wrote it: «Mailers».`);
      const link = new URL(linkIn(mail, 'https://codetally.test/dashboard/teams?code='));
      expect(link.searchParams.get('code')).toBe(team.invite_code);
      expect((await join(guest, link.searchParams.get('code')!)).status).toBe(200);

      const bad = await send(invite, 'POST', `/teams/${team.id}/invitations`, { token: owner.account, body: { email: 'nope' }, params: { id: team.id } });
      expect(bad.status).toBe(422);
      expect((await bad.json()).errors[0].path).toBe('email');
      const { getDb } = await import('@/lib/db/client');
      const { sql } = await import('drizzle-orm');
      await (await getDb()).execute(sql`UPDATE teams SET invite_expires_at = now() - interval '1 second' WHERE id = ${team.id}::uuid`);
      const expired = await send(invite, 'POST', `/teams/${team.id}/invitations`, { token: owner.account, body: { email }, params: { id: team.id } });
      expect(expired.status).toBe(409);
      expect((await expired.json()).code).toBe('invite_expired');

      // At most 5 invitations an hour to one address: a team is no way to mail anyone at will.
      const other = await makeTeam(owner, 'Spam');
      const target = `target-${owner.handle}@example.test`;
      const sends = [];
      for (let i = 0; i < 6; i++) sends.push((await send(invite, 'POST', `/teams/${other.id}/invitations`, { token: owner.account, body: { email: target }, params: { id: other.id } })).status);
      expect(sends).toEqual([202, 202, 202, 202, 202, 429]);
      await mailbox.next(target, 4); // all five arrive (and only they) before the mail server stops
      expect(mailbox.to(target)).toHaveLength(5);
    } finally {
      for (const name of ['SMTP_URL', 'MAIL_FROM', 'SITE_URL']) delete process.env[name];
      resetConfig();
      await mailbox.close();
    }
  });

  it('validation errors name the field', async () => {
    const owner = await person();
    const team = await makeTeam(owner);
    const problem = async (res: Response, status: number, path: string) => {
      expect(res.status).toBe(status);
      const body = await res.json();
      expect(body.errors.map((e: { path: string }) => e.path)).toContain(path);
    };
    await problem(await send(createTeam, 'POST', '/teams', { token: owner.account, body: {} }), 422, 'name');
    await problem(await send(createTeam, 'POST', '/teams', { token: owner.account, body: { name: '   ' } }), 422, 'name');
    await problem(await send(createTeam, 'POST', '/teams', { token: owner.account, body: { name: 'x'.repeat(101) } }), 422, 'name');
    await problem(await send(createTeam, 'POST', '/teams', { token: owner.account, body: { name: 'a\u0000b' } }), 422, 'name');
    await problem(await send(joinTeam, 'POST', '/teams/join', { token: owner.account, body: {} }), 422, 'code');
    await problem(await send(joinTeam, 'POST', '/teams/join', { token: owner.account, body: { code: 42 } }), 422, 'code');
    await problem(await send(joinTeam, 'POST', '/teams/join', { token: owner.account, body: { code: 'a\u0000b' } }), 422, 'code');
    // A handle that cannot be one (a stray % from the address, a NUL) is no member: 404, not a failure.
    for (const handle of ['%', 'a\u0000b']) expect((await send(removeMember, 'DELETE', `/teams/${team.id}/members/x`, { token: owner.account, params: { id: team.id, handle } })).status).toBe(404);
    const params = { id: team.id };
    await problem(await send(patchMe, 'PATCH', `/teams/${team.id}/me`, { token: owner.account, body: { share: 'all' }, params }), 422, 'share');
    await problem(await send(rotateCode, 'POST', `/teams/${team.id}/invite_code`, { token: owner.account, body: { expires_in_days: 0 }, params }), 422, 'expires_in_days');
    await problem(await send(rotateCode, 'POST', `/teams/${team.id}/invite_code`, { token: owner.account, body: { expires_in_days: 1.5 }, params }), 422, 'expires_in_days');
    await problem(await send(rotateCode, 'POST', `/teams/${team.id}/invite_code`, { token: owner.account, body: { expires_in_days: 366 }, params }), 422, 'expires_in_days');
    await problem(await setRole(team.id, owner, owner, 'boss'), 422, 'role');
    await problem(await send(getTeam, 'GET', `/teams/${team.id}?range=all`, { token: owner.account, params }), 400, 'range');
    const notJson = await send(createTeam, 'POST', '/teams', { token: owner.account, body: [] });
    expect(notJson.status).toBe(400);
  });
});

// The property: random members, shares, activity, consent changes and leaves; after each step the
// team's answer shows exactly what each current member shares, and the figures are the member's own.

type Step =
  | { kind: 'activity'; who: number; day: number; hour: number; language: string; time: number }
  | { kind: 'share'; who: number; share: 'none' | 'total' | 'languages' }
  | { kind: 'leave'; who: number }
  | { kind: 'remove'; who: number }
  | { kind: 'join'; who: number };

const MEMBERS = 4; // besides the owner (index 0), who stays
const who = fc.integer({ min: 0, max: MEMBERS });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('activity' as const), who, day: fc.integer({ min: 0, max: 2 }), hour: fc.integer({ min: 0, max: 1 }), language: fc.constantFrom('Go', 'Rust', 'SQL'), time: fc.integer({ min: 1, max: 3600 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('share' as const), who, share: fc.constantFrom('none' as const, 'total' as const, 'languages' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('leave' as const), who: fc.integer({ min: 1, max: MEMBERS }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), who: fc.integer({ min: 1, max: MEMBERS }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('join' as const), who: fc.integer({ min: 1, max: MEMBERS }) }) },
);

/** Each person's buckets: date|hour -> language -> seconds, and the capped figures they make. */
class Model {
  hours = new Map<string, Map<string, number>>();
  add(date: string, hour: number, language: string, time: number) {
    const key = `${date}|${hour}`;
    const hour_ = this.hours.get(key) ?? new Map<string, number>();
    hour_.set(language, (hour_.get(language) ?? 0) + time);
    this.hours.set(key, hour_);
  }
  total(): number {
    let sum = 0;
    for (const h of this.hours.values()) sum += Math.min(3600, [...h.values()].reduce((a, b) => a + b, 0));
    return sum;
  }
  languages(): Map<string, number> {
    const out = new Map<string, number>();
    for (const h of this.hours.values()) {
      const all = [...h.values()].reduce((a, b) => a + b, 0);
      for (const [l, s] of h) out.set(l, (out.get(l) ?? 0) + s * Math.min(1, 3600 / all));
    }
    return out;
  }
}

describe('teams: a team answer never carries a figure its member did not share', () => {
  it('holds over random members, shares, activity, consent changes and leaves', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 4, maxLength: 14 }), async (steps) => {
        const people = await Promise.all(Array.from({ length: MEMBERS + 1 }, () => person()));
        const team = await makeTeam(people[0]);
        const inTeam = new Set<number>([0]);
        const shares = new Map<number, string>([[0, 'total']]);
        const models = people.map(() => new Model());
        for (let i = 1; i <= MEMBERS; i += 1) {
          expect((await join(people[i], team.invite_code)).status).toBe(200);
          inTeam.add(i);
          shares.set(i, 'total');
        }
        for (const step of steps) {
          const p = people[step.who];
          if (step.kind === 'activity') {
            const date = daysFromToday(-step.day);
            const res = await send(postBatch, 'POST', '/sync/activities', { token: p.plugin, body: { activities: [{ language: step.language, time: step.time, date, hour: step.hour }] } });
            expect(res.status).toBe(200);
            models[step.who].add(date, step.hour, step.language, step.time);
          } else if (step.kind === 'share') {
            const res = await send(patchMe, 'PATCH', `/teams/${team.id}/me`, { token: p.account, body: { share: step.share }, params: { id: team.id } });
            expect(res.status).toBe(inTeam.has(step.who) ? 200 : 404);
            if (inTeam.has(step.who)) shares.set(step.who, step.share);
          } else if (step.kind === 'join') {
            // With the code as it is now: removing a member replaces it.
            expect((await join(p, (await teamOf(team.id, people[0])).invite_code!)).status).toBe(200);
            if (!inTeam.has(step.who)) shares.set(step.who, 'total'); // a new membership starts at the default
            inTeam.add(step.who);
          } else {
            const by = step.kind === 'leave' ? p : people[0];
            const known = (await teamOf(team.id, people[0])).invite_code!;
            const res = await send(removeMember, 'DELETE', `/teams/${team.id}/members/${p.handle}`, { token: by.account, params: { id: team.id, handle: p.handle } });
            expect(res.status).toBe(inTeam.has(step.who) ? 204 : 404);
            // One removed by another cannot come back with the code they knew.
            if (step.kind === 'remove' && inTeam.has(step.who)) expect((await join(p, known)).status).toBe(404);
            inTeam.delete(step.who);
          }

          // Seen by the owner and by a member (every member sees the same figures).
          const viewers = [...inTeam].slice(0, 2);
          for (const v of viewers) {
            const seen = await teamOf(team.id, people[v], '30d');
            expect(seen.members.map((m) => m.handle).sort()).toEqual([...inTeam].map((i) => people[i].handle).sort());
            for (const m of seen.members) {
              const i = people.findIndex((x) => x.handle === m.handle);
              const share = shares.get(i)!;
              expect(m.share).toBe(share);
              if (share === 'none') {
                expect(m.seconds).toBeNull();
                expect(m).not.toHaveProperty('languages');
                continue;
              }
              expect(Math.abs((m.seconds as number) - models[i].total())).toBeLessThanOrEqual(1);
              if (share !== 'languages') {
                expect(m).not.toHaveProperty('languages');
                continue;
              }
              const want = models[i].languages();
              expect(m.languages!.map((l) => l.name).sort()).toEqual([...want.keys()].filter((l) => Math.round(want.get(l)!) > 0).sort());
              for (const l of m.languages!) expect(Math.abs(l.seconds - want.get(l.name)!)).toBeLessThanOrEqual(1);
            }
          }
        }
        // Leavers cannot read it; what a remaining member shares is their own total (as /me/insights counts it).
        for (let i = 1; i <= MEMBERS; i += 1) {
          if (!inTeam.has(i)) expect((await send(getTeam, 'GET', `/teams/${team.id}`, { token: people[i].account, params: { id: team.id } })).status).toBe(404);
        }
        const own = await (await send(insights, 'GET', '/me/insights?range=30d', { token: people[0].account })).json();
        const mine = (await teamOf(team.id, people[0], '30d')).members.find((m) => m.handle === people[0].handle)!;
        if (mine.seconds !== null) expect(mine.seconds).toBe(own.total_seconds);
      }),
      { numRuns: 10 },
    );
  });
});

describe('teams: a full team says so, to its owner and to the person refused', () => {
  // An install that sells plans (PLANS=on): a Free owner's team holds 3 members. On a default
  // install no plan limits a team (tests/api/plans-off.test.ts); the same refusal then comes only
  // at the server's cap.
  const withPlans = async <T>(run: () => Promise<T>): Promise<T> => {
    const mailbox = await startMailbox();
    Object.assign(process.env, { PLANS: 'on', SMTP_URL: mailbox.url, MAIL_FROM: 'Codetally <codetally@example.test>', SITE_URL: 'https://codetally.test' });
    resetConfig();
    try {
      return await run();
    } finally {
      for (const name of ['PLANS', 'SMTP_URL', 'MAIL_FROM', 'SITE_URL']) delete process.env[name];
      resetConfig();
      await mailbox.close();
    }
  };

  it('the fourth person is told the team is full, 3 of 3, not their own plan; no invitation is mailed; the link says full until a member leaves', async () => {
    await withPlans(async () => {
      const { getDb } = await import('@/lib/db/client');
      const { teamInvitation } = await import('@/lib/teams/invitations');
      const { noticeOf, noticeText } = await import('@/lib/web/account/notices');
      const free = await newUser({}, 'free');
      const owner: Person = { handle: free.user.handle, id: free.user.id, plugin: free.token, account: await tokenWithScopes(free.user.id, ['account']) };
      const [a, b, fourth] = await Promise.all([person(), person(), person()]);
      const team = await makeTeam(owner, 'Small crew');
      for (const p of [a, b]) expect((await join(p, team.invite_code)).status).toBe(200);
      const db = await getDb();
      expect(await teamInvitation(db, team.invite_code, fourth.id)).toMatchObject({ status: 'full', name: 'Small crew', owner: owner.handle, members: 3, limit: 3 });

      // The refused person: the team's own figures, never a plan (theirs is Pro, the owner's Free).
      const refused = await join(fourth, team.invite_code);
      expect(refused.status).toBe(403);
      const problem = await refused.json();
      expect(problem).toMatchObject({ code: 'plan_limit', errors: [{ path: 'team_members', code: 'plan_limit' }] });
      expect(problem.detail).toContain('it is full, 3 of 3');
      expect(problem.detail).not.toMatch(/your plan|Free|Pro/i);
      expect((await teamOf(team.id, owner)).members).toHaveLength(3);
      // The dashboard's words for it are the team's, not "your plan".
      const { joinTeam: joinByLib } = await import('@/lib/teams/teams');
      const notice = noticeOf(await joinByLib(db, fourth.id, team.invite_code).catch((err: unknown) => err));
      expect(notice).toBe('team_full');
      expect(noticeText(notice)).toMatch(/^This team is full/);

      // The owner cannot mail an invitation the team would refuse.
      const mailed = await send(invite, 'POST', `/teams/${team.id}/invitations`, { token: owner.account, body: { email: `x-${owner.handle}@example.test` }, params: { id: team.id } });
      expect(mailed.status).toBe(403);
      expect((await mailed.json()).detail).toContain('3 of 3');

      // A member leaves: the link opens again, and the fourth gets in.
      expect((await send(removeMember, 'DELETE', `/teams/${team.id}/members/${b.handle}`, { token: b.account, params: { id: team.id, handle: b.handle } })).status).toBe(204);
      expect(await teamInvitation(db, team.invite_code, fourth.id)).toMatchObject({ status: 'open', members: 2, limit: 3 });
      expect((await join(fourth, team.invite_code)).status).toBe(200);
      expect(await teamInvitation(db, team.invite_code, fourth.id)).toMatchObject({ status: 'member', members: 3 });
    });
  });

  it('on a default install (plans off) a team takes a fourth member, and its size names no limit', async () => {
    const { getDb } = await import('@/lib/db/client');
    const { teamRoom, roomText } = await import('@/lib/teams/teams');
    const free = await newUser({}, 'free');
    const owner: Person = { handle: free.user.handle, id: free.user.id, plugin: free.token, account: await tokenWithScopes(free.user.id, ['account']) };
    const team = await makeTeam(owner, 'Open crew');
    for (const p of await Promise.all([person(), person(), person()])) expect((await join(p, team.invite_code)).status).toBe(200);
    const room = await teamRoom(await getDb(), team.id);
    expect(room).toMatchObject({ members: 4, full: false });
    expect(roomText(room)).toBe('4 members');
  });
});

describe('teams: an invite link names what it opens, before anyone joins', () => {
  it('names the team and its owner to the code holder; an expired or unknown code names nothing; a sign-in on its way to it finds it', async () => {
    const { getDb } = await import('@/lib/db/client');
    const { sql } = await import('drizzle-orm');
    const { teamInvitation } = await import('@/lib/teams/invitations');
    const { invitationIn, joinPath } = await import('@/lib/web/account/invitation');
    const { createBoard } = await import('@/lib/leaderboards/boards');
    const db = await getDb();
    const [owner, guest] = await Promise.all([person(), person()]);
    const team = await makeTeam(owner, 'Night owls');
    expect(await teamInvitation(db, team.invite_code, null)).toMatchObject({ status: 'open', name: 'Night owls', owner: owner.handle, members: 1 });
    expect(await teamInvitation(db, team.invite_code, owner.id)).toMatchObject({ status: 'member' });
    expect(await teamInvitation(db, 'no-such-code', guest.id)).toEqual({ status: 'unknown' });

    // The path a sign-in or sign-up carries: the team's, the board's, or nothing for any other.
    expect(await invitationIn(db, joinPath('team', team.invite_code))).toEqual({ kind: 'team', name: 'Night owls', owner: owner.handle });
    const board = await createBoard(db, owner.id, { name: 'Friday club' });
    expect(await invitationIn(db, joinPath('board', board.invite_code))).toEqual({ kind: 'board', name: 'Friday club', owner: owner.handle });
    expect(await invitationIn(db, `/dashboard?code=${team.invite_code}`)).toBeNull();
    expect(await invitationIn(db, '/dashboard/teams?code=nothing-here')).toBeNull();

    await db.execute(sql`UPDATE teams SET invite_expires_at = now() - interval '1 second' WHERE id = ${team.id}::uuid`);
    expect(await teamInvitation(db, team.invite_code, guest.id)).toEqual({ status: 'expired' });
    expect(await invitationIn(db, joinPath('team', team.invite_code))).toBeNull();
  });

  it('a sign-up by mail on its way to an invite link: the confirmation link carries it, and an address with an account is sent to sign in towards it', async () => {
    const mailbox = await startMailbox();
    Object.assign(process.env, { SMTP_URL: mailbox.url, MAIL_FROM: 'Codetally <codetally@example.test>', SITE_URL: 'https://codetally.test' });
    resetConfig();
    try {
      const { getDb } = await import('@/lib/db/client');
      const { signUpByMail } = await import('@/lib/accounts/confirmation');
      const { joinPath } = await import('@/lib/web/account/invitation');
      const owner = await person();
      const team = await makeTeam(owner, 'Carried');
      const next = joinPath('team', team.invite_code);
      const handle = `carry_${owner.handle.slice(-6)}`;
      const email = `${handle}@example.test`;
      await (await signUpByMail(await getDb(), { handle, email, password: 'a long password here' }, '198.51.100.7', next)).delivered;
      const link = new URL(linkIn(await mailbox.next(email), 'https://codetally.test/confirm-email?'));
      expect(link.searchParams.get('next')).toBe(next);
      expect(link.searchParams.get('token')).toBeTruthy();

      // Signing up again with the address of an account: the mail's sign-in link goes on to the team.
      const taken = owner.handle;
      const known = `known-${taken}@example.test`;
      const { signUp } = await import('@/lib/accounts/sign-in');
      expect(await signUp(await getDb(), { handle: `k_${taken.slice(-8)}`, email: known, password: 'a long password here' }, '198.51.100.8')).toBeTruthy();
      await (await signUpByMail(await getDb(), { handle: `k2_${taken.slice(-8)}`, email: known, password: 'another long password' }, '198.51.100.9', next)).delivered;
      const signIn = new URL(linkIn(await mailbox.next(known), 'https://codetally.test/signin'));
      expect(signIn.searchParams.get('callbackUrl')).toBe(next);
    } finally {
      for (const name of ['SMTP_URL', 'MAIL_FROM', 'SITE_URL']) delete process.env[name];
      resetConfig();
      await mailbox.close();
    }
  });
});
