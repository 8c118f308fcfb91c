import { getAccount } from '../../accounts/me';
import { keysShownAgain, listTokens } from '../../accounts/tokens';
import type { SessionUser } from '../../auth/session';
import { badgeDto, listBadges } from '../../badges/store';
import { getDb } from '../../db/client';
import { ownGoals } from '../../figures/goals';
import { codedDayAverage } from '../../stats/average';
import { ownBreakdowns } from '../../stats/breakdowns';
import { hitmapChart, languageChart, timeChart, weeklyChart } from '../../stats/chart-bodies';
import { hasActivity, ownApps, ownerTarget, ownProjects } from '../../stats/own';
import { weekdayHours } from '../../stats/queries';
import { ownRangeNames, type RangeQuery, type ResolvedRange } from '../../stats/range';
import { siteAddress } from './session';

// What the signed-in pages show their owner: the overview's figures over all their data
// (projects, desktop applications, categories, AI agents, machines and systems included), and
// each settings page's part.

const targetOf = (user: SessionUser) => ownerTarget({ ...user, statsVersion: Number(user.statsVersion) });

/**
 * The overview: the account, every chart of the range (each day split by project, and the range's
 * categories, AI share, machines and systems from the Breakdowns' one statement), the goals, and
 * whether anything was counted yet. A one-day range also has its hours (`hours`, 24 of them, in
 * the owner's time zone, as every bucket is stored), else null.
 */
export async function dashboardData(user: SessionUser, range: RangeQuery) {
  const db = await getDb();
  const target = targetOf(user);
  const [account, time, language, hitmap, weekly, breakdowns, { goals }, active] = await Promise.all([
    getAccount(db, user.id),
    timeChart(db, target, range),
    languageChart(db, target, range),
    hitmapChart(db, target, { name: '365d' }),
    weeklyChart(db, target, 12),
    ownBreakdowns(db, user, range, 'project'),
    ownGoals(db, user),
    hasActivity(db, user.id),
  ]);
  const { from, to } = time.range;
  const [projects, apps, hours] = await Promise.all([
    ownProjects(db, user.id, from, to),
    ownApps(db, user.id, from, to),
    from === to ? weekdayHours(db, { userId: user.id }, from, to) : null,
  ]);
  // The daily average of one's own figures (lib/stats/average.ts), not the chart body's over every date (its public contract).
  const average = codedDayAverage(time.days.map((d) => d.seconds));
  return {
    account,
    time,
    average,
    language,
    hitmap,
    weekly,
    breakdowns,
    goals,
    projects,
    apps,
    hours: hours && Array.from({ length: 24 }, (_, h) => Math.round(hours.filter((c) => c.hour === h).reduce((sum, c) => sum + c.millis, 0) / 1000)),
    site: await siteAddress(),
    isNew: !active,
  };
}

/**
 * The query string of a range for a project's page, which takes fewer named ranges (GET
 * /me/projects' own): a name it takes as that name, any other (today, 90 days) as its dates.
 */
export const projectRangeSearch = (range: ResolvedRange) =>
  (ownRangeNames as readonly string[]).includes(range.name) ? `range=${range.name}` : `from=${range.from}&to=${range.to}`;

/** Settings, Keys: the tokens, and the address their settings name. */
export async function keysData(user: SessionUser) {
  const [tokens, shownAgain, site] = await Promise.all([listTokens(await getDb(), user.id), keysShownAgain(await getDb(), user.id), siteAddress()]);
  return { tokens, shownAgain, site };
}

/** Settings, Badges and cards: the account, its badges, and the languages a badge may show (of all time). */
export async function badgesData(user: SessionUser) {
  const db = await getDb();
  const [account, badgeRows, language, site] = await Promise.all([getAccount(db, user.id), listBadges(db, user.id), languageChart(db, targetOf(user), { name: 'all' }), siteAddress()]);
  return { account, site, languages: language.languages.map((l) => l.name), badges: badgeRows.map((b) => badgeDto(b, site.origin)) };
}

/** The account as its settings pages show it (sharing, password, plan, data). */
export async function accountData(user: SessionUser) {
  return getAccount(await getDb(), user.id);
}
