import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getMe } from '@/app/main/api/v1/me/route';
import { runCommand } from '@/lib/admin/commands';
import { confirmEmail, QUIET_MINUTES, resendConfirmation, signUpByMail } from '@/lib/accounts/confirmation';
import { requestPasswordReset, resetLinkWorks, resetPassword } from '@/lib/accounts/password-reset';
import { checkPassword, signUp } from '@/lib/accounts/sign-in';
import { issueToken, listTokens } from '@/lib/accounts/tokens';
import { TooManyAttempts } from '@/lib/auth/attempts';
import { runAuthAction } from '@/lib/auth/authjs';
import { resetConfig } from '@/lib/config';
import { getDb, rows } from '@/lib/db/client';
import { linkIn, startMailbox, type Mailbox } from '../helpers/smtp';

// Password reset and address confirmation by mail, against a real SMTP server: the links work
// once, for their time, only the newest one; asking answers alike for unknown addresses; without
// mail, the operator's command resets a password.

const site = 'https://codetally.test';
const origin = 'http://localhost';
const password = 'correct horse battery';
const uniq = () => Math.random().toString(36).slice(2, 8);
/** Each test asks from an address of its own: requests for mail are limited per address. */
const address = () => `203.0.113.${Math.floor(Math.random() * 250)}-${uniq()}`;

let mailbox: Mailbox;

function mailOn(on: boolean) {
  if (on) Object.assign(process.env, { SMTP_URL: mailbox.url, MAIL_FROM: 'Codetally <codetally@example.test>', SITE_URL: site });
  else for (const name of ['SMTP_URL', 'MAIL_FROM', 'SITE_URL']) delete process.env[name];
  resetConfig();
}

beforeAll(async () => {
  mailbox = await startMailbox();
  process.env.AUTH_PASSWORD = 'on';
  mailOn(true);
});
afterAll(async () => {
  mailOn(false);
  await mailbox.close();
});

const sessionCookie = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('authjs.session-token=') && c !== 'authjs.session-token=');

/** Signs in through Auth.js: the session cookie, or why it was refused (the code Auth.js's redirect names). */
async function signIn(email: string, pass: string): Promise<{ cookie?: string; refused?: string }> {
  const res = await runAuthAction(origin, 'callback/credentials', { email, password: pass, callbackUrl: '/dashboard' }, { cookie: '' });
  const cookie = sessionCookie(res);
  if (cookie) return { cookie };
  const location = new URL(res.headers.get('location') ?? '/', origin);
  return { refused: location.searchParams.get('code') ?? location.searchParams.get('error') ?? 'unknown' };
}

const signedIn = async (cookie: string) => (await getMe(new Request(`${origin}/main/api/v1/me`, { headers: { cookie } }))).status === 200;

/** A confirmed email + password account (signed up without mail, as before mail existed). */
async function account() {
  const handle = `r_${uniq()}`;
  const email = `${handle}@example.test`;
  const id = (await signUp(await getDb(), { handle, email, password }, address()))!;
  return { id, handle, email };
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
/** A reset that leaves the user's API tokens alone (the form's box unticked). */
const keep = { revokeTokens: false };

async function askReset(email: string, from = address()) {
  await (await requestPasswordReset(await getDb(), email, { address: from })).delivered;
}

describe('password reset by mail', () => {
  it('mails a link to the site that sets a new password once, ending every session', async () => {
    const { email } = await account();
    const before = (await signIn(email, password)).cookie!;
    expect(await signedIn(before)).toBe(true);

    const sent = mailbox.to(email).length;
    await askReset(email.toUpperCase()); // addresses match regardless of case
    const mail = await mailbox.next(email, sent);
    expect(mail.from?.text).toContain('codetally@example.test');
    expect(mail.subject).toMatch(/reset/i);
    const link = linkIn(mail, `${site}/reset-password?token=`);
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));
    expect(await resetLinkWorks(await getDb(), tokenOf(link))).toBe(true);

    expect(await resetPassword(await getDb(), tokenOf(link), 'a brand new secret', keep)).toBe(true);
    expect(await signedIn(before)).toBe(false);
    expect((await signIn(email, password)).refused).toBeDefined();
    expect(await signedIn((await signIn(email, 'a brand new secret')).cookie!)).toBe(true);

    // Used once: the same link again changes nothing.
    expect(await resetLinkWorks(await getDb(), tokenOf(link))).toBe(false);
    expect(await resetPassword(await getDb(), tokenOf(link), 'yet another password', keep)).toBe(false);
    expect(await signedIn((await signIn(email, 'a brand new secret')).cookie!)).toBe(true);
  });

  it('answers alike for an address without an account, and mails nothing there', async () => {
    const email = `nobody_${uniq()}@example.test`;
    const db = await getDb();
    const unknown = await requestPasswordReset(db, email, { address: address() });
    const known = await requestPasswordReset(db, (await account()).email, { address: address() });
    expect(Object.keys(unknown)).toEqual(Object.keys(known));
    await Promise.all([unknown.delivered, known.delivered]);
    expect(mailbox.to(email)).toHaveLength(0);
  });

  it('a link works for 30 minutes', async () => {
    const { id, email } = await account();
    const sent = mailbox.to(email).length;
    await askReset(email);
    const token = tokenOf(linkIn(await mailbox.next(email, sent), `${site}/reset-password`));
    const db = await getDb();
    const [stored] = await rows<{ minutes: number }>(
      db,
      sql`SELECT extract(epoch FROM expires_at - created_at)::float8 / 60 AS minutes FROM mail_tokens WHERE user_id = ${id} AND purpose = 'reset'`,
    );
    expect(stored.minutes).toBe(30);
    // 29 minutes on, it still works; a minute later, no more.
    await db.execute(sql`UPDATE mail_tokens SET expires_at = expires_at - interval '29 minutes' WHERE user_id = ${id}`);
    expect(await resetLinkWorks(db, token)).toBe(true);
    await db.execute(sql`UPDATE mail_tokens SET expires_at = expires_at - interval '1 minute' WHERE user_id = ${id}`);
    expect(await resetLinkWorks(db, token)).toBe(false);
    expect(await resetPassword(db, token, 'a brand new secret', keep)).toBe(false);
    expect(await signIn(email, password)).toHaveProperty('cookie');
  });

  it('a newer link replaces the one before', async () => {
    const { email } = await account();
    const sent = mailbox.to(email).length;
    await askReset(email);
    const first = tokenOf(linkIn(await mailbox.next(email, sent), `${site}/reset-password`));
    await askReset(email);
    const second = tokenOf(linkIn(await mailbox.next(email, sent + 1), `${site}/reset-password`));
    expect(second).not.toBe(first);
    expect(await resetPassword(await getDb(), first, 'a brand new secret', keep)).toBe(false);
    expect(await resetPassword(await getDb(), second, 'a brand new secret', keep)).toBe(true);
  });

  it('is limited per address and asker together, known or not, and per asker; a stranger cannot spend the owner\'s budget', async () => {
    const db = await getDb();
    const owner = await account();
    const home = '192.0.2.77'; // where the owner signs in (limits trust only what looks like an address)
    expect(await checkPassword(db, owner.email, password, home)).toBe(owner.id);
    for (const email of [owner.email, `nobody_${uniq()}@example.test`]) {
      const stranger = address();
      for (let i = 0; i < 5; i++) await askReset(email, stranger);
      await expect(requestPasswordReset(db, email, { address: stranger })).rejects.toBeInstanceOf(TooManyAttempts);
    }
    // The owner, asking from where they sign in, still gets their link (tests/api/mail-ceiling.test.ts
    // has the ceiling every other asker meets).
    const sent = mailbox.to(owner.email).length;
    await askReset(owner.email, home);
    await mailbox.next(owner.email, sent);
    const from = address();
    for (let i = 0; i < 20; i++) await askReset(`many_${i}_${uniq()}@example.test`, from);
    await expect(requestPasswordReset(db, `one_more_${uniq()}@example.test`, { address: from })).rejects.toBeInstanceOf(TooManyAttempts);
  });

  it('revokes every API token with the new password unless told to keep them', async () => {
    const db = await getDb();
    for (const revokeTokens of [true, false]) {
      const { id, email } = await account();
      await issueToken(db, id, { name: 'made by whoever knew the password' });
      const sent = mailbox.to(email).length;
      await askReset(email);
      const token = tokenOf(linkIn(await mailbox.next(email, sent), `${site}/reset-password`));
      expect(await resetPassword(db, token, 'a brand new secret', { revokeTokens })).toBe(true);
      const live = (await listTokens(db, id)).filter((t) => t.revoked_at === null);
      expect(live).toHaveLength(revokeTokens ? 0 : 1);
    }
  });
});

describe('confirming the address at sign-up', () => {
  async function signUpMailed() {
    const handle = `c_${uniq()}`;
    const email = `${handle}@example.test`;
    const sent = mailbox.to(email).length;
    await (await signUpByMail(await getDb(), { handle, email, password }, address())).delivered;
    return { handle, email, mail: await mailbox.next(email, sent) };
  }

  const confirm = async (token: string, pass = password) => (await confirmEmail(await getDb(), token, pass, address())).confirmed;

  it('refuses to sign in until the mailed link is used with the sign-up\'s password, and only says so to whoever knows the password', async () => {
    const { email, mail } = await signUpMailed();
    const link = linkIn(mail, `${site}/confirm-email?token=`);
    expect(await signIn(email, password)).toEqual({ refused: 'unconfirmed' });
    expect(await signIn(email, 'not the password')).toEqual({ refused: 'credentials' });

    // The link alone confirms nothing: the mailbox's holder must know the password too.
    expect(await confirmEmail(await getDb(), tokenOf(link), 'not the password', address())).toEqual({ confirmed: false, why: 'password' });
    expect(await signIn(email, password)).toEqual({ refused: 'unconfirmed' });
    expect(await confirm(tokenOf(link))).toBe(true);
    expect(await signedIn((await signIn(email, password)).cookie!)).toBe(true);
    expect(await confirmEmail(await getDb(), tokenOf(link), password, address())).toEqual({ confirmed: false, why: 'link' });
  });

  it('a sign-up with someone else\'s address never lets its password in: the owner\'s own sign-up replaces it', async () => {
    const email = `victim_${uniq()}@example.test`;
    const db = await getDb();
    // A stranger signs up first with the victim's address and a password of theirs.
    await (await signUpByMail(db, { handle: `s_${uniq()}`, email, password: 'the stranger secret' }, address())).delivered;
    const strangers = tokenOf(linkIn(await mailbox.next(email, 0), `${site}/confirm-email`));
    // The victim, holding the mailbox but not the stranger's password, cannot confirm it.
    expect(await confirm(strangers)).toBe(false);
    // The victim signs up themselves: their credentials replace the waiting ones. The link on its
    // way (mailed minutes ago) is not mailed again: it now confirms the victim's password, and
    // never the stranger's.
    const handle = `v_${uniq()}`;
    await (await signUpByMail(db, { handle, email, password }, address())).delivered;
    expect(mailbox.to(email)).toHaveLength(1);
    expect(await confirm(strangers, 'the stranger secret')).toBe(false);
    // Later, once that link is old, a sign-up mails a new one and the one before dies.
    await db.execute(sql`UPDATE mail_tokens SET created_at = created_at - make_interval(mins => ${QUIET_MINUTES})`);
    await (await signUpByMail(db, { handle, email, password }, address())).delivered;
    const own = tokenOf(linkIn(await mailbox.next(email, 1), `${site}/confirm-email`));
    expect(await confirm(strangers)).toBe(false);
    expect(await confirm(own, 'the stranger secret')).toBe(false);
    expect(await confirm(own)).toBe(true);
    expect(await signIn(email, 'the stranger secret')).toEqual({ refused: 'credentials' });
    const cookie = (await signIn(email, password)).cookie!;
    const me = await (await getMe(new Request(`${origin}/main/api/v1/me`, { headers: { cookie } }))).json();
    expect(me.handle).toBe(handle);
    // And a stranger's sign-up after the owner confirmed changes nothing.
    await (await signUpByMail(db, { handle: `s_${uniq()}`, email, password: 'the stranger secret' }, address())).delivered;
    expect((await mailbox.next(email, 2)).subject).toMatch(/already have/i);
    expect(await signIn(email, 'the stranger secret')).toEqual({ refused: 'credentials' });
  });

  it('a taken address gets a mail saying so, and no second account', async () => {
    const { email } = await account();
    const sent = mailbox.to(email).length;
    await (await signUpByMail(await getDb(), { handle: `c_${uniq()}`, email, password: 'another password here' }, address())).delivered;
    const mail = await mailbox.next(email, sent);
    expect(mail.subject).toMatch(/already have/i);
    expect(mail.text).not.toContain('token=');
    expect(await signIn(email, 'another password here')).toHaveProperty('refused');
    expect(await signIn(email, password)).toHaveProperty('cookie');
  });

  it('"send again" mails a new link and the old one stops working', async () => {
    const { email, mail } = await signUpMailed();
    const old = tokenOf(linkIn(mail, `${site}/confirm-email`));
    // Not while the first is on its way (tests/api/mail-ceiling.test.ts): as if mailed a while ago.
    await (await getDb()).execute(sql`UPDATE mail_tokens SET created_at = created_at - make_interval(mins => ${QUIET_MINUTES})`);
    await (await resendConfirmation(await getDb(), email, { address: address() })).delivered;
    const fresh = tokenOf(linkIn(await mailbox.next(email, 1), `${site}/confirm-email`));
    expect(await confirm(old)).toBe(false);
    expect(await confirm(fresh)).toBe(true);
    // Confirmed: asking again sends nothing.
    await (await resendConfirmation(await getDb(), email, { address: address() })).delivered;
    expect(mailbox.to(email)).toHaveLength(2);
  });

  it('"send again" from a sign-in on its way to an invitation carries it in the new link, as the first link did', async () => {
    const invite = '/dashboard/teams/join?code=abc123';
    const handle = `c_${uniq()}`;
    const email = `${handle}@example.test`;
    await (await signUpByMail(await getDb(), { handle, email, password }, address(), invite)).delivered;
    const first = new URL(linkIn(await mailbox.next(email, 0), `${site}/confirm-email`));
    expect(first.searchParams.get('next')).toBe(invite);
    await (await getDb()).execute(sql`UPDATE mail_tokens SET created_at = created_at - make_interval(mins => ${QUIET_MINUTES})`);
    await (await resendConfirmation(await getDb(), email, { address: address() }, invite)).delivered;
    const again = new URL(linkIn(await mailbox.next(email, 1), `${site}/confirm-email`));
    expect(again.searchParams.get('next')).toBe(invite);
    expect(again.searchParams.get('token')).not.toBe(first.searchParams.get('token'));
    // Without a place to go, the link names none (confirming lands on the dashboard's welcome).
    await (await getDb()).execute(sql`UPDATE mail_tokens SET created_at = created_at - make_interval(mins => ${QUIET_MINUTES})`);
    await (await resendConfirmation(await getDb(), email, { address: address() })).delivered;
    expect(new URL(linkIn(await mailbox.next(email, 2), `${site}/confirm-email`)).searchParams.has('next')).toBe(false);
    expect(await confirm(again.searchParams.get('token')!)).toBe(false);
  });

  it('a password reset by mail confirms the address too', async () => {
    const { email } = await signUpMailed();
    await askReset(email);
    const token = tokenOf(linkIn(await mailbox.next(email, 1), `${site}/reset-password`));
    expect(await resetPassword(await getDb(), token, 'a brand new secret', keep)).toBe(true);
    expect(await signIn(email, 'a brand new secret')).toHaveProperty('cookie');
  });
});

describe('without mail', () => {
  beforeAll(() => mailOn(false));
  afterAll(() => mailOn(true));

  it('a reset by mail is not offered, and the operator resets the password, ending every session', async () => {
    const { handle, email } = await account();
    await expect(requestPasswordReset(await getDb(), email, { address: address() })).rejects.toThrow(/SMTP_URL/);
    const before = (await signIn(email, password)).cookie!;

    const generated = (await runCommand(await getDb(), { command: 'reset-password', handle })) as { password?: string; sessions_ended: boolean };
    expect(generated.password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(await signedIn(before)).toBe(false);
    expect(await signIn(email, generated.password!)).toHaveProperty('cookie');

    const chosen = await runCommand(await getDb(), { command: 'reset-password', handle: handle.toUpperCase(), password: 'typed at the prompt' });
    expect(chosen).not.toHaveProperty('password'); // a typed password is never printed back
    expect(await signIn(email, 'typed at the prompt')).toHaveProperty('cookie');
  });

  it('the command refuses an unknown handle and an account without a password', async () => {
    await expect(runCommand(await getDb(), { command: 'reset-password', handle: `nobody_${uniq()}` })).rejects.toThrow(/no user/);
    const created = (await runCommand(await getDb(), { command: 'create-user', input: { handle: `o_${uniq()}` } })) as { user: { handle: string } };
    await expect(runCommand(await getDb(), { command: 'reset-password', handle: created.user.handle })).rejects.toThrow(/outside provider/);
  });
});
