import type { Db } from '../db/client';
import { mailYearReviews } from '../db/schema';
import { configuredOrigin } from '../http/origin';
import { codedIn, yearFigures, type YearFigures, type YearParts } from '../stats/year';
import { durationText } from '../wakatime/reading/summaries';
import { htmlOf, textOf, type Part } from './messages';
import { sendOnce, type MailRun, type OnceMail } from './once';
import type { Mail } from './transport';
import { unsubscribeHeaders, unsubscribeLink } from './unsubscribe';

// The year-in-review mail: once a year, to those who turned on the weekly report, about their
// local calendar year just ended, with the link to its page (/dashboard/year/{YYYY}). It goes
// from 08:00 on January 1 in the owner's timezone, and until the end of January (a server that
// was down at the turn of the year still sends it; someone who turns the report on in spring is
// not sent last year's). The weekly report's check runs it (lib/mail/weekly.ts); a row of
// mail_year_reviews keyed (user, year) is the claim that it goes once (lib/mail/once.ts); a year
// with no time is not mailed.

/** The local hour of January 1 from which the review goes out (the weekly report's Monday hour). */
const SEND_FROM_HOUR = 8;

/** Whether some timezone's clock can show January at `now`: from Dec 31 10:00 UTC (UTC+14) to Feb 1 12:00 UTC (UTC-12). */
function januarySomewhere(now: Date): boolean {
  const [month, day] = [now.getUTCMonth(), now.getUTCDate()];
  return month === 0 || (month === 11 && day === 31) || (month === 1 && day === 1);
}

/** What the mail tells of the year (its totals and top language): the rest is on the page, and not read for it. */
const MAIL_PARTS: YearParts = { languages: true, editors: false, projects: false, categories: false, ai: false };

export function yearMail(to: string, f: YearFigures, links: { year: string; unsubscribe: string }, headers: Record<string, string>): Mail {
  const subject = `Your ${f.year} in code: ${durationText(f.total_seconds)}`;
  const language = f.top_languages[0];
  const parts: Part[] = [
    {
      p: `In ${f.year} you coded ${durationText(f.total_seconds)} on ${f.days_coded} ${f.days_coded === 1 ? 'day' : 'days'}, ${durationText(f.daily_average)} a day on average${f.longest_streak.days > 1 ? `, with a longest streak of ${f.longest_streak.days} days` : ''}.`,
    },
    ...(language ? [{ p: `Top language: ${language.name} (${durationText(language.total_seconds)}, ${language.percent} %).` }] : []),
    { link: links.year, label: `Your ${f.year} in code` },
    { p: 'You get this mail, once a year, because you turned on the weekly report in your settings.' },
    { link: links.unsubscribe, label: 'Unsubscribe (one click, no sign-in)' },
  ];
  return { to, subject, text: textOf(parts), html: htmlOf(subject, parts), headers };
}

const review: OnceMail<number> = {
  what: 'a year review',
  claims: mailYearReviews,
  period: mailYearReviews.year,
  dueAt: ({ date, hour }) => (date.slice(5, 7) === '01' && (date.slice(8) !== '01' || hour >= SEND_FROM_HOUR) ? Number(date.slice(0, 4)) - 1 : null),
  async compose(db, d, now) {
    const user = { id: d.userId, timezone: d.timezone };
    if (!(await codedIn(db, user, d.period, now))) return null;
    const figures = await yearFigures(db, user, d.period, MAIL_PARTS, now);
    const links = { year: `${configuredOrigin()}/dashboard/year/${d.period}`, unsubscribe: unsubscribeLink(d.userId) };
    return yearMail(d.email, figures, links, unsubscribeHeaders(d.userId));
  },
};

/** One check: claims and sends every year review due at `now`. */
export async function sendYearReviews(db: Db, now = new Date()): Promise<MailRun> {
  if (!januarySomewhere(now)) return { sent: 0, empty: 0, failed: 0 };
  return sendOnce(db, review, now);
}
