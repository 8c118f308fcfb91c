import { beforeAll, describe, expect, it } from 'vitest';
import { GET as authGet, POST as authPost } from '@/app/auth/[...auth]/route';
import { POST as createUserRoute } from '@/app/main/api/v1/admin/users/route';
import { checkPassword, signUp } from '@/lib/accounts/sign-in';
import { attemptPolicies, TooManyAttempts } from '@/lib/auth/attempts';
import { config } from '@/lib/config';
import { getDb, openDb } from '@/lib/db/client';

// Guessing a password or the admin token, and signing up, are limited per account and per client
// address, in counters every server process shares: past the limit the answer is 429 with
// Retry-After (or the form says so), and the secret is not even checked.

const password = 'correct horse battery';
const uniq = () => Math.random().toString(36).slice(2, 10);
const address = () => `203.0.113.${Math.floor(Math.random() * 250)}:${uniq()}`;
const { account, signUp: signUpPolicy, admin } = attemptPolicies;

beforeAll(async () => {
  process.env.AUTH_PASSWORD = 'on';
  (await import('@/lib/config')).resetConfig();
});

async function newLogin() {
  const handle = `a_${uniq()}`;
  const email = `${handle}@example.test`;
  const id = (await signUp(await getDb(), { handle, email, password }, address()))!;
  return { id, email };
}

describe('password guesses', () => {
  it('per account: past the limit even the right password is refused, from any address, and says when to retry', async () => {
    const { id, email } = await newLogin();
    const db = await getDb();
    for (let i = 0; i < account.limit; i++) expect(await checkPassword(db, email, `wrong ${i}`, address())).toBeNull();
    const limited = await checkPassword(db, email, password, address()).catch((err) => err);
    expect(limited).toBeInstanceOf(TooManyAttempts);
    expect(limited.status).toBe(429);
    expect(Number(limited.extra.headers['retry-after'])).toBeGreaterThan(account.windowSeconds - 60);
    // Another account is not affected.
    const other = await newLogin();
    expect(await checkPassword(db, other.email, password, address())).toBe(other.id);
    expect(id).toBeTruthy();
  });

  it('per client address: guesses spread over many accounts are stopped too', async () => {
    const db = await getDb();
    const from = address();
    const accounts = await Promise.all(Array.from({ length: 4 }, () => newLogin()));
    let refused = 0;
    for (let i = 0; i < attemptPolicies.address.limit + 5; i++) {
      const result = await checkPassword(db, accounts[i % accounts.length].email, `guess ${i}`, from).catch((err) => err);
      if (result instanceof TooManyAttempts) refused++;
    }
    expect(refused).toBe(5);
    expect(await checkPassword(db, accounts[0].email, password, address())).toBe(accounts[0].id);
  });

  it('signing in with the right password never uses the budget up', async () => {
    const { id, email } = await newLogin();
    const db = await getDb();
    const from = address();
    for (let i = 0; i < account.limit * 2; i++) expect(await checkPassword(db, email, password, from)).toBe(id);
  });

  it('concurrent guesses cannot slip past the count', async () => {
    const { email } = await newLogin();
    const db = await getDb();
    const results = await Promise.all(Array.from({ length: account.limit + 10 }, (_, i) => checkPassword(db, email, `race ${i}`, address()).catch((err) => err)));
    expect(results.filter((r) => r instanceof TooManyAttempts)).toHaveLength(10);
  });

  it('Auth.js\'s own credentials route answers 429 with Retry-After past the limit', async () => {
    const { email } = await newLogin();
    const db = await getDb();
    for (let i = 0; i < account.limit; i++) await checkPassword(db, email, `wrong ${i}`, address());
    const csrf = await authGet(new Request('http://localhost/auth/csrf', { headers: { host: 'localhost' } }));
    const { csrfToken } = await csrf.json();
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const res = await authPost(
      new Request('http://localhost/auth/callback/credentials', {
        method: 'POST',
        headers: { host: 'localhost', cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password, csrfToken, callbackUrl: '/dashboard' }),
      }),
    );
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await res.json()).code).toBe('rate_limited');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))).toBe(false);
  });

  it.skipIf(process.env.TEST_DB === 'pglite')('counts across server processes', async () => {
    const { email } = await newLogin();
    const second = await openDb({ databaseUrl: config().DATABASE_URL, dataDir: '', pooler: config().DATABASE_POOLER }, 2);
    try {
      for (let i = 0; i < account.limit; i++) await checkPassword(i % 2 ? second.db : await getDb(), email, `wrong ${i}`, address());
      await expect(checkPassword(second.db, email, password, address())).rejects.toBeInstanceOf(TooManyAttempts);
    } finally {
      await second.close();
    }
  });
});

describe('client addresses by network', () => {
  // Per file database: blocks counted up from here are new to it.
  let blocks = 0;
  const network = () => `2001:db8:${(++blocks).toString(16)}:1`;

  it('an IPv6 /64 is one client: guesses from many of its addresses share one budget, and the next /64 is another client', async () => {
    const db = await getDb();
    const net = network();
    const accounts = await Promise.all(Array.from({ length: 4 }, () => newLogin()));
    let refused = 0;
    for (let i = 0; i < attemptPolicies.address.limit + 5; i++) {
      const result = await checkPassword(db, accounts[i % accounts.length].email, `guess ${i}`, `${net}::${(i + 1).toString(16)}`).catch((err) => err);
      if (result instanceof TooManyAttempts) refused++;
    }
    expect(refused).toBe(5);
    await expect(checkPassword(db, accounts[0].email, password, `${net}:ffff:ffff:ffff:ffff`)).rejects.toBeInstanceOf(TooManyAttempts);
    expect(await checkPassword(db, accounts[0].email, password, `${net}1::1`)).toBe(accounts[0].id);
  });

  it('sign-ups from many addresses of one /64 share its limit', async () => {
    const db = await getDb();
    const net = network();
    const one = (i: number) => signUp(db, { handle: `su_${uniq()}`, email: `${uniq()}@example.test`, password }, `${net}::${i}`);
    for (let i = 1; i <= signUpPolicy.limit; i++) await one(i);
    await expect(one(99)).rejects.toBeInstanceOf(TooManyAttempts);
  });

  it('an attempt refused by one counter takes nothing from the others', async () => {
    const db = await getDb();
    const { email } = await newLogin();
    const from = `${network()}::1`;
    for (let i = 0; i < account.limit; i++) await checkPassword(db, email, `wrong ${i}`, address());
    // The account is locked: guesses at it from this address no longer count against the address.
    for (let i = 0; i < attemptPolicies.address.limit; i++) await expect(checkPassword(db, email, `more ${i}`, from)).rejects.toBeInstanceOf(TooManyAttempts);
    const other = await newLogin();
    expect(await checkPassword(db, other.email, 'a wrong one', from)).toBeNull();
  });
});

describe('sign-ups', () => {
  it('are limited per client address', async () => {
    const db = await getDb();
    const from = address();
    for (let i = 0; i < signUpPolicy.limit; i++) await signUp(db, { handle: `su_${uniq()}`, email: `${uniq()}@example.test`, password }, from);
    await expect(signUp(db, { handle: `su_${uniq()}`, email: `${uniq()}@example.test`, password }, from)).rejects.toBeInstanceOf(TooManyAttempts);
    await expect(signUp(db, { handle: `su_${uniq()}`, email: `${uniq()}@example.test`, password }, address())).resolves.toBeTruthy();
  });
});

describe('the admin token', () => {
  const create = (token: string, from: string) =>
    createUserRoute(
      new Request('http://localhost/main/api/v1/admin/users', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({ handle: `ad_${uniq()}` }),
      }),
    );

  it('wrong guesses from one address are limited: then even the right token waits (429, Retry-After); others are not affected', async () => {
    const from = address();
    const right = config().ADMIN_TOKEN!;
    for (let i = 0; i < admin.limit; i++) expect((await create(`wrong-admin-token-${i}-0123456789`, from)).status).toBe(401);
    const limited = await create(right, from);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).code).toBe('rate_limited');
    expect((await create(right, address())).status).toBe(201);
  });

  it('the right token is never limited', async () => {
    const from = address();
    for (let i = 0; i < admin.limit + 5; i++) expect((await create(config().ADMIN_TOKEN!, from)).status).toBe(201);
  });
});
