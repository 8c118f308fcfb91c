import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getMe, PATCH as patchMe } from '@/app/main/api/v1/me/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { POST as unsubscribeRoute } from '@/app/main/api/v1/unsubscribe/route';
import { signUp } from '@/lib/accounts/sign-in';
import { resetConfig } from '@/lib/config';
import { addDays, isoWeekStart } from '@/lib/dates';
import { getDb, rows } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { createGoal } from '@/lib/figures/goals';
import { unsubscribeToken } from '@/lib/mail/unsubscribe';
import { sendWeeklyReports } from '@/lib/mail/weekly';
import { call, tokenWithScopes } from '../helpers/api';
import { expectDocumented } from '../helpers/contract';
import { linkIn, startMailbox, type Mailbox } from '../helpers/smtp';

// The weekly report: sent on Monday from 08:00 in the owner's timezone, once per user and week
// however many processes check at once, about the week before against the one before that;
// unsubscribed in one click without a session.

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

/** This week's Monday (UTC): the report covers the 7 days before it. */
const monday = isoWeekStart(new Date().toISOString().slice(0, 10));
const reported = addDays(monday, -7);
/** `hh:mm` on that Monday in UTC, as a Date. */
const at = (time: string) => new Date(`${monday}T${time}:00Z`);

/** An email account that opted in, with a token to write and one to manage the account. */
async function subscriber(timezone = 'UTC') {
  const handle = `w_${uniq()}`;
  const email = `${handle}@example.test`;
  const db = await getDb();
  const id = (await signUp(db, { handle, email, password: 'correct horse battery', timezone }, `198.51.100.${uniq()}`))!;
  const account = await tokenWithScopes(id, ['account', 'sync']);
  const res = await patchMe(new Request('http://localhost/main/api/v1/me', { method: 'PATCH', headers: { authorization: `Bearer ${account}`, 'content-type': 'application/json' }, body: JSON.stringify({ settings: { weekly_report: true } }) }));
  expect(res.status).toBe(200);
  expect((await res.json()).settings.weekly_report).toBe(true);
  return { id, email, account };
}

async function write(token: string, activities: { date: string; hour: number; language: string; time: number; project_name?: string; category?: string; ai_agent?: string; ai_lines?: number; human_lines?: number }[]) {
  expect((await call(postBatch, '/sync/activities', { token, body: { activities } })).status).toBe(200);
}

const statusOf = async (userId: string) =>
  (await rows<{ status: string; attempts: number }>(await getDb(), sql`SELECT status, attempts FROM mail_reports WHERE user_id = ${userId} AND week_start = ${reported}`))[0];

describe('the weekly report', () => {
  it('sums up the week before against the one before that, with goals, and names how to unsubscribe', async () => {
    const u = await subscriber();
    await write(u.account, [
      { date: reported, hour: 9, language: 'Go', time: 3600, project_name: 'engine' },
      { date: addDays(reported, 2), hour: 10, language: 'Rust', time: 1800, project_name: 'engine' },
      { date: addDays(reported, 3), hour: 11, language: 'Go', time: 1800, project_name: 'site', category: 'ai coding', ai_agent: 'Claude', ai_lines: 40, human_lines: -4 },
      { date: addDays(reported, -3), hour: 9, language: 'Go', time: 3600 },
    ]);
    const db = await getDb();
    await createGoal(db, u.id, { period: 'week', seconds: 7200 });
    await createGoal(db, u.id, { period: 'day', seconds: 1800 });

    expect(await sendWeeklyReports(db, at('08:00'))).toMatchObject({ sent: expect.any(Number), failed: 0 });
    const [mail] = mailbox.to(u.email);
    expect(mail.subject).toBe(`Your coding week: 2 hrs (${reported} to ${addDays(monday, -1)})`);
    expect(mail.text).toContain('2 hrs, up 100 % from 1 hr the week before');
    expect(mail.text).toMatch(/Top languages:\s+- Go: 1 hr 30 mins\s+- Rust: 30 mins\s+Top projects/);
    expect(mail.text).toMatch(/Top projects:\s+- engine: 1 hr 30 mins\s+- site: 30 mins\s+Goals/);
    expect(mail.text).toContain('Code 2 hrs per week: met');
    expect(mail.text).toContain('Code 30 mins per day: met on 3 of 7 days');
    expect(mail.text).toContain('AI-assisted: 30 mins (25 % of your time); lines changed by AI agents 40, by you 4.');
    const unsubscribe = linkIn(mail, `${site}/unsubscribe?token=`);
    // As sent (the parser reads List-* headers into a structure of its own); folded lines unfolded.
    const header = (name: string) => mail.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]*:\s*/, '').replace(/\r?\n/g, '');
    expect(header('list-unsubscribe')).toBe(`<${unsubscribe}>`);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(await statusOf(u.id)).toEqual({ status: 'sent', attempts: 1 });
  });

  it('waits for 08:00 on Monday in the owner\'s timezone', async () => {
    const tokyo = await subscriber('Asia/Tokyo'); // UTC+9: Monday 08:00 there is Sunday 23:00 UTC
    const newYork = await subscriber('America/New_York'); // UTC-5 or -4: 08:00 there is 12:00 or 13:00 UTC
    for (const u of [tokyo, newYork]) await write(u.account, [{ date: reported, hour: 12, language: 'Go', time: 600 }]);
    const db = await getDb();
    await sendWeeklyReports(db, new Date(at('00:00').getTime() - 61 * 60_000)); // Sunday 22:59 UTC: 07:59 in Tokyo
    expect(mailbox.to(tokyo.email)).toHaveLength(0);
    await sendWeeklyReports(db, at('11:59'));
    expect(mailbox.to(tokyo.email)).toHaveLength(1);
    expect(mailbox.to(newYork.email)).toHaveLength(0);
    await sendWeeklyReports(db, at('13:00'));
    expect(mailbox.to(newYork.email)).toHaveLength(1);
    // Tuesday: no more reports on that week, and the others were not sent again.
    await sendWeeklyReports(db, new Date(at('13:00').getTime() + 86_400_000));
    expect(mailbox.to(tokyo.email)).toHaveLength(1);
    expect(mailbox.to(newYork.email)).toHaveLength(1);
  });

  it('goes once per user and week when several processes check at the same moment', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => subscriber()));
    for (const u of people) await write(u.account, [{ date: reported, hour: 8, language: 'Go', time: 900 }]);
    const db = await getDb();
    const runs = await Promise.all([sendWeeklyReports(db, at('09:00')), sendWeeklyReports(db, at('09:00')), sendWeeklyReports(db, at('09:05'))]);
    const sentToThem = runs.reduce((sum, r) => sum + r.sent, 0);
    expect(sentToThem).toBeGreaterThanOrEqual(people.length); // the runs may also send earlier tests' leftovers: none here
    for (const u of people) expect(mailbox.to(u.email)).toHaveLength(1);
    await Promise.all([sendWeeklyReports(db, at('09:10')), sendWeeklyReports(db, at('09:10'))]);
    for (const u of people) expect(mailbox.to(u.email)).toHaveLength(1);
  });

  it('sends nothing for a week with no time after another with none, nor to someone who did not opt in', async () => {
    const quiet = await subscriber();
    const notOptedIn = await subscriber();
    await getDb().then((db) => db.update(users).set({ weeklyReport: false }).where(eq(users.id, notOptedIn.id)));
    await write(notOptedIn.account, [{ date: reported, hour: 8, language: 'Go', time: 900 }]);
    await sendWeeklyReports(await getDb(), at('09:30'));
    expect(mailbox.to(quiet.email)).toHaveLength(0);
    expect(await statusOf(quiet.id)).toEqual({ status: 'empty', attempts: 1 });
    expect(mailbox.to(notOptedIn.email)).toHaveLength(0);
    expect(await statusOf(notOptedIn.id)).toBeUndefined();
  });

  it('a report the mail server refused is tried again later, and sent once', async () => {
    const u = await subscriber();
    await write(u.account, [{ date: reported, hour: 8, language: 'Go', time: 900 }]);
    const db = await getDb();
    mailbox.refuse = 451;
    try {
      await sendWeeklyReports(db, at('10:00'));
    } finally {
      mailbox.refuse = null;
    }
    expect(await statusOf(u.id)).toEqual({ status: 'failed', attempts: 1 });
    await sendWeeklyReports(db, at('10:10')); // before its retry time
    expect(mailbox.to(u.email)).toHaveLength(0);
    await Promise.all([sendWeeklyReports(db, at('10:16')), sendWeeklyReports(db, at('10:16'))]);
    expect(mailbox.to(u.email)).toHaveLength(1);
    expect(await statusOf(u.id)).toEqual({ status: 'sent', attempts: 2 });
  });
});

describe('one-click unsubscribe', () => {
  const unsubscribe = (token: string | null, body = 'List-Unsubscribe=One-Click') =>
    unsubscribeRoute(
      new Request(`http://localhost/main/api/v1/unsubscribe${token === null ? '' : `?${new URLSearchParams({ token })}`}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }),
    );
  const weeklyReportOf = async (account: string) =>
    (await (await getMe(new Request('http://localhost/main/api/v1/me', { headers: { authorization: `Bearer ${account}` } }))).json()).settings.weekly_report;

  it('a POST of the link turns the report off without a session; again changes nothing', async () => {
    const u = await subscriber();
    const res = await expectDocumented('POST', 'http://localhost/main/api/v1/unsubscribe', await unsubscribe(unsubscribeToken(u.id)));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ weekly_report: false });
    expect(await weeklyReportOf(u.account)).toBe(false);
    expect((await unsubscribe(unsubscribeToken(u.id))).status).toBe(200);
  });

  it('the page\'s button is sent back to the page', async () => {
    const u = await subscriber();
    const res = await unsubscribe(unsubscribeToken(u.id), 'List-Unsubscribe=One-Click&then=page');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/unsubscribe?done=1');
    expect(await weeklyReportOf(u.account)).toBe(false);
  });

  it('refuses a token this site did not make, naming the parameter', async () => {
    const u = await subscriber();
    const forged = `${u.id}.${'A'.repeat(43)}`;
    for (const token of [forged, `${u.id}`, 'nonsense', null]) {
      const res = await expectDocumented('POST', 'http://localhost/main/api/v1/unsubscribe', await unsubscribe(token));
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('invalid_query');
    }
    // Another user's token does not name this one.
    const other = await subscriber();
    expect((await unsubscribe(unsubscribeToken(other.id))).status).toBe(200);
    expect(await weeklyReportOf(u.account)).toBe(true);
  });
});
