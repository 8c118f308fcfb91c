import { addDays } from '../dates';
import type { Db } from '../db/client';
import { judgeGoals, listGoals } from '../figures/goals';
import { ownProjects } from '../stats/own';
import { aiMillis, dayTotals, dimensionTotals, lineTotals } from '../stats/queries';
import { durationText } from '../wakatime/reading/summaries';
import { htmlOf, textOf, type Part } from './messages';
import type { Mail } from './transport';

// What the weekly report says: the owner's ISO week (Monday to Sunday, their local dates) before
// the Monday it is sent on, against the week before that. Figures are those of the dashboard,
// every hour capped at 3600 s.

const TOP = 5;

export interface WeeklyReport {
  /** The Monday and Sunday of the week reported on. */
  from: string;
  to: string;
  seconds: number;
  previousSeconds: number;
  languages: { name: string; seconds: number }[];
  projects: { name: string; seconds: number }[];
  /** Each goal and how it went in the week: met or not (weekly), on how many days (daily). */
  goals: { title: string; result: string }[];
  /** AI-assisted coding time of the week (an AI agent's, or the AI Coding category), and the lines agents and the owner changed. */
  ai: { seconds: number; aiLines: number; humanLines: number };
}

const totalSeconds = (days: { millis: number }[]) => Math.round(days.reduce((sum, d) => sum + d.millis, 0) / 1000);

/** The figures of the week starting `weekStart` (a Monday); `now` is when the report is made (goals are judged up to it). */
export async function weeklyReport(db: Db, user: { id: string; timezone: string }, weekStart: string, now = new Date()): Promise<WeeklyReport> {
  const to = addDays(weekStart, 6);
  const scope = { userId: user.id };
  const [week, previous, languages, projects, ai] = await Promise.all([
    dayTotals(db, scope, weekStart, to),
    dayTotals(db, scope, addDays(weekStart, -7), addDays(weekStart, -1)),
    dimensionTotals(db, scope, 'language', weekStart, to),
    // Hidden projects are left out (projectTotals): a report names only what the owner shows.
    ownProjects(db, user.id, weekStart, to),
    aiWeek(db, user.id, weekStart, to),
  ]);
  const named = languages
    .map((l) => ({ name: l.name, seconds: Math.round(l.millis / 1000) }))
    .filter((l) => l.seconds > 0)
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name));
  return {
    from: weekStart,
    to,
    seconds: totalSeconds(week),
    previousSeconds: totalSeconds(previous),
    languages: named.slice(0, TOP),
    projects: projects.slice(0, TOP).map((p) => ({ name: p.name, seconds: p.seconds })),
    goals: await goalResults(db, user, weekStart, now),
    ai,
  };
}

/** The week's AI-assisted time and the lines changed (additions plus deletions) by agents and by the owner. */
async function aiWeek(db: Db, userId: string, from: string, to: string): Promise<WeeklyReport['ai']> {
  const [millis, lines] = await Promise.all([aiMillis(db, userId, from, to), lineTotals(db, userId, from, to)]);
  return { seconds: Math.round(millis / 1000), aiLines: lines.ai_additions + lines.ai_deletions, humanLines: lines.human_additions + lines.human_deletions };
}

async function goalResults(db: Db, user: { id: string; timezone: string }, weekStart: string, now: Date): Promise<WeeklyReport['goals']> {
  const judged = await judgeGoals(db, user, await listGoals(db, user.id), now);
  return judged.map((j) => {
    const needed = j.goal.seconds * 1000;
    if (j.period === 'week') return { title: j.title, result: j.actual(weekStart) >= needed ? 'met' : `not met (${durationText(Math.round(j.actual(weekStart) / 1000))})` };
    // A goal that ignores weekends is judged on the five weekdays only.
    const days = Array.from({ length: 7 }, (_, i) => addDays(weekStart, i)).filter((d) => !j.ignored(d));
    return { title: j.title, result: `met on ${days.filter((d) => j.actual(d) >= needed).length} of ${days.length} days` };
  });
}

/** "up 20 % from 10 hrs", "down ...", "the same as", or "nothing the week before". */
function comparison(seconds: number, previous: number): string {
  if (previous === 0) return 'no coding time the week before';
  const change = Math.round(((seconds - previous) / previous) * 100);
  if (change === 0) return `about the same as the week before (${durationText(previous)})`;
  return `${change > 0 ? 'up' : 'down'} ${Math.abs(change)} % from ${durationText(previous)} the week before`;
}

/** Whether there is anything to say: a week with no time, after one with none, is not mailed. */
export const hasNews = (r: WeeklyReport) => r.seconds > 0 || r.previousSeconds > 0;

export function weeklyMail(to: string, r: WeeklyReport, links: { dashboard: string; unsubscribe: string }, headers: Record<string, string>): Mail {
  const subject = `Your coding week: ${r.seconds > 0 ? durationText(r.seconds) : 'no time'} (${r.from} to ${r.to})`;
  const named = (list: { name: string; seconds: number }[]) => list.map((x) => `${x.name}: ${durationText(x.seconds)}`);
  const parts: Part[] = [
    { p: `Your week from Monday ${r.from} to Sunday ${r.to}: ${r.seconds > 0 ? durationText(r.seconds) : 'no coding time'}, ${comparison(r.seconds, r.previousSeconds)}.` },
    ...(r.languages.length ? [{ p: 'Top languages:' }, { list: named(r.languages) }] : []),
    ...(r.projects.length ? [{ p: 'Top projects:' }, { list: named(r.projects) }] : []),
    ...(r.goals.length ? [{ p: 'Goals:' }, { list: r.goals.map((g) => `${g.title}: ${g.result}`) }] : []),
    ...(r.ai.seconds > 0 || r.ai.aiLines > 0
      ? [{ p: `AI-assisted: ${durationText(r.ai.seconds)}${r.seconds > 0 ? ` (${Math.round((r.ai.seconds / r.seconds) * 100)} % of your time)` : ''}; lines changed by AI agents ${r.ai.aiLines}, by you ${r.ai.humanLines}.` }]
      : []),
    { link: links.dashboard, label: 'Your dashboard' },
    { p: 'You get this mail because you turned on the weekly report in your settings.' },
    { link: links.unsubscribe, label: 'Unsubscribe (one click, no sign-in)' },
  ];
  return { to, subject, text: textOf(parts), html: htmlOf(subject, parts), headers };
}
