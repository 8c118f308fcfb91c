import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmEmail, resendConfirmation, signUpByMail, QUIET_MINUTES } from '@/lib/accounts/confirmation';
import { requestPasswordReset, resetPassword } from '@/lib/accounts/password-reset';
import { checkPassword, signUp } from '@/lib/accounts/sign-in';
import { MAX_SIGN_IN_NETWORKS } from '@/lib/accounts/sign-in-networks';
import { attemptPolicies, TooManyAttempts } from '@/lib/auth/attempts';
import { resetConfig } from '@/lib/config';
import { getDb, rows } from '@/lib/db/client';
import type { Asker } from '@/lib/mail/budget';
import { linkIn, startMailbox, type Mailbox } from '../helpers/smtp';

// A mailbox gets at most a few mails an hour on strangers' word, however many client addresses
// they ask from (IPv4 or IPv6: an IPv6 asker is its /64, and a /48 has a budget of its own); the
// address's owner, signed in or asking from where they signed in, still gets their own mail after
// strangers spent that ceiling; and a confirmation link still on its way is not mailed again.
// Against a real SMTP server: what counts is the mail that arrives.

const site = 'https://codetally.test';
const password = 'correct horse battery';
const uniq = () => Math.random().toString(36).slice(2, 8);
const { mailRecipient, mailRecipientDay, mailFrom, mailFromBlock } = attemptPolicies;

// Every test file has a database of its own, so addresses counted up from here are new to it.
let hosts = 0;
let blocks = 0;
/** An IPv4 address no test used yet. */
const ipv4 = () => `198.18.${++hosts >> 8}.${hosts & 255}`;
/** An IPv6 /48 no test used yet: `2001:db8:<n>`, to append `:<network>::<host>` to. */
const block = () => `2001:db8:${(++blocks).toString(16)}`;
/** Askers from new addresses: IPv4 and IPv6 in turn, each IPv6 one in a /48 of its own. */
const strangers = (count: number): Asker[] => Array.from({ length: count }, (_, i) => ({ address: i % 2 ? `${block()}:1::${i}` : ipv4() }));

let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await startMailbox();
  process.env.AUTH_PASSWORD = 'on';
  Object.assign(process.env, { SMTP_URL: mailbox.url, MAIL_FROM: 'Codetally <codetally@example.test>', SITE_URL: site });
  resetConfig();
});
afterAll(async () => {
  for (const name of ['SMTP_URL', 'MAIL_FROM', 'SITE_URL']) delete process.env[name];
  resetConfig();
  await mailbox.close();
});

/** A confirmed email + password account. */
async function account() {
  const handle = `m_${uniq()}`;
  const email = `${handle}@example.test`;
  const id = (await signUp(await getDb(), { handle, email, password }, ipv4()))!;
  return { id, email };
}

/** Asks for a reset: 'sent' or 'refused' (429); the mail, if any, has arrived when it returns. */
async function askReset(email: string, asker: Asker): Promise<'sent' | 'refused'> {
  try {
    await (await requestPasswordReset(await getDb(), email, asker)).delivered;
    return 'sent';
  } catch (err) {
    if (err instanceof TooManyAttempts) return 'refused';
    throw err;
  }
}

/** Signs up by mail (a confirmation or a notice): 'sent' or 'refused'. */
async function askSignUp(email: string, asker: Asker, pass = password): Promise<'sent' | 'refused'> {
  try {
    await (await signUpByMail(await getDb(), { handle: `s_${uniq()}`, email, password: pass }, asker.address!)).delivered;
    return 'sent';
  } catch (err) {
    if (err instanceof TooManyAttempts) return 'refused';
    throw err;
  }
}

/** As if the confirmation links mailed so far had left QUIET_MINUTES ago. */
async function linksAge() {
  await (await getDb()).execute(sql`UPDATE mail_tokens SET created_at = created_at - make_interval(mins => ${QUIET_MINUTES + 1})`);
}

/** As if the attempt counters' windows had started `minutes` earlier. */
async function countersAge(minutes: number) {
  await (await getDb()).execute(sql`UPDATE auth_attempts SET window_start = window_start - make_interval(mins => ${minutes})`);
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('one asker per IPv6 /64, and a budget per /48', () => {
  it('many addresses in one /64 ask as one: its budget is spent together, and a neighbouring /64 still asks', async () => {
    const net = `${block()}:7`;
    const results = [];
    for (let i = 1; i <= mailFrom.limit + 1; i++) results.push(await askReset(`n${i}_${uniq()}@example.test`, { address: `${net}::${i.toString(16)}` }));
    expect(results.filter((r) => r === 'sent')).toHaveLength(mailFrom.limit);
    expect(results.at(-1)).toBe('refused');
    // The same /64 written otherwise (zeros, case) is still the same asker.
    expect(await askReset(`x_${uniq()}@example.test`, { address: `${net.toUpperCase()}:0:0:0:ABCD` })).toBe('refused');
    expect(await askReset(`x_${uniq()}@example.test`, { address: `${net}1::1` })).toBe('sent');
  });

  it('the /64s of one /48 share a coarser budget', async () => {
    const site48 = block();
    const results = [];
    for (let i = 1; i <= mailFromBlock.limit + 1; i++) results.push(await askReset(`b${i}_${uniq()}@example.test`, { address: `${site48}:${i.toString(16)}::1` }));
    expect(results.filter((r) => r === 'sent')).toHaveLength(mailFromBlock.limit);
    expect(results.at(-1)).toBe('refused');
    expect(await askReset(`b_${uniq()}@example.test`, { address: `${block()}:1::1` })).toBe('sent');
  });

  it('an IPv4-mapped IPv6 address is the IPv4 address it maps', async () => {
    const v4 = ipv4();
    for (let i = 0; i < mailFrom.limit; i++) expect(await askReset(`v_${uniq()}@example.test`, { address: i % 2 ? `::ffff:${v4}` : v4 })).toBe('sent');
    expect(await askReset(`v_${uniq()}@example.test`, { address: `::FFFF:${v4}` })).toBe('refused');
  });
});

describe('a ceiling per recipient, whoever asks', () => {
  it('many IPv4 and IPv6 askers together get no more reset mails to one account than its ceiling', async () => {
    const { email } = await account();
    const results = [];
    for (const asker of strangers(8)) results.push(await askReset(email, asker));
    expect(results).toEqual([...Array(mailRecipient.limit).fill('sent'), 'refused', 'refused', 'refused']);
    expect(mailbox.to(email)).toHaveLength(mailRecipient.limit);
  });

  it('an address no one registered gets no more confirmations or notices than the ceiling, however many askers sign up with it', async () => {
    const email = `nobody_${uniq()}@example.test`;
    const results = [];
    for (const asker of strangers(8)) {
      results.push(await askSignUp(email, asker));
      await linksAge(); // each sign-up past the quiet time: only the ceiling holds the next back
    }
    expect(results).toEqual([...Array(mailRecipient.limit).fill('sent'), 'refused', 'refused', 'refused']);
    expect(mailbox.to(email).map((m) => m.subject)).toEqual(Array(mailRecipient.limit).fill(expect.stringMatching(/confirm/i)));
    // Nor by asking for the link again.
    for (const asker of strangers(3)) await expect(resendConfirmation(await getDb(), email, asker)).rejects.toBeInstanceOf(TooManyAttempts);
    expect(mailbox.to(email)).toHaveLength(mailRecipient.limit);
  });

  it('holds across kinds of mail: sign-up notices and resets to a confirmed address share it', async () => {
    const { email } = await account();
    const askers = strangers(7);
    const results = [];
    for (const [i, asker] of askers.entries()) results.push(i % 2 ? await askReset(email, asker) : await askSignUp(email, asker, 'another password here'));
    expect(results.filter((r) => r === 'sent')).toHaveLength(mailRecipient.limit);
    expect(mailbox.to(email)).toHaveLength(mailRecipient.limit);
  });

  it('gives a few an hour, and no more than its daily ceiling in a day', async () => {
    const { email } = await account();
    const perHour = [];
    for (let hour = 0; hour * mailRecipient.limit < mailRecipientDay.limit + mailRecipient.limit; hour++) {
      let sent = 0;
      for (const asker of strangers(mailRecipient.limit + 1)) if ((await askReset(email, asker)) === 'sent') sent++;
      perHour.push(sent);
      await countersAge(61);
    }
    expect(perHour).toEqual([...Array(mailRecipientDay.limit / mailRecipient.limit).fill(mailRecipient.limit), 0]);
    expect(mailbox.to(email)).toHaveLength(mailRecipientDay.limit);
  });
});

describe("the owner's own mail", () => {
  /** A confirmed account whose owner signed in from `home`, and strangers who spent its ceiling. */
  async function spentByStrangers(home: string) {
    const owner = await account();
    expect(await checkPassword(await getDb(), owner.email, password, home)).toBe(owner.id);
    for (const asker of strangers(mailRecipient.limit)) expect(await askReset(owner.email, asker)).toBe('sent');
    expect(await askReset(owner.email, strangers(1)[0])).toBe('refused');
    return { ...owner, sent: mailbox.to(owner.email).length };
  }

  it('signed in, gets their reset mail after strangers spent the ceiling, from any address', async () => {
    const { id, email, sent } = await spentByStrangers(ipv4());
    expect(await askReset(email, { address: ipv4(), userId: id })).toBe('sent');
    expect((await mailbox.next(email, sent)).subject).toMatch(/reset/i);
  });

  it('from an address they signed in from (or another of its /64), gets their reset mail after strangers spent the ceiling', async () => {
    const v6 = block();
    const privacy = block();
    for (const { home, from, neighbour } of [
      { home: ipv4(), from: null, neighbour: ipv4() },
      { home: `${v6}:5::1`, from: null, neighbour: `${v6}:6::1` },
      // A new privacy address of the same /64; another /64 of the same /48 is someone else.
      { home: `${privacy}:5:aaaa:bbbb:cccc:dddd`, from: `${privacy}:5::9`, neighbour: `${privacy}:6::1` },
      { home: `::ffff:${ipv4()}`, from: null, neighbour: ipv4() },
    ]) {
      const { email, sent } = await spentByStrangers(home);
      expect(await askReset(email, { address: neighbour })).toBe('refused');
      expect(await askReset(email, { address: from ?? home })).toBe('sent');
      expect((await mailbox.next(email, sent)).subject).toMatch(/reset/i);
    }
    // An IPv4 owner asking through an IPv4-mapped address is the same owner.
    const home = ipv4();
    const { email } = await spentByStrangers(home);
    expect(await askReset(email, { address: `::ffff:${home}` })).toBe('sent');
  });

  it('is known only by a sign-in to a confirmed login with its current password, and by the newest networks', async () => {
    const db = await getDb();
    // A stranger who signed up with someone's address knows the waiting login's password: signing
    // in from their address (refused: unconfirmed) makes them no owner.
    const email = `victim_${uniq()}@example.test`;
    const stranger = ipv4();
    expect(await askSignUp(email, { address: stranger }, 'the stranger secret')).toBe('sent');
    expect(await checkPassword(db, email, 'the stranger secret', stranger)).toBeTruthy();
    for (const asker of strangers(mailRecipient.limit - 1)) await askReset(email, asker);
    expect(await askReset(email, { address: stranger })).toBe('refused');

    // The list keeps the newest networks only.
    const { email: owner, id, sent } = await spentByStrangers(ipv4());
    const homes = Array.from({ length: MAX_SIGN_IN_NETWORKS + 1 }, () => ipv4());
    for (const home of homes) expect(await checkPassword(db, owner, password, home)).toBe(id);
    const [{ networks }] = await rows<{ networks: string[] }>(db, sql`SELECT sign_in_networks AS networks FROM password_logins WHERE user_id = ${id}`);
    expect(networks).toHaveLength(MAX_SIGN_IN_NETWORKS);
    expect(networks.join(' ')).not.toContain(homes[0]); // hashes, not addresses
    expect(await askReset(owner, { address: homes[0] })).toBe('refused');
    expect(await askReset(owner, { address: homes.at(-1)! })).toBe('sent');

    // A new password starts the list over: the networks were those of whoever knew the old one.
    const token = tokenOf(linkIn(await mailbox.next(owner, sent), `${site}/reset-password?token=`));
    expect(await resetPassword(db, token, 'a brand new secret', { revokeTokens: false })).toBe(true);
    expect(await askReset(owner, { address: homes.at(-1)! })).toBe('refused');
  });
});

describe('one pending confirmation mail per address', () => {
  it('a second sign-up or "send again" while the link is on its way mails nothing; the link confirms the newest credentials', async () => {
    const db = await getDb();
    const email = `p_${uniq()}@example.test`;
    expect(await askSignUp(email, { address: ipv4() }, 'the first secret')).toBe('sent');
    expect(mailbox.to(email)).toHaveLength(1);
    const first = tokenOf(linkIn(mailbox.to(email)[0], `${site}/confirm-email?token=`));

    // Another sign-up (another asker) and "send again" answer as always, and mail nothing.
    expect(await askSignUp(email, { address: `${block()}:1::1` })).toBe('sent');
    await (await resendConfirmation(db, email, { address: ipv4() })).delivered;
    expect(mailbox.to(email)).toHaveLength(1);

    // The link on its way confirms the credentials now waiting, with their password only.
    expect(await confirmEmail(db, first, 'the first secret', ipv4())).toEqual({ confirmed: false, why: 'password' });
    expect(await confirmEmail(db, first, password, ipv4())).toMatchObject({ confirmed: true });
  });

  it('once the quiet time is over, "send again" mails a new link and the one before stops working', async () => {
    const db = await getDb();
    const email = `q_${uniq()}@example.test`;
    expect(await askSignUp(email, { address: ipv4() })).toBe('sent');
    const first = tokenOf(linkIn(await mailbox.next(email, 0), `${site}/confirm-email?token=`));
    await linksAge();
    await (await resendConfirmation(db, email, { address: ipv4() })).delivered;
    const fresh = tokenOf(linkIn(await mailbox.next(email, 1), `${site}/confirm-email?token=`));
    expect(await confirmEmail(db, first, password, ipv4())).toEqual({ confirmed: false, why: 'link' });
    expect(await confirmEmail(db, fresh, password, ipv4())).toMatchObject({ confirmed: true });
  });

  it('concurrent sign-ups with one address mail one link', async () => {
    const email = `r_${uniq()}@example.test`;
    const results = await Promise.all(strangers(4).map((asker) => askSignUp(email, asker)));
    expect(results.every((r) => r === 'sent')).toBe(true);
    expect(mailbox.to(email).map((m) => m.subject)).toEqual([expect.stringMatching(/confirm/i)]);
  });
});
