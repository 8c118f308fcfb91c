import { beforeAll, describe, expect, it } from 'vitest';
import { DELETE as deleteMe, GET as getMe } from '@/app/main/api/v1/me/route';
import { GET as authGet } from '@/app/auth/[...auth]/route';
import { changePassword, signUp } from '@/lib/accounts/sign-in';
import { runAuthAction } from '@/lib/auth/authjs';
import { getDb } from '@/lib/db/client';

// Sessions are cookies the server does not store: ending one must still work. Signing out,
// changing the password and deleting the account end every session of the user, and a copied
// cookie neither works nor renews itself afterwards.

const origin = 'http://localhost';
const password = 'correct horse battery';
const uniq = () => Math.random().toString(36).slice(2, 8);
/** Each test file signs up from an address of its own: sign-ups are limited per address. */
const testAddress = `198.51.100.${Math.floor(Math.random() * 250)}-${uniq()}`;

beforeAll(async () => {
  process.env.AUTH_PASSWORD = 'on';
  (await import('@/lib/config')).resetConfig();
});

const sessionCookie = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('authjs.session-token=') && c !== 'authjs.session-token=');

async function signIn(email: string, pass = password): Promise<string> {
  const res = await runAuthAction(origin, 'callback/credentials', { email, password: pass, callbackUrl: '/dashboard' }, { cookie: '' });
  const cookie = sessionCookie(res);
  expect(cookie).toBeDefined();
  return cookie!;
}

async function account(cookie: string): Promise<number> {
  return (await getMe(new Request(`${origin}/main/api/v1/me`, { headers: { cookie } }))).status;
}

/** Auth.js's session endpoint, which renews a live session's cookie. */
async function renew(cookie: string): Promise<{ renewed: boolean; body: unknown }> {
  const res = await authGet(new Request(`${origin}/auth/session`, { headers: { cookie, host: 'localhost' } }));
  return { renewed: sessionCookie(res) !== undefined, body: await res.json() };
}

async function newAccount() {
  const handle = `s_${uniq()}`;
  const email = `${handle}@example.test`;
  const id = (await signUp(await getDb(), { handle, email, password }, testAddress))!;
  return { id, handle, email };
}

describe('ending sessions', () => {
  it('signing out ends every session of the user, copied cookies and other browsers included', async () => {
    const { email } = await newAccount();
    const laptop = await signIn(email);
    const phone = await signIn(email);
    expect(await account(laptop)).toBe(200);
    expect(await account(phone)).toBe(200);
    expect((await renew(laptop)).renewed).toBe(true);

    const out = await runAuthAction(origin, 'signout', { callbackUrl: '/' }, { cookie: laptop });
    expect(out.status).toBe(302);
    for (const cookie of [laptop, phone]) {
      expect(await account(cookie)).toBe(401);
      expect(await renew(cookie)).toMatchObject({ renewed: false });
    }
    // Signing in again makes a new session that works.
    expect(await account(await signIn(email))).toBe(200);
  });

  it('changing the password ends every session; the old password stops working', async () => {
    const { id, email } = await newAccount();
    const before = await signIn(email);
    const db = await getDb();
    expect(await changePassword(db, id, { current: 'not my password', password: 'a brand new secret' }, testAddress)).toBe(false);
    expect(await account(before)).toBe(200);
    expect(await changePassword(db, id, { current: password, password: 'a brand new secret' }, testAddress)).toBe(true);
    expect(await account(before)).toBe(401);
    expect((await renew(before)).renewed).toBe(false);
    const refused = await runAuthAction(origin, 'callback/credentials', { email, password, callbackUrl: '/dashboard' }, { cookie: '' });
    expect(sessionCookie(refused)).toBeUndefined();
    expect(await account(await signIn(email, 'a brand new secret'))).toBe(200);
  });

  it('deleting the account ends its sessions', async () => {
    const { email } = await newAccount();
    const cookie = await signIn(email);
    const other = await signIn(email);
    const deleted = await deleteMe(new Request(`${origin}/main/api/v1/me`, { method: 'DELETE', headers: { cookie, 'sec-fetch-site': 'same-origin' } }));
    expect(deleted.status).toBe(204);
    expect(await account(other)).toBe(401);
    expect((await renew(other)).renewed).toBe(false);
  });
});

describe('signing up', () => {
  it('says nothing about whether an email has an account: a second sign-up with it is answered like the first, and creates nobody', async () => {
    const { id, email } = await newAccount();
    const db = await getDb();
    for (const variant of [email, email.toUpperCase()]) {
      await expect(signUp(db, { handle: `t_${uniq()}`, email: variant, password: 'another password' }, testAddress)).resolves.toBeNull();
    }
    // The first account still signs in with its own password, and only with it.
    expect(await account(await signIn(email))).toBe(200);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says a handle is taken (handles are public) whatever the email', async () => {
    const { handle } = await newAccount();
    for (const email of [`new_${uniq()}@example.test`, `${handle}@example.test`]) {
      await expect(signUp(await getDb(), { handle, email, password }, testAddress)).rejects.toMatchObject({ status: 422, extra: { errors: [{ code: 'handle_taken' }] } });
    }
  });
});
