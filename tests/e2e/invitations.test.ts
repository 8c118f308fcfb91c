import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, chromiumFlags, chromiumPath, describeViolation, pageWidth, stickingOut } from '../helpers/audit';
import { postForm } from '../helpers/forms';
import { startTestServer, type TestServer } from '../helpers/server';
import { linkIn, startMailbox, type Mailbox } from '../helpers/smtp';

// An invitation survives the detour through sign-up: a team's invitation mail opened by someone
// without an account leads through "Create an account" and the confirmation mail to a page that
// names the team, and one click later to the team's figures; a private board's link the same way.
// Where the visitor is going is a path of this site only (no open redirect). A full team is shown
// as full to its owner before an invitation goes out, and the person refused is told the team's
// limit. Against a production build with mail through a real SMTP server, plans sold (PLANS=on:
// a Free owner's team holds 3), in Chromium at a desktop's and a phone's width, light and dark,
// with axe on every page passed.

const site = 'https://invitations.codetally.test';
const ADMIN_TOKEN = 'invitations-admin-token-0123456789';
const password = 'correct horse battery';
let server: TestServer;
let mailbox: Mailbox;
let api: string;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startTestServer({
    SMTP_URL: mailbox.url,
    MAIL_FROM: 'codetally@example.test',
    SITE_URL: site,
    AUTH_PASSWORD: 'on',
    AUTH_SECRET: 'e2e-invitations-auth-secret-0123456789abcdef',
    ADMIN_TOKEN,
    TRUST_PROXY: '1',
    PLANS: 'on',
  });
  api = `${server.baseUrl}/main/api/v1`;
});
afterAll(async () => {
  await server?.stop();
  server?.remove();
  await mailbox?.close();
});

const uniq = () => Math.random().toString(36).slice(2, 8);
/** A visitor's own address, as a trusted proxy names it: a new /48 at every call (sign-ups and mail are limited per address). */
let addresses = Math.floor(Math.random() * 0xf000);
const from = () => ({ 'x-forwarded-for': `2001:db8:${(++addresses).toString(16)}::1` });
/** The path and query of a mailed link, on the test server. */
const onServer = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const today = new Date().toISOString().slice(0, 10);

/** An account made by the operator, with a token that syncs and manages the account, and 30 minutes of Go today. */
async function codingUser() {
  const res = await fetch(`${api}/admin/users`, {
    method: 'POST',
    headers: bearer(ADMIN_TOKEN),
    body: JSON.stringify({ handle: `o${uniq()}`, token: { scopes: ['sync', 'account'] } }),
  });
  expect(res.status).toBe(201);
  const made = (await res.json()) as { user: { handle: string }; token: string };
  const synced = await fetch(`${api}/sync/activities`, { method: 'POST', headers: bearer(made.token), body: JSON.stringify({ activities: [{ language: 'Go', time: 1800, date: today, hour: 4 }] }) });
  expect(synced.status).toBe(200);
  return { handle: made.user.handle, token: made.token };
}

async function send(token: string, method: string, path: string, body?: unknown) {
  return fetch(`${api}${path}`, { method, headers: bearer(token), body: body === undefined ? undefined : JSON.stringify(body) });
}

const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium && process.env.CI) throw new Error(`CI runs the browser tests, but there is no Chromium at ${chromiumPath}`);

const looks = [
  { width: 1366, height: 900, theme: 'light' },
  { width: 390, height: 844, theme: 'dark' },
  { width: 390, height: 844, theme: 'light' },
  { width: 1366, height: 900, theme: 'dark' },
] as const;
type Look = (typeof looks)[number];

describe.runIf(hasChromium)('in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  });
  afterAll(async () => browser?.close());

  /** A visitor's browser at one look, from an address of its own; every page error kept. */
  async function visitor(look: Look): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: look.width, height: look.height }, colorScheme: look.theme, timezoneId: 'UTC', extraHTTPHeaders: from() });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    return { context, page, errors };
  }

  /** The page as it is now: no axe violation, nothing wider than the viewport. */
  async function sound(page: Page, look: Look, what: string) {
    await page.waitForLoadState('networkidle');
    // A page reached by a redirect after a form gets its <title> from the streamed metadata,
    // which can land a moment after the network is idle; it must land.
    await page.waitForFunction(() => document.title.trim() !== '', undefined, { timeout: 10_000 });
    const { violations } = await axe(page);
    expect(violations.map(describeViolation), `${what} at ${look.width} px, ${look.theme}`).toEqual([]);
    expect(await pageWidth(page), `${what} at ${look.width} px: ${(await stickingOut(page)).join(', ')}`).toBeLessThanOrEqual(look.width);
  }

  async function arrivesAt(page: Page, url: RegExp) {
    await expect.poll(() => page.url(), { timeout: 20_000 }).toMatch(url);
    await page.waitForLoadState('networkidle');
  }

  /** From "Create an account" on: the form, the confirmation mail, the password; where the mailed link lands. */
  async function signUpThroughMail(page: Page, look: Look, email: string) {
    const handle = email.split('@')[0];
    const sent = mailbox.to(email).length;
    await page.getByLabel('Handle').fill(handle);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    await sound(page, look, 'check your mail');
    const confirm = linkIn(await mailbox.next(email, sent), `${site}/confirm-email?token=`);
    await page.goto(`${server.baseUrl}${onServer(confirm)}`);
    await sound(page, look, 'the confirmation page');
    await page.getByLabel('The password you chose when you signed up').fill(password);
    await page.getByRole('button', { name: 'Confirm my email and sign in' }).click();
    return new URL(confirm);
  }

  it.each(looks)('a team invitation mailed to someone without an account leads through sign-up and the confirmation mail to the team, then to its figures (%o)', async (look) => {
    const owner = await codingUser();
    const made = await send(owner.token, 'POST', '/teams', { name: 'Night shift' });
    expect(made.status).toBe(201);
    const team = (await made.json()) as { id: string; invite_code: string };
    const email = `n${uniq()}@example.test`;
    expect((await send(owner.token, 'POST', `/teams/${team.id}/invitations`, { email })).status).toBe(202);
    const invitation = linkIn(await mailbox.next(email), `${site}/dashboard/teams?code=`);

    const { context, page, errors } = await visitor(look);
    // Signed out, the link asks for a sign-in, naming the team and who invites.
    await page.goto(`${server.baseUrl}${onServer(invitation)}`);
    await arrivesAt(page, /\/signin\?callbackUrl=/);
    const notice = page.locator('[data-invitation="team"]');
    await expect(notice.textContent()).resolves.toContain(`@${owner.handle} invites you to join the team «Night shift»`);
    await sound(page, look, 'sign-in, on the way to an invitation');

    // "Create an account" keeps it, and so does the mailed link.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await arrivesAt(page, /\/signup\?callbackUrl=/);
    await expect(page.locator('[data-invitation="team"]').textContent()).resolves.toContain('«Night shift»');
    await sound(page, look, 'sign-up, on the way to an invitation');
    const confirm = await signUpThroughMail(page, look, email);
    expect(confirm.searchParams.get('next')).toBe(onServer(invitation));

    // Confirmed and signed in: the invitation's page names the team; opening it joined nothing.
    await arrivesAt(page, new RegExp(`/dashboard/teams\\?code=${team.invite_code}$`));
    await expect(page.getByRole('heading', { name: 'Join «Night shift»' }).count()).resolves.toBe(1);
    await expect(page.locator('[data-invitation="open"]').textContent()).resolves.toContain(`A team of @${owner.handle}'s, 1 of 3 members`);
    await sound(page, look, 'the invitation page');
    const members = async () => ((await (await send(owner.token, 'GET', `/teams/${team.id}`)).json()) as { members: { handle: string }[] }).members;
    expect(await members()).toHaveLength(1);

    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await arrivesAt(page, new RegExp(`/dashboard/teams/${team.id}$`));
    expect(await members()).toHaveLength(2);
    const table = await page.getByRole('table', { name: 'Members and what each shares with the team' }).textContent();
    expect(table).toContain(owner.handle);
    expect(table).toContain('30 mins');
    await sound(page, look, 'the team page, as a new member');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a private leaderboard\'s link opened signed out leads through sign-up and the mail to the board', async () => {
    const look = looks[1];
    const owner = await codingUser();
    const made = await send(owner.token, 'POST', '/leaderboards', { name: 'Friday club' });
    expect(made.status).toBe(201);
    const board = (await made.json()) as { id: string; invite_code: string };
    const { context, page, errors } = await visitor(look);
    await page.goto(`${server.baseUrl}/dashboard/leaderboards/join?code=${board.invite_code}`);
    await arrivesAt(page, /\/signin\?callbackUrl=/);
    await expect(page.locator('[data-invitation="board"]').textContent()).resolves.toContain('the private leaderboard «Friday club»');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await arrivesAt(page, /\/signup\?callbackUrl=/);
    await signUpThroughMail(page, look, `b${uniq()}@example.test`);
    await arrivesAt(page, new RegExp(`/dashboard/leaderboards/join\\?code=${board.invite_code}$`));
    await expect(page.locator('[data-invitation="open"]').textContent()).resolves.toContain(`«Friday club», @${owner.handle}'s, 1 member`);
    await sound(page, look, 'the board\'s invitation page');
    await page.getByRole('button', { name: 'Join this leaderboard' }).click();
    await arrivesAt(page, new RegExp(`/dashboard/leaderboards/${board.id}$`));
    expect(await page.getByRole('table').first().textContent()).toContain(owner.handle);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a full team is shown as full to its owner, who cannot mail an invitation; the fourth person is told the team is full, 3 of 3', async () => {
    // The owner: a password account on Free (3 members), signed in in the browser at a phone's width.
    const look = looks[1];
    const { context, page, errors } = await visitor(look);
    await page.goto(`${server.baseUrl}/signup`);
    await signUpThroughMail(page, look, `f${uniq()}@example.test`);
    await arrivesAt(page, /\/dashboard\?welcome=1$/);
    await page.goto(`${server.baseUrl}/dashboard/teams`);
    await page.getByLabel('Name').fill('Small crew');
    await page.getByRole('button', { name: 'Make the team' }).click();
    await arrivesAt(page, /\/dashboard\/teams\/[0-9a-f-]+$/);
    const teamId = new URL(page.url()).pathname.split('/').pop()!;
    // The invite link: a field to select by hand, and a button that copies it.
    const link = await page.getByLabel('Invite link').inputValue();
    expect(link.startsWith(`${site}/dashboard/teams?code=`)).toBe(true);
    await expect(page.getByRole('button', { name: 'Copy invite link' }).count()).resolves.toBe(1);
    await expect(page.getByTestId('team-size').textContent()).resolves.toBe('1 of 3 members');
    const code = new URL(link).searchParams.get('code')!;

    const [a, b, fourth] = await Promise.all([codingUser(), codingUser(), codingUser()]);
    for (const m of [a, b]) expect((await send(m.token, 'POST', '/teams/join', { code })).status).toBe(200);
    await page.reload();
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('team-size').textContent()).resolves.toBe('3 of 3 members — the team is full');
    await expect(page.getByTestId('team-full').textContent()).resolves.toContain('This team is full: 3 of 3 members');
    await expect(page.getByLabel('Send the link to').count()).resolves.toBe(0);
    // The member table on a phone: each member's role select and "Remove" within the screen.
    for (const control of [page.getByLabel(`Role of ${a.handle}`), page.getByRole('button', { name: `Remove ${b.handle} from the team` })]) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(look.width);
    }
    await sound(page, look, 'a full team, as its owner sees it');
    // The API refuses the invitation too, and mails nothing.
    const owned = (await (await fetch(`${api}/teams/${teamId}/invitations`, { method: 'POST', headers: { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; '), 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, body: JSON.stringify({ email: 'late@example.test' }) })).json()) as { code: string; detail: string };
    expect(owned.code).toBe('plan_limit');
    expect(owned.detail).toContain('3 of 3');

    const refused = await send(fourth.token, 'POST', '/teams/join', { code });
    expect(refused.status).toBe(403);
    const problem = (await refused.json()) as { detail: string };
    expect(problem.detail).toContain('it is full, 3 of 3');
    expect(problem.detail).not.toMatch(/your plan/i);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('where a visitor is going is a path of this site only', () => {
  it('a sign-up, its confirmation mail and the confirmation page drop an address elsewhere', async () => {
    const handle = `r${uniq()}`;
    const email = `${handle}@example.test`;
    const home = from();
    // The sign-up form of an invitation, sent with another site's address in place of the path.
    const answer = await postForm(server.baseUrl, '/signup?callbackUrl=%2Fdashboard%2Fteams%3Fcode%3Dx', { handle, email, password, callbackUrl: '//evil.example/x' }, '', home);
    expect(answer.location).toBe('/signup?sent=1');
    const confirm = new URL(linkIn(await mailbox.next(email), `${site}/confirm-email?token=`));
    expect(confirm.searchParams.has('next')).toBe(false);
    // A confirmation link whose `next` was changed to another site: its form carries nothing.
    confirm.searchParams.set('next', 'https://evil.example/');
    const html = await (await fetch(`${server.baseUrl}${confirm.pathname}${confirm.search}`)).text();
    expect(html).not.toContain('name="next"');
    // A form posted with another site in `next` (the page had a path of the site): confirming lands on the welcome.
    confirm.searchParams.set('next', '/dashboard/teams?code=x');
    const confirmed = await postForm(server.baseUrl, `${confirm.pathname}${confirm.search}`, { password, next: '/\\evil.example' }, '', home);
    expect(confirmed.location).toBe('/dashboard?welcome=1');
    // The sign-in page's "Create an account" carries only a path of the site.
    for (const elsewhere of ['https://evil.example/', '//evil.example', '/\\evil.example']) {
      const page = await (await fetch(`${server.baseUrl}/signin?${new URLSearchParams({ callbackUrl: elsewhere })}`)).text();
      expect(page).toContain('href="/signup"');
    }
    const kept = await (await fetch(`${server.baseUrl}/signin?${new URLSearchParams({ callbackUrl: '/dashboard/teams?code=abc' })}`)).text();
    expect(kept).toContain(`href="/signup?callbackUrl=%2Fdashboard%2Fteams%3Fcode%3Dabc"`);
  });
});
