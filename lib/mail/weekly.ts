import { addDays, isoWeekday } from '../dates';
import type { Db } from '../db/client';
import { mailReports } from '../db/schema';
import { configuredOrigin } from '../http/origin';
import { sendOnce, type MailRun, type OnceMail } from './once';
import { mailConfigured } from './transport';
import { unsubscribeHeaders, unsubscribeLink } from './unsubscribe';
import { hasNews, weeklyMail, weeklyReport } from './weekly-report';
import { sendYearReviews } from './year';

// Sending the weekly reports: every server process looks every few minutes for users who opted
// in and whose local time is Monday from 08:00, and whose report on the week before has not gone
// out; a row in mail_reports keyed (user, week) is the claim that it goes once (lib/mail/once.ts).

/** The local hour of Monday from which the report goes out. */
export const SEND_FROM_HOUR = 8;
const CHECK_EVERY_MS = 5 * 60_000;

/**
 * Whether some timezone's clock can show Monday between 08:00 and midnight at `now`: from Sunday
 * 18:00 UTC (UTC+14) to Tuesday 12:00 UTC (UTC-12). Outside it a check reads nothing.
 */
function mondayMorningSomewhere(now: Date): boolean {
  const hoursIntoWeek = ((now.getUTCDay() + 6) % 7) * 24 + now.getUTCHours(); // Monday 00 UTC = 0
  return hoursIntoWeek >= 6 * 24 + 18 || hoursIntoWeek < 36;
}

const weekly: OnceMail<string> = {
  what: 'a weekly report',
  claims: mailReports,
  period: mailReports.weekStart,
  dueAt: ({ date, hour }) => (isoWeekday(date) === 0 && hour >= SEND_FROM_HOUR ? addDays(date, -7) : null),
  async compose(db, d, now) {
    const report = await weeklyReport(db, { id: d.userId, timezone: d.timezone }, d.period, now);
    if (!hasNews(report)) return null;
    const links = { dashboard: `${configuredOrigin()}/dashboard`, unsubscribe: unsubscribeLink(d.userId) };
    return weeklyMail(d.email, report, links, unsubscribeHeaders(d.userId));
  },
};

/** One check: claims and sends every report due at `now`. */
export async function sendWeeklyReports(db: Db, now = new Date()): Promise<MailRun> {
  if (!mondayMorningSomewhere(now)) return { sent: 0, empty: 0, failed: 0 };
  return sendOnce(db, weekly, now);
}

declare global {
  var __codetallyWeeklyReports: NodeJS.Timeout | undefined;
}

/**
 * Starts this process's checks (lib/server/boot.ts), with mail configured: every five minutes,
 * one at a time, the weekly reports then the year reviews (lib/mail/year.ts); a failed check is
 * logged and the next one tries again.
 */
export function startWeeklyReports(db: Db): void {
  if (!mailConfigured() || globalThis.__codetallyWeeklyReports) return;
  let running = false;
  const check = () => {
    if (running) return;
    running = true;
    sendWeeklyReports(db)
      .catch((err) => console.error('[codetally] the weekly report check failed:', (err as Error)?.message))
      .then(() => sendYearReviews(db))
      .catch((err) => console.error('[codetally] the year review check failed:', (err as Error)?.message))
      .finally(() => (running = false));
  };
  globalThis.__codetallyWeeklyReports = setInterval(check, CHECK_EVERY_MS);
  globalThis.__codetallyWeeklyReports.unref();
  setTimeout(check, 30_000).unref();
}
