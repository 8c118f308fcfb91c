import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFlags, chromiumPath } from '../helpers/audit';
import { postForm } from '../helpers/forms';
import { startTestServer, type TestServer } from '../helpers/server';
import { linkIn, startMailbox, type Mailbox } from '../helpers/smtp';
import { startWakatimeStandIn, type StandIn } from '../helpers/wakatime-standin';

// Accounts a stranger cannot take, lock or use as a mailer: each finding of a security review of
// sign-up, mail, teams and imports, against a production build with mail through a real SMTP
// server and a stand-in for WakaTime's API. Visitors come from addresses of their own through a
// trusted proxy (X-Forwarded-For), as behind a real one. The sign-up, confirmation and reset
// flows are driven through the pages' own forms without JavaScript, and once in Chromium.

const site = 'https://accounts.codetally.test';
const ADMIN_TOKEN = 'accounts-admin-token-0123456789';
const WAKATIME_KEY = 'waka_7f3c1e2a-3b4d-4c5e-8f60-718293a4b5c6';
const password = 'correct horse battery';
let server: TestServer;
let mailbox: Mailbox;
let standIn: StandIn;
let api: string;

beforeAll(async () => {
  mailbox = await startMailbox();
  standIn = await startWakatimeStandIn(WAKATIME_KEY, [[{ id: 'ua-1', value: 'wakatime/v1.90.0 (linux) go1.22 vscode/1.90.0 vscode-wakatime/24.0.0', editor: 'VS Code', os: 'Linux' }]]);
  server = await startTestServer({
    SMTP_URL: mailbox.url,
    MAIL_FROM: 'codetally@example.test',
    SITE_URL: site,
    AUTH_PASSWORD: 'on',
    AUTH_SECRET: 'e2e-accounts-auth-secret-0123456789abcdef',
    ADMIN_TOKEN,
    TRUST_PROXY: '1',
    WAKATIME_API_URL: standIn.url,
    PLANS: 'on', // plans sold: the hand-over of a deleted owner's boards and teams meets Free's limits
  });
  api = `${server.baseUrl}/main/api/v1`;
});
afterAll(async () => {
  await server?.stop();
  server?.remove();
  await mailbox?.close();
  await standIn?.close();
});

const uniq = () => Math.random().toString(36).slice(2, 8);
/**
 * A visitor's own address, as a trusted proxy names it: a new one at every call, in an IPv6 /48 of
 * its own (limits count an IPv6 address by its /64, and mail by its /48 too), so never one a test
 * already spent (a stranger's).
 */
let addresses = Math.floor(Math.random() * 0xf000);
const from = () => ({ 'x-forwarded-for': `2001:db8:${(++addresses).toString(16)}::1` });
/** The path and query of a mailed link, on the test server. */
const onServer = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};
const confirmLinkOf = async (email: string, after: number) => onServer(linkIn(await mailbox.next(email, after), `${site}/confirm-email?token=`));

async function signUpForm(handle: string, email: string, pass: string, headers = from()) {
  return postForm(server.baseUrl, '/signup', { handle, email, password: pass }, '', headers);
}

/** A confirmed password account through the forms: its session cookie, and the address it signed in from. */
async function confirmedUser() {
  const handle = `a${uniq()}`;
  const email = `${handle}@example.test`;
  const sent = mailbox.to(email).length;
  expect((await signUpForm(handle, email, password)).location).toBe('/signup?sent=1');
  const home = from();
  const confirmed = await postForm(server.baseUrl, await confirmLinkOf(email, sent), { password }, '', home);
  expect(confirmed.location).toBe('/dashboard?welcome=1');
  return { handle, email, home, cookie: confirmed.cookies.split('; ').filter((c) => c.includes('session-token=')).join('; ') };
}

const asSession = (cookie: string) => ({ cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' });
const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

async function adminUser(settings: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${api}/admin/users`, {
    method: 'POST',
    headers: bearer(ADMIN_TOKEN),
    body: JSON.stringify({ handle: `u${uniq()}`, settings, token: { scopes: ['sync', 'account', 'stats'], format: 'uuid' }, ...extra }),
  });
  expect(res.status).toBe(201);
  const made = (await res.json()) as { user: { id: string; handle: string }; token: string };
  return { id: made.user.id, handle: made.user.handle, token: made.token };
}

async function onPlan(handle: string, plan: string) {
  const res = await fetch(`${api}/admin/users/${handle}`, { method: 'PATCH', headers: bearer(ADMIN_TOKEN), body: JSON.stringify({ plan }) });
  expect(res.status).toBe(200);
}

async function send(token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${api}${path}`, { method, headers: { ...bearer(token), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
}

describe('sign-up: a link confirms only what its mailbox holder chose', () => {
  it("a stranger's sign-up with someone's address never lets the stranger in", async () => {
    const email = `victim${uniq()}@example.test`;
    expect((await signUpForm(`s${uniq()}`, email, 'the stranger secret')).location).toBe('/signup?sent=1');
    const strangers = await confirmLinkOf(email, 0);
    // The owner opens the stranger's mail: without the stranger's password it confirms nothing.
    const guessed = await postForm(server.baseUrl, strangers, { password }, '', from());
    expect(guessed.body).toContain('not the password this sign-up was made with');
    // The owner signs up: their credentials replace the waiting ones. The link mailed minutes ago
    // is not mailed again; from now on it confirms the owner's password, never the stranger's.
    const handle = `v${uniq()}`;
    expect((await signUpForm(handle, email, password)).location).toBe('/signup?sent=1');
    expect(mailbox.to(email)).toHaveLength(1);
    const own = strangers;
    expect((await postForm(server.baseUrl, own, { password: 'the stranger secret' }, '', from())).cookies).not.toMatch(/session-token=/);
    const confirmed = await postForm(server.baseUrl, own, { password }, '', from());
    expect(confirmed.location).toBe('/dashboard?welcome=1');
    // The stranger's password signs nobody in; the owner's account is the owner's handle.
    expect((await postForm(server.baseUrl, '/signin', { email, password: 'the stranger secret' }, '', from())).cookies).not.toMatch(/session-token=/);
    const session = confirmed.cookies.split('; ').filter((c) => c.includes('session-token=')).join('; ');
    expect(((await (await fetch(`${api}/me`, { headers: { cookie: session } })).json()) as { handle: string }).handle).toBe(handle);
  });

  it('every sign-up mail spends the address ceiling (five an hour, its own sign-up included), and the owner still gets theirs', async () => {
    const { email, home } = await confirmedUser();
    const stranger = from();
    const sent = mailbox.to(email).length;
    expect(sent).toBe(1); // the sign-up's own confirmation
    for (let i = 0; i < 4; i++) expect((await signUpForm(`t${uniq()}`, email, 'another password here', stranger)).location).toBe('/signup?sent=1');
    await mailbox.next(email, sent + 3);
    const refused = await signUpForm(`t${uniq()}`, email, 'another password here', stranger);
    expect(refused.location).toBeNull();
    expect(refused.body).toMatch(/Too many attempts/);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.to(email)).toHaveLength(sent + 4);
    // Another stranger gets nothing either; the owner (from where they signed in) still gets their mail.
    expect((await postForm(server.baseUrl, '/forgot-password', { email }, '', from())).body).toMatch(/Too many attempts/);
    expect((await postForm(server.baseUrl, '/forgot-password', { email }, '', home)).body).toContain('If an account has this address');
    expect((await mailbox.next(email, sent + 4)).subject).toMatch(/reset/i);
  });
});

describe('password reset', () => {
  it("strangers' reset requests do not block the owner's, signed in or asking from where they signed in", async () => {
    const { email, home, cookie } = await confirmedUser();
    const sent = mailbox.to(email).length;
    // Strangers from many addresses, IPv4 and IPv6, get five mails an hour to the address in all
    // (the sign-up's own confirmation was the first).
    const answers = [];
    for (let i = 0; i < 8; i++) {
      const stranger = i % 2 ? from() : { 'x-forwarded-for': `198.18.${i}.${Math.floor(Math.random() * 250) + 1}` };
      answers.push((await postForm(server.baseUrl, '/forgot-password', { email }, '', stranger)).body.includes('Too many attempts'));
    }
    expect(answers).toEqual([false, false, false, false, true, true, true, true]);
    await mailbox.next(email, sent + 3);
    expect((await postForm(server.baseUrl, '/forgot-password', { email }, '', home)).body).toContain('If an account has this address');
    await mailbox.next(email, sent + 4);
    expect((await postForm(server.baseUrl, '/forgot-password', { email }, cookie, from())).body).toContain('If an account has this address');
    await mailbox.next(email, sent + 5);
  });

  it('revokes every token and session by default, and keeps tokens when unticked', async () => {
    for (const revoke of [true, false]) {
      const { email, cookie } = await confirmedUser();
      const made = await fetch(`${api}/me/tokens`, { method: 'POST', headers: { ...asSession(cookie), 'user-agent': 'curl/8.5.0' }, body: JSON.stringify({ name: 'laptop', scopes: ['sync', 'account'] }) });
      expect(made.status).toBe(201);
      const { token, info } = (await made.json()) as { token: string; info: { created_via: string; created_agent: string } };
      // The token list says where and from what each token was made.
      expect([info.created_via, info.created_agent]).toEqual(['dashboard', 'curl/8.5.0']);
      const sent = mailbox.to(email).length;
      await postForm(server.baseUrl, '/forgot-password', { email }, '', from());
      const reset = onServer(linkIn(await mailbox.next(email, sent), `${site}/reset-password?token=`));
      const page = await (await fetch(`${server.baseUrl}${reset}`)).text();
      expect(page).toMatch(/<input type="checkbox"[^>]* name="revoke_tokens" checked=""/);
      // A browser sends a ticked box as "on" and leaves an unticked one out.
      const set = await postForm(server.baseUrl, reset, { password: 'a brand new secret', ...(revoke && { revoke_tokens: 'on' }) }, '', from());
      expect(set.location).toBe('/signin?reset=1');
      expect((await fetch(`${api}/me`, { headers: { cookie } })).status).toBe(401);
      expect((await fetch(`${api}/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(revoke ? 401 : 200);
    }
  });

  it('a token made through the API names the token it was made with', async () => {
    const user = await adminUser();
    const made = await send(user.token, 'POST', '/me/tokens', { name: 'ci' }, { 'user-agent': 'python-requests/2.31.0' });
    const { info } = (await made.json()) as { info: { created_via: string; created_agent: string; created_with: string } };
    expect(info).toMatchObject({ created_via: 'api', created_agent: 'python-requests/2.31.0', created_with: user.token.slice(0, 8) });
  });
});

describe('mail a stranger writes', () => {
  it("an invitation's subject holds no text another user wrote, and the team's name is labelled as a name", async () => {
    const owner = await adminUser();
    const name = 'Your account is suspended: sign in at https://evil.example';
    const team = (await (await send(owner.token, 'POST', '/teams', { name })).json()) as { id: string };
    const to = `invitee${uniq()}@example.test`;
    expect((await send(owner.token, 'POST', `/teams/${team.id}/invitations`, { email: to })).status).toBe(202);
    const mail = await mailbox.next(to, 0);
    expect(mail.subject).toBe('An invitation to a team on Codetally');
    expect(mail.text).toContain(`The team's name, as @${owner.handle} wrote it: «${name}». Codetally did not write it`);
  });

  it("invitations spend the address's ceiling with the inviter's budget, never the owner's own mail", async () => {
    const owner = await adminUser();
    const team = (await (await send(owner.token, 'POST', '/teams', { name: 'Friends' })).json()) as { id: string };
    const { email, home } = await confirmedUser();
    const sent = mailbox.to(email).length;
    // The address's ceiling: five an hour, its own sign-up's confirmation included.
    for (let i = 0; i < 4; i++) expect((await send(owner.token, 'POST', `/teams/${team.id}/invitations`, { email })).status).toBe(202);
    expect((await send(owner.token, 'POST', `/teams/${team.id}/invitations`, { email })).status).toBe(429);
    await mailbox.next(email, sent + 3);
    await postForm(server.baseUrl, '/forgot-password', { email }, '', home);
    expect((await mailbox.next(email, sent + 4)).subject).toMatch(/reset/i);
  });

  it('dashboard pages show messages from a fixed list, never text from the address', async () => {
    const { cookie } = await confirmedUser();
    const planted = await (await fetch(`${server.baseUrl}/dashboard/teams?error=${encodeURIComponent('Your account is suspended')}`, { headers: { cookie } })).text();
    expect(planted).not.toContain('Your account is suspended');
    const known = await (await fetch(`${server.baseUrl}/dashboard/teams?error=last_owner`, { headers: { cookie } })).text();
    expect(known).toContain('only owner cannot leave or step down');
  });
});

describe('imports ask WakaTime nothing a check could refuse first', () => {
  const importWithKey = (token: string, body: BodyInit, init: RequestInit = {}) =>
    fetch(`${api}/me/imports`, { method: 'POST', headers: { ...bearer(token), 'x-wakatime-api-key': WAKATIME_KEY }, body, ...init });

  it('no look-up before the import slot and the first bytes, at most ten an hour, and none past its time', async () => {
    const user = await adminUser();
    standIn.requests.length = 0;
    for (let i = 0; i < 10; i++) expect((await importWithKey(user.token, 'x')).status).toBe(422);
    expect(standIn.requests).toHaveLength(0);

    // An upload holding the import slot: a second import is refused without asking WakaTime.
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (push = c) });
    const first = importWithKey(user.token, stream, { duplex: 'half' } as RequestInit);
    push.enqueue(new TextEncoder().encode('{"user": {}, "days": ['));
    await expect.poll(async () => (await send(user.token, 'GET', '/me/imports').then((r) => r.json())).imports?.length ?? 0).toBe(1);
    const asked = standIn.requests.length;
    expect((await importWithKey(user.token, '{"days": []}')).status).toBe(409);
    expect(standIn.requests).toHaveLength(asked);
    push.enqueue(new TextEncoder().encode(']}'));
    push.close();
    expect((await first).status).toBe(202);

    // A key WakaTime refuses: each look-up counts, answered or not; the eleventh is not made. A
    // look-up asks for the User-Agents and the machine names at once: two requests, one look-up.
    standIn.answer(() => ({ status: 401, body: { error: 'Unauthorized' } }));
    try {
      await expect.poll(async () => (await importWithKey(user.token, '{"days": []}')).status, { timeout: 30_000 }).toBe(429);
      const made = standIn.requests.length;
      expect(standIn.requests.filter((r) => r.path.endsWith('/user_agents'))).toHaveLength(10);
      expect((await importWithKey(user.token, '{"days": []}')).status).toBe(429);
      expect(standIn.requests).toHaveLength(made);
    } finally {
      standIn.answer(null);
    }
  });

  it('a look-up WakaTime never answers ends at its time with 502, nothing kept', async () => {
    const user = await adminUser();
    standIn.answer(() => 'hang');
    try {
      const res = await importWithKey(user.token, '{"days": []}');
      expect(res.status).toBe(502);
      expect(((await res.json()) as { code: string }).code).toBe('wakatime_unavailable');
    } finally {
      standIn.answer(null);
    }
    expect(((await (await send(user.token, 'GET', '/me/imports')).json()) as { imports: unknown[] }).imports).toEqual([]);
  });
});

describe('limits with no holes', () => {
  it('a user owns at most 20 teams, whatever the plan', async () => {
    const user = await adminUser();
    for (let i = 0; i < 20; i++) expect((await send(user.token, 'POST', '/teams', { name: `Team ${i}` })).status).toBe(201);
    const refused = await send(user.token, 'POST', '/teams', { name: 'One too many' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errors: { path: string }[] }).errors[0].path).toBe('teams');
  });

  it("a deleted owner's boards and teams go only to members with room, else are deleted", async () => {
    const owner = await adminUser();
    await onPlan(owner.handle, 'team');
    const [full, roomy, d, e, f] = await Promise.all([adminUser(), adminUser(), adminUser(), adminUser(), adminUser()]);
    await onPlan(roomy.handle, 'pro');
    // `full` already owns as many boards as the Free plan allows (one).
    expect((await send(full.token, 'POST', '/leaderboards', { name: 'Mine' })).status).toBe(201);
    const board = async (members: { token: string }[]) => {
      const made = (await (await send(owner.token, 'POST', '/leaderboards', { name: `b${uniq()}` })).json()) as { id: string; invite_code: string };
      for (const m of members) expect((await send(m.token, 'POST', '/leaderboards/join', { code: made.invite_code })).status).toBe(200);
      return made.id;
    };
    const team = async (members: { token: string }[]) => {
      const made = (await (await send(owner.token, 'POST', '/teams', { name: `t${uniq()}` })).json()) as { id: string; invite_code: string };
      for (const m of members) expect((await send(m.token, 'POST', '/teams/join', { code: made.invite_code })).status).toBe(200);
      return made.id;
    };
    const handedBoard = await board([full, roomy]);
    const deletedBoard = await board([full]);
    // Four members stay: more than the Free plan's three a team, within Pro's ten.
    const handedTeam = await team([full, d, e, roomy]);
    const deletedTeam = await team([full, d, e, f]);
    expect((await send(owner.token, 'DELETE', '/me')).status).toBe(204);

    const boardOf = async (u: { token: string }, id: string) => send(u.token, 'GET', `/leaderboards/${id}`);
    expect((await (await boardOf(roomy, handedBoard)).json()).role).toBe('owner');
    expect((await boardOf(full, deletedBoard)).status).toBe(404);
    const members = (await (await send(roomy.token, 'GET', `/teams/${handedTeam}`)).json()) as { members: { handle: string; role: string }[] };
    expect(members.members.find((m) => m.handle === roomy.handle)?.role).toBe('owner');
    expect((await send(full.token, 'GET', `/teams/${deletedTeam}`)).status).toBe(404);
  });
});

describe('what other surfaces give away', () => {
  const today = new Date().toISOString().slice(0, 10);
  const hour = new Date().getUTCHours();

  it("a goal on a hidden project says 'a hidden project' wherever its title shows", async () => {
    const user = await adminUser();
    const project = `secret-client-${uniq()}`;
    expect((await send(user.token, 'POST', '/sync/activities', { activities: [{ language: 'Go', time: 600, date: today, hour, project_name: project }] })).status).toBe(200);
    expect((await send(user.token, 'POST', '/me/goals', { period: 'day', seconds: 3600, project })).status).toBe(201);
    expect((await send(user.token, 'PUT', `/me/projects/${encodeURIComponent(project)}/hidden`, { hidden: true })).status).toBe(200);
    const own = (await (await send(user.token, 'GET', '/me/goals')).json()) as { goals: { title: string }[] };
    expect(own.goals[0].title).toBe('Code 1 hr per day on a hidden project');
    const waka = await (await fetch(`${server.baseUrl}/api/wakatime/v1/users/current/goals`, { headers: bearer(user.token) })).text();
    expect(waka).toContain('a hidden project');
    expect(waka).not.toContain(project);
  });

  it("a board in WakaTime's shape names a member with a private profile by handle, not id", async () => {
    const open = await adminUser({ profile_public: true });
    const closed = await adminUser();
    const made = (await (await send(open.token, 'POST', '/leaderboards', { name: 'Pair' })).json()) as { id: string; invite_code: string };
    expect((await send(closed.token, 'POST', '/leaderboards/join', { code: made.invite_code })).status).toBe(200);
    for (const u of [open, closed]) await send(u.token, 'POST', '/sync/activities', { activities: [{ language: 'Go', time: 900, date: today, hour }] });
    const board = (await (await fetch(`${server.baseUrl}/api/wakatime/v1/users/current/leaderboards/${made.id}`, { headers: bearer(open.token) })).json()) as {
      data: { user: { id: string; username: string } }[];
    };
    const idOf = (handle: string) => board.data.find((e) => e.user.username === handle)?.user.id;
    expect(idOf(open.handle)).toBe(open.id);
    expect(idOf(closed.handle)).toBe(closed.handle);
    expect(JSON.stringify(board)).not.toContain(closed.id);
  });

  it("public README stats give dates at UTC midnight, not the owner's own midnights", async () => {
    const user = await adminUser({ profile_public: true }, { timezone: 'Asia/Kolkata' });
    const stats = (await (await fetch(`${server.baseUrl}/api/v1/users/${user.handle}/stats`)).json()) as { data: Record<string, unknown> };
    expect(stats.data.start).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
    expect(stats.data.end).toMatch(/^\d{4}-\d{2}-\d{2}T23:59:59Z$/);
    expect(stats.data).not.toHaveProperty('timezone');
  });
});

const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser tests, but there is no Chromium at ${chromiumPath}`);

describe.runIf(hasChromium)('in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  });
  afterAll(async () => browser?.close());

  it('signs up, confirms with the password, and resets it with every token revoked by default', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const handle = `c${uniq()}`;
    const email = `${handle}@example.test`;
    await page.goto(`${server.baseUrl}/signup`);
    await page.locator('input[name="handle"]').fill(handle);
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('form button[type="submit"]').click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();

    await page.goto(`${server.baseUrl}${await confirmLinkOf(email, 0)}`);
    await page.getByLabel('The password you chose when you signed up').fill(password);
    await page.getByRole('button', { name: 'Confirm my email and sign in' }).click();
    await expect.poll(() => page.url(), { timeout: 20_000 }).toMatch(/\/dashboard\?welcome=1$/);

    await page.context().clearCookies();
    await page.goto(`${server.baseUrl}/forgot-password`);
    await page.locator('input[name="email"]').fill(email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText('If an account has this address').waitFor();
    await page.goto(`${server.baseUrl}${onServer(linkIn(await mailbox.next(email, 1), `${site}/reset-password?token=`))}`);
    const revoke = page.getByRole('checkbox', { name: /revoke every API token/ });
    expect(await revoke.isChecked()).toBe(true);
    await page.getByLabel('New password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect.poll(() => page.url(), { timeout: 20_000 }).toMatch(/\/signin\?reset=1$/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
