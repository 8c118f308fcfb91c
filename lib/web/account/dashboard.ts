import { getAccount } from '../../accounts/me';
import { listTokens } from '../../accounts/tokens';
import type { SessionUser } from '../../auth/session';
import { badgeDto, listBadges } from '../../badges/store';
import { getDb } from '../../db/client';
import { codedDayAverage } from '../../stats/average';
import { hitmapChart, languageChart, timeChart, weeklyChart } from '../../stats/chart-bodies';
import { hasActivity, ownApps, ownerTarget, ownProjects } from '../../stats/own';
import type { RangeQuery } from '../../stats/range';
import { siteAddress } from './session';

// What the signed-in pages show their owner: the overview's figures over all their data
// (projects and desktop applications included), and each settings page's part.

const targetOf = (user: SessionUser) => ownerTarget({ ...user, statsVersion: Number(user.statsVersion) });

/** The overview: the account, every chart of the range, and whether anything was counted yet. */
export async function dashboardData(user: SessionUser, range: RangeQuery) {
  const db = await getDb();
  const target = targetOf(user);
  const [account, time, language, hitmap, weekly, active] = await Promise.all([
    getAccount(db, user.id),
    timeChart(db, target, range),
    languageChart(db, target, range),
    hitmapChart(db, target, { name: '365d' }),
    weeklyChart(db, target, 12),
    hasActivity(db, user.id),
  ]);
  const [projects, apps] = await Promise.all([ownProjects(db, user.id, time.range.from, time.range.to), ownApps(db, user.id, time.range.from, time.range.to)]);
  // The daily average of one's own figures (lib/stats/average.ts), not the chart body's over every date (its public contract).
  const average = codedDayAverage(time.days.map((d) => d.seconds));
  return { account, time, average, language, hitmap, weekly, projects, apps, site: await siteAddress(), isNew: !active };
}

/** Settings, Keys: the tokens, and the address their settings name. */
export async function keysData(user: SessionUser) {
  const [tokens, site] = await Promise.all([listTokens(await getDb(), user.id), siteAddress()]);
  return { tokens, site };
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
