import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { rows, type Db } from '../db/client';
import { col } from '../db/names';
import { localDateHour } from '../local-time';
import { mailReports, mailYearReviews, passwordLogins, users } from '../db/schema';
import { certainlyNotSent, mailConfigured, sendFailure, sendMail, type Mail } from './transport';

// A mail each opted-in user gets once per period (the weekly report, lib/mail/weekly.ts; the year
// in review, lib/mail/year.ts). Every server process looks every few minutes; a row of the mail's
// claims table keyed (user, period) is the claim: the process whose insert makes it sends, the
// others find it taken, so each mail goes once however many processes look. A send the mail
// server refused (or that never reached it) is tried again later, up to MAX_ATTEMPTS; one whose
// connection broke while the server may have taken the message is not, nor one whose process
// stopped while sending: a mail missed is better than one sent twice.

const MAX_ATTEMPTS = 4;
const RETRY_MINUTES = 15;
/** Mails one check sends at most; the next check goes on. */
const BATCH = 200;

/** A claims table: (user_id, its period) the key, and the claim's status, attempts and retry time. */
type Claims = typeof mailReports | typeof mailYearReviews;

export interface OnceMail<P extends string | number> {
  /** What the log calls one, e.g. "a weekly report". */
  what: string;
  claims: Claims;
  /** The claims table's period column. */
  period: AnyPgColumn;
  /** The period whose mail is due for a user whose local date and hour are these, or null. */
  dueAt(local: { date: string; hour: number }): P | null;
  /** The mail for one user and period, or null when there is nothing to tell (settled as empty). */
  compose(db: Db, due: Due<P>, now: Date): Promise<Mail | null>;
}

export interface Due<P> {
  userId: string;
  timezone: string;
  email: string;
  period: P;
}

/** What one check did: mails sent, skipped as empty, failed. */
export interface MailRun {
  sent: number;
  empty: number;
  failed: number;
}

type Status = 'sent' | 'empty' | 'failed' | 'unknown';

/** Opted-in users read at a time: the year review is due for all of them for a month. */
const PAGE = 1000;

/** The users whose mail is due at `now` and not claimed (or due again after a refusal), at most BATCH. */
async function dueMails<P extends string | number>(db: Db, m: OnceMail<P>, now: Date): Promise<Due<P>[]> {
  const found: Due<P>[] = [];
  for (let after: string | null = null; found.length < BATCH; ) {
    const opted = await db
      .select({ userId: users.id, timezone: users.timezone, email: passwordLogins.email })
      .from(users)
      .innerJoin(passwordLogins, and(eq(passwordLogins.userId, users.id), eq(passwordLogins.awaitingConfirmation, false)))
      .where(and(eq(users.weeklyReport, true), after === null ? undefined : gt(users.id, after)))
      .orderBy(asc(users.id))
      .limit(PAGE);
    if (opted.length === 0) break;
    after = opted[opted.length - 1].userId;
    found.push(...(await unclaimed(db, m, opted, now)));
  }
  return found.slice(0, BATCH);
}

/** Of these users, those whose mail is due at `now` and not claimed. */
async function unclaimed<P extends string | number>(db: Db, m: OnceMail<P>, opted: Omit<Due<P>, 'period'>[], now: Date): Promise<Due<P>[]> {
  // Local time as every other figure reads it (Intl), not the database's timezone names.
  const due = opted.flatMap((u) => {
    const period = m.dueAt(localDateHour(u.timezone, now));
    return period === null ? [] : [{ ...u, period }];
  });
  if (due.length === 0) return [];
  const c = m.claims;
  const settled = await rows<{ user_id: string; period: string }>(
    db,
    sql`SELECT ${c.userId} AS user_id, ${m.period}::text AS period FROM ${c}
        WHERE ${inArray(c.userId, due.map((d) => d.userId))} AND ${inArray(m.period, [...new Set(due.map((d) => d.period))])}
          -- Not settled: refused, its retry time come, attempts left.
          AND NOT (${c.status} = 'failed' AND ${c.retryAt} <= ${now.toISOString()}::timestamptz AND ${c.attempts} < ${MAX_ATTEMPTS})`,
  );
  const taken = new Set(settled.map((s) => `${s.user_id} ${s.period}`));
  return due.filter((d) => !taken.has(`${d.userId} ${d.period}`));
}

/** Claims one mail: true for the one caller whose statement made or renewed the claim. */
async function claim<P extends string | number>(db: Db, m: OnceMail<P>, d: Due<P>, now: Date): Promise<boolean> {
  const c = m.claims;
  const at = sql`${now.toISOString()}::timestamptz`;
  const claimed = await rows<{ attempts: number }>(
    db,
    sql`INSERT INTO ${c} (${col(c.userId)}, ${col(m.period)}, ${col(c.status)}, ${col(c.attempts)}, ${col(c.updatedAt)})
        VALUES (${d.userId}, ${d.period}, 'sending', 1, ${at})
        ON CONFLICT (${col(c.userId)}, ${col(m.period)}) DO UPDATE
          SET ${col(c.status)} = 'sending', ${col(c.attempts)} = ${c.attempts} + 1, ${col(c.retryAt)} = NULL, ${col(c.updatedAt)} = ${at}
          WHERE ${c.status} = 'failed' AND ${c.retryAt} <= ${at} AND ${c.attempts} < ${MAX_ATTEMPTS}
        RETURNING ${col(c.attempts)}`,
  );
  return claimed.length === 1;
}

async function settle<P extends string | number>(db: Db, m: OnceMail<P>, d: Due<P>, status: Status, now: Date): Promise<void> {
  const c = m.claims;
  const at = sql`${now.toISOString()}::timestamptz`;
  const retryAt = status === 'failed' ? sql`${at} + make_interval(mins => ${RETRY_MINUTES} * ${c.attempts})` : sql`NULL`;
  await db.execute(
    sql`UPDATE ${c} SET ${col(c.status)} = ${status}, ${col(c.retryAt)} = ${retryAt}, ${col(c.updatedAt)} = ${at}
        WHERE ${c.userId} = ${d.userId} AND ${m.period} = ${d.period}`,
  );
}

/** One check: claims and sends every mail of `m` due at `now`. */
export async function sendOnce<P extends string | number>(db: Db, m: OnceMail<P>, now: Date): Promise<MailRun> {
  const run: MailRun = { sent: 0, empty: 0, failed: 0 };
  if (!mailConfigured()) return run;
  for (const d of await dueMails(db, m, now)) {
    if (!(await claim(db, m, d, now))) continue;
    const mail = await m.compose(db, d, now);
    if (!mail) {
      await settle(db, m, d, 'empty', now);
      run.empty += 1;
      continue;
    }
    try {
      await sendMail(mail);
      await settle(db, m, d, 'sent', now);
      run.sent += 1;
    } catch (err) {
      await settle(db, m, d, certainlyNotSent(err) ? 'failed' : 'unknown', now);
      run.failed += 1;
      console.error(`[codetally] ${m.what} was not sent: ${sendFailure(err)}`);
    }
  }
  return run;
}
