import { and, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import { addDays, isoWeekday } from '../dates';
import type { Db } from '../db/client';
import { mailReports, passwordLogins, users } from '../db/schema';
import { configuredOrigin } from '../http/origin';
import { localDateHour } from '../local-time';
import { certainlyNotSent, mailConfigured, sendFailure, sendMail } from './transport';
import { unsubscribeHeaders, unsubscribeLink } from './unsubscribe';
import { hasNews, weeklyMail, weeklyReport } from './weekly-report';

// Sending the weekly reports: every server process looks every few minutes for users who opted
// in and whose local time is Monday from 08:00, and whose report on the week before has not gone
// out. A row in mail_reports keyed (user, week) is the claim: the process whose insert makes it
// sends, the others find it taken, so each report goes once however many processes look. A send
// the mail server refused (or that never reached it) is tried again later, up to MAX_ATTEMPTS; one
// whose connection broke while the server may have taken the message is not, nor one whose
// process stopped while sending: a report missed is better than one sent twice.

/** The local hour of Monday from which the report goes out. */
export const SEND_FROM_HOUR = 8;
const MAX_ATTEMPTS = 4;
const RETRY_MINUTES = 15;
/** Reports one check sends at most; the next check goes on. */
const BATCH = 200;
const CHECK_EVERY_MS = 5 * 60_000;

/**
 * Whether some timezone's clock can show Monday between 08:00 and midnight at `now`: from Sunday
 * 18:00 UTC (UTC+14) to Tuesday 12:00 UTC (UTC-12). Outside it a check reads nothing.
 */
function mondayMorningSomewhere(now: Date): boolean {
  const hoursIntoWeek = ((now.getUTCDay() + 6) % 7) * 24 + now.getUTCHours(); // Monday 00 UTC = 0
  return hoursIntoWeek >= 6 * 24 + 18 || hoursIntoWeek < 36;
}

interface Due {
  userId: string;
  timezone: string;
  email: string;
  weekStart: string;
}

/** The users whose report on the week before is due at `now` and not claimed (or due again after a refusal). */
async function dueReports(db: Db, now: Date): Promise<Due[]> {
  const opted = await db
    .select({ userId: users.id, timezone: users.timezone, email: passwordLogins.email })
    .from(users)
    .innerJoin(passwordLogins, and(eq(passwordLogins.userId, users.id), eq(passwordLogins.awaitingConfirmation, false)))
    .where(eq(users.weeklyReport, true));
  // Local time as every other figure reads it (Intl), not the database's timezone names.
  const due = opted.flatMap((u) => {
    const { date, hour } = localDateHour(u.timezone, now);
    return isoWeekday(date) === 0 && hour >= SEND_FROM_HOUR ? [{ ...u, weekStart: addDays(date, -7) }] : [];
  });
  if (due.length === 0) return [];
  const r = mailReports;
  const settled = await db
    .select({ userId: r.userId, weekStart: r.weekStart })
    .from(r)
    .where(
      and(
        inArray(r.userId, due.map((d) => d.userId)),
        inArray(r.weekStart, [...new Set(due.map((d) => d.weekStart))]),
        // Not settled: refused, its retry time come, attempts left.
        sql`NOT (${r.status} = 'failed' AND ${r.retryAt} <= ${now.toISOString()}::timestamptz AND ${r.attempts} < ${MAX_ATTEMPTS})`,
      ),
    );
  const taken = new Set(settled.map((s) => `${s.userId} ${s.weekStart}`));
  return due.filter((d) => !taken.has(`${d.userId} ${d.weekStart}`)).slice(0, BATCH);
}

/** Claims one report: true for the one caller whose statement made or renewed the claim. */
async function claim(db: Db, d: Due, now: Date): Promise<boolean> {
  const r = mailReports;
  const claimed = await db
    .insert(r)
    .values({ userId: d.userId, weekStart: d.weekStart, status: 'sending', attempts: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: [r.userId, r.weekStart],
      set: { status: 'sending', attempts: sql`${r.attempts} + 1`, retryAt: null, updatedAt: now },
      setWhere: and(eq(r.status, 'failed'), lte(r.retryAt, now), lt(r.attempts, MAX_ATTEMPTS)),
    })
    .returning({ attempts: r.attempts });
  return claimed.length === 1;
}

async function settle(db: Db, d: Due, status: 'sent' | 'empty' | 'failed' | 'unknown', now: Date): Promise<void> {
  const r = mailReports;
  const retryAt = status === 'failed' ? sql`${now.toISOString()}::timestamptz + make_interval(mins => ${RETRY_MINUTES} * ${r.attempts})` : null;
  await db
    .update(r)
    .set({ status, retryAt, updatedAt: now })
    .where(and(eq(r.userId, d.userId), eq(r.weekStart, d.weekStart)));
}

/** What one check did: reports sent, skipped as empty, failed. */
export interface ReportRun {
  sent: number;
  empty: number;
  failed: number;
}

/** One check: claims and sends every report due at `now`. */
export async function sendWeeklyReports(db: Db, now = new Date()): Promise<ReportRun> {
  const run: ReportRun = { sent: 0, empty: 0, failed: 0 };
  if (!mailConfigured() || !mondayMorningSomewhere(now)) return run;
  for (const d of await dueReports(db, now)) {
    if (!(await claim(db, d, now))) continue;
    const report = await weeklyReport(db, { id: d.userId, timezone: d.timezone }, d.weekStart, now);
    if (!hasNews(report)) {
      await settle(db, d, 'empty', now);
      run.empty += 1;
      continue;
    }
    const links = { dashboard: `${configuredOrigin()}/dashboard`, unsubscribe: unsubscribeLink(d.userId) };
    try {
      await sendMail(weeklyMail(d.email, report, links, unsubscribeHeaders(d.userId)));
      await settle(db, d, 'sent', now);
      run.sent += 1;
    } catch (err) {
      await settle(db, d, certainlyNotSent(err) ? 'failed' : 'unknown', now);
      run.failed += 1;
      console.error(`[codetally] a weekly report was not sent: ${sendFailure(err)}`);
    }
  }
  return run;
}

declare global {
  var __codetallyWeeklyReports: NodeJS.Timeout | undefined;
}

/**
 * Starts this process's checks (lib/server/boot.ts), with mail configured: every five minutes,
 * one at a time; a failed check is logged and the next one tries again.
 */
export function startWeeklyReports(db: Db): void {
  if (!mailConfigured() || globalThis.__codetallyWeeklyReports) return;
  let running = false;
  const check = () => {
    if (running) return;
    running = true;
    sendWeeklyReports(db)
      .catch((err) => console.error('[codetally] the weekly report check failed:', (err as Error)?.message))
      .finally(() => (running = false));
  };
  globalThis.__codetallyWeeklyReports = setInterval(check, CHECK_EVERY_MS);
  globalThis.__codetallyWeeklyReports.unref();
  setTimeout(check, 30_000).unref();
}
