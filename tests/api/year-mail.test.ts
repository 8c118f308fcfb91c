import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATCH as patchMe } from '@/app/main/api/v1/me/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { signUp } from '@/lib/accounts/sign-in';
import { resetConfig } from '@/lib/config';
import { getDb, rows } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { unsubscribe } from '@/lib/mail/unsubscribe';
import { sendYearReviews } from '@/lib/mail/year';
import { call, tokenWithScopes } from '../helpers/api';
import { linkIn, startMailbox, type Mailbox } from '../helpers/smtp';

// The year-in-review mail: once per user and year, from 08:00 on January 1 in the owner's
// timezone, about the year just ended, to those who turned on the weekly report and had time
// that year; with a few figures, the link to the year's page and the one-click unsubscribe.

const site = 'https://codetally.test';
const uniq = () => Math.random().toString(36).slice(2, 8);
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await startMailbox();
  Object.assign(process.env, { SMTP_URL: mailbox.url, MAIL_FROM: 'codetally@example.test', SITE_URL: site, AUTH_PASSWORD: 'on' });
  resetConfig();
});
afterAll(async () => {
  for (const name of ['SMTP_URL', 'MAIL_FROM', 'SITE_URL']) delete process.env[name];
  resetConfig();
  await mailbox.close();
});

/** A moment in UTC. */
const at = (iso: string) => new Date(`${iso}Z`);

/** An email account that turned the weekly report on (or not), with a token to write. */
async function person(timezone = 'UTC', weeklyReport = true) {
  const handle = `y_${uniq()}`;
  const email = `${handle}@example.test`;
  const db = await getDb();
  const id = (await signUp(db, { handle, email, password: 'correct horse battery', timezone }, `198.51.100.${uniq()}`))!;
  const account = await tokenWithScopes(id, ['account', 'sync']);
  const res = await patchMe(new Request('http://localhost/main/api/v1/me', { method: 'PATCH', headers: { authorization: `Bearer ${account}`, 'content-type': 'application/json' }, body: JSON.stringify({ settings: { weekly_report: weeklyReport } }) }));
  expect(res.status).toBe(200);
  return { id, email, account };
}

async function write(token: string, activities: { date: string; hour: number; language: string; time: number }[]) {
  expect((await call(postBatch, '/sync/activities', { token, body: { activities } })).status).toBe(200);
}

const claimOf = async (userId: string, year: number) =>
  (await rows<{ status: string; attempts: number }>(await getDb(), sql`SELECT status, attempts FROM mail_year_reviews WHERE user_id = ${userId} AND year = ${year}`))[0];

const year2025 = [
  { date: '2025-03-10', hour: 9, language: 'Go', time: 3600 },
  { date: '2025-03-11', hour: 9, language: 'Go', time: 1800 },
  { date: '2025-03-11', hour: 10, language: 'Rust', time: 1800 },
  { date: '2026-01-01', hour: 7, language: 'Rust', time: 600 }, // the new year: not in the review
];

describe('the year-in-review mail', () => {
  it('goes once at the turn of the year, with the figures, the year\'s link and the unsubscribe', async () => {
    const u = await person();
    await write(u.account, year2025);
    const db = await getDb();

    await sendYearReviews(db, at('2025-12-31T23:59:00'));
    await sendYearReviews(db, at('2026-01-01T07:59:00')); // January 1, before 08:00
    expect(mailbox.to(u.email)).toHaveLength(0);

    await sendYearReviews(db, at('2026-01-01T08:00:00'));
    const [mail] = mailbox.to(u.email);
    expect(mail.subject).toBe('Your 2025 in code: 2 hrs');
    expect(mail.text).toContain('In 2025 you coded 2 hrs on 2 days, 1 hr a day on average, with a longest streak of 2 days.');
    expect(mail.text).toContain('Top language: Go (1 hr 30 mins, 75 %).');
    expect(linkIn(mail, `${site}/dashboard/year/`)).toBe(`${site}/dashboard/year/2025`);
    const unsubscribeAt = linkIn(mail, `${site}/unsubscribe?token=`);
    const header = (name: string) => mail.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]*:\s*/, '').replace(/\r?\n/g, '');
    expect(header('list-unsubscribe')).toBe(`<${unsubscribeAt}>`);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(await claimOf(u.id, 2025)).toEqual({ status: 'sent', attempts: 1 });

    // Later checks, two processes at once, and a restart later in January: never a second one.
    await Promise.all([sendYearReviews(db, at('2026-01-01T08:05:00')), sendYearReviews(db, at('2026-01-01T08:05:00'))]);
    await sendYearReviews(db, at('2026-01-20T12:00:00'));
    expect(mailbox.to(u.email)).toHaveLength(1);

    // Its unsubscribe link turns the weekly report off, and with it next year's review.
    expect(await unsubscribe(db, new URL(unsubscribeAt).searchParams.get('token')!)).toBe(true);
    expect((await db.select({ on: users.weeklyReport }).from(users).where(eq(users.id, u.id)))[0].on).toBe(false);
  });

  it('goes once per user when several processes check at the same moment', async () => {
    const people = await Promise.all(Array.from({ length: 5 }, () => person()));
    for (const u of people) await write(u.account, [{ date: '2025-06-02', hour: 12, language: 'Go', time: 900 }]);
    const db = await getDb();
    await Promise.all([sendYearReviews(db, at('2026-01-02T09:00:00')), sendYearReviews(db, at('2026-01-02T09:00:00')), sendYearReviews(db, at('2026-01-02T09:00:00'))]);
    for (const u of people) expect(mailbox.to(u.email)).toHaveLength(1);
  });

  it('waits for January 1 in the owner\'s timezone', async () => {
    const tokyo = await person('Asia/Tokyo'); // UTC+9: January 1 08:00 there is December 31 23:00 UTC
    const honolulu = await person('Pacific/Honolulu'); // UTC-10: 08:00 there is 18:00 UTC
    for (const u of [tokyo, honolulu]) await write(u.account, [{ date: '2025-07-01', hour: 12, language: 'Go', time: 600 }]);
    const db = await getDb();
    await sendYearReviews(db, at('2025-12-31T22:59:00'));
    expect(mailbox.to(tokyo.email)).toHaveLength(0);
    await sendYearReviews(db, at('2025-12-31T23:00:00'));
    expect(mailbox.to(tokyo.email)).toHaveLength(1);
    expect(mailbox.to(honolulu.email)).toHaveLength(0);
    await sendYearReviews(db, at('2026-01-01T18:00:00'));
    expect(mailbox.to(honolulu.email)).toHaveLength(1);
    expect(mailbox.to(tokyo.email)).toHaveLength(1);
  });

  it('sends nothing for a year with no time, nor to someone without the weekly report, nor after January', async () => {
    const quiet = await person();
    await write(quiet.account, [{ date: '2024-05-01', hour: 9, language: 'Go', time: 3600 }]); // time, but not in 2025
    const notOptedIn = await person('UTC', false);
    await write(notOptedIn.account, year2025);
    const late = await person();
    await write(late.account, year2025);
    const db = await getDb();
    await sendYearReviews(db, at('2026-02-02T09:00:00')); // February: last year's review is not sent any more
    expect(mailbox.to(late.email)).toHaveLength(0);
    expect(await claimOf(late.id, 2025)).toBeUndefined();

    await sendYearReviews(db, at('2026-01-03T09:00:00'));
    expect(mailbox.to(quiet.email)).toHaveLength(0);
    expect(await claimOf(quiet.id, 2025)).toEqual({ status: 'empty', attempts: 1 });
    expect(mailbox.to(notOptedIn.email)).toHaveLength(0);
    expect(await claimOf(notOptedIn.id, 2025)).toBeUndefined();
    expect(mailbox.to(late.email)).toHaveLength(1);
  });

  it('a review the mail server refused is tried again later, and sent once', async () => {
    const u = await person();
    await write(u.account, year2025);
    const db = await getDb();
    mailbox.refuse = 451;
    try {
      await sendYearReviews(db, at('2026-01-05T10:00:00'));
    } finally {
      mailbox.refuse = null;
    }
    expect(await claimOf(u.id, 2025)).toEqual({ status: 'failed', attempts: 1 });
    await sendYearReviews(db, at('2026-01-05T10:10:00')); // before its retry time
    expect(mailbox.to(u.email)).toHaveLength(0);
    await Promise.all([sendYearReviews(db, at('2026-01-05T10:16:00')), sendYearReviews(db, at('2026-01-05T10:16:00'))]);
    expect(mailbox.to(u.email)).toHaveLength(1);
    expect(await claimOf(u.id, 2025)).toEqual({ status: 'sent', attempts: 2 });
  });
});
