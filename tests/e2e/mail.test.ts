import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config';
import { unsubscribeToken } from '../../lib/mail/unsubscribe';
import { postForm } from '../helpers/forms';
import { startTestServer, type TestServer } from '../helpers/server';
import { linkIn, startMailbox, type Mailbox } from '../helpers/smtp';

// Mail through the real server and its pages, as a browser without JavaScript uses them:
// sign-up waits for the mailed confirmation, a forgotten password is reset by a mailed link, and
// the weekly report's unsubscribe link works in one POST (proxy.ts) and as a page with a button.
// Links name SITE_URL, which here is not where the test server listens: the test follows their
// path and query on the server.

const site = 'https://mail.codetally.test';
/** The server's session key, given to this process too: it makes the unsubscribe token the server's mail would carry. */
const AUTH_SECRET = 'e2e-mail-auth-secret-0123456789abcdef';
let server: TestServer;
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startTestServer({ SMTP_URL: mailbox.url, MAIL_FROM: 'codetally@example.test', SITE_URL: site, AUTH_PASSWORD: 'on', AUTH_SECRET });
  process.env.AUTH_SECRET = AUTH_SECRET;
  resetConfig();
});
afterAll(async () => {
  await server?.stop();
  server?.remove();
  await mailbox?.close();
});

/** A link of a mail, at the test server. */
const onServer = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};
const uniq = () => Math.random().toString(36).slice(2, 8);
const password = 'correct horse battery';

async function signUp() {
  const handle = `m${uniq()}`;
  const email = `${handle}@example.test`;
  const answer = await postForm(server.baseUrl, '/signup', { handle, email, password });
  expect(answer.status).toBe(303);
  expect(answer.location).toBe('/signup?sent=1');
  return { handle, email, link: onServer(linkIn(await mailbox.next(email), `${site}/confirm-email?token=`)) };
}

describe('mail on the site', () => {
  it('signs up, refuses to sign in until the address is confirmed, then signs in', async () => {
    const { email, link } = await signUp();
    const early = await postForm(server.baseUrl, '/signin', { email, password });
    expect(early.cookies).not.toMatch(/session-token=/);
    expect(early.body).toContain('Confirm your email first');
    expect(early.body).toContain('Send the link again');

    // Opening the link changes nothing; its form, with the sign-up's password, confirms and signs in.
    const page = await fetch(`${server.baseUrl}${link}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Confirm my email');
    const wrong = await postForm(server.baseUrl, link, { password: 'not the password at all' });
    expect(wrong.body).toContain('not the password this sign-up was made with');
    const confirmed = await postForm(server.baseUrl, link, { password });
    expect([confirmed.status, confirmed.location]).toEqual([303, '/dashboard?welcome=1']);
    expect(confirmed.cookies).toMatch(/session-token=/);
    expect((await postForm(server.baseUrl, '/signin', { email, password })).cookies).toMatch(/session-token=/);
  });

  it('a sign-up with a taken address answers the same: while unconfirmed the link on its way stands, once confirmed a mail saying it has an account', async () => {
    const { email, link } = await signUp();
    const again = await postForm(server.baseUrl, '/signup', { handle: `m${uniq()}`, email, password });
    expect([again.status, again.location]).toEqual([303, '/signup?sent=1']);
    // The link mailed minutes ago is not mailed again: it confirms the newest sign-up.
    expect(mailbox.to(email)).toHaveLength(1);
    expect((await postForm(server.baseUrl, link, { password })).location).toBe('/dashboard?welcome=1');
    const third = await postForm(server.baseUrl, '/signup', { handle: `m${uniq()}`, email, password });
    expect([third.status, third.location]).toEqual([303, '/signup?sent=1']);
    expect((await mailbox.next(email, 1)).subject).toMatch(/already have/i);
  });

  it('resets a forgotten password by the mailed link; unknown addresses get the same answer', async () => {
    const { email, link } = await signUp();
    await postForm(server.baseUrl, link, { password });
    const known = await postForm(server.baseUrl, '/forgot-password', { email });
    const unknownEmail = `nobody${uniq()}@example.test`;
    const unknown = await postForm(server.baseUrl, '/forgot-password', { email: unknownEmail });
    // The page echoes the address typed; apart from it, the answers are the same.
    const message = (body: string, address: string) => /If an account has this address[^<]*/.exec(body.replaceAll(address, '<address>'))?.[0];
    expect(message(known.body, email)).toBeDefined();
    expect(message(unknown.body, unknownEmail)).toBe(message(known.body, email));

    const reset = onServer(linkIn(await mailbox.next(email, 1), `${site}/reset-password?token=`));
    const page = await fetch(`${server.baseUrl}${reset}`);
    // The token in the address is never sent on as a Referer: the page's own policy says so.
    expect(await page.text()).toMatch(/<meta name="referrer" content="no-referrer"\/?>/);
    const set = await postForm(server.baseUrl, reset, { password: 'a brand new secret', revoke_tokens: 'on' });
    expect([set.status, set.location]).toEqual([303, '/signin?reset=1']);
    expect((await postForm(server.baseUrl, '/signin', { email, password: 'a brand new secret' })).cookies).toMatch(/session-token=/);
    // The link worked once.
    expect(await (await fetch(`${server.baseUrl}${reset}`)).text()).toContain('does not work any more');
  });

  it('the sign-in page offers the reset by mail', async () => {
    expect(await (await fetch(`${server.baseUrl}/signin`)).text()).toContain('href="/forgot-password"');
  });
});

describe('the unsubscribe link', () => {
  it('a GET shows a button and changes nothing; a one-click POST to the same address turns the report off', async () => {
    // A subscriber: signed up, confirmed, report turned on through the API with a session.
    const { email, link } = await signUp();
    await postForm(server.baseUrl, link, { password });
    const cookie = (await postForm(server.baseUrl, '/signin', { email, password })).cookies;
    const me = () => fetch(`${server.baseUrl}/main/api/v1/me`, { headers: { cookie } }).then((r) => r.json());
    const on = await fetch(`${server.baseUrl}/main/api/v1/me`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json', origin: server.baseUrl, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ settings: { weekly_report: true } }),
    });
    expect(on.status).toBe(200);
    const { id } = await me();
    const unsubscribe = `/unsubscribe?${new URLSearchParams({ token: unsubscribeToken(id) })}`;
    const page = await fetch(`${server.baseUrl}${unsubscribe}`);
    expect([page.status, (await page.text()).includes('Unsubscribe')]).toEqual([200, true]);
    expect((await me()).settings.weekly_report).toBe(true);
    const oneClick = (path: string) =>
      fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click', redirect: 'manual' });
    // A token the server did not make is refused through the same address.
    expect((await oneClick(`/unsubscribe?token=${id}.forged`)).status).toBe(400);
    expect((await me()).settings.weekly_report).toBe(true);
    const done = await oneClick(unsubscribe);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ weekly_report: false });
    expect((await me()).settings.weekly_report).toBe(false);
  });
});
