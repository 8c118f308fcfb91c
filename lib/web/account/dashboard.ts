import { getAccount } from '../../accounts/me';
import { listTokens } from '../../accounts/tokens';
import type { SessionUser } from '../../auth/session';
import { badgeDto, listBadges } from '../../badges/store';
import { getDb } from '../../db/client';
import { hitmapChart, languageChart, timeChart, weeklyChart } from '../../stats/chart-bodies';
import { hasActivity, ownApps, ownerTarget, ownProjects } from '../../stats/own';
import type { RangeQuery } from '../../stats/range';
import { siteAddress } from './session';

// Everything the dashboard shows its owner: the account, every chart over all their data
// (projects and desktop applications included), tokens and badges.

export async function dashboardData(user: SessionUser, range: RangeQuery) {
  const db = await getDb();
  const target = ownerTarget({ ...user, statsVersion: Number(user.statsVersion) });
  const [account, time, language, hitmap, weekly, tokens, badgeRows, active] = await Promise.all([
    getAccount(db, user.id),
    timeChart(db, target, range),
    languageChart(db, target, range),
    hitmapChart(db, target, { name: '365d' }),
    weeklyChart(db, target, 12),
    listTokens(db, user.id),
    listBadges(db, user.id),
    hasActivity(db, user.id),
  ]);
  const [projects, apps] = await Promise.all([ownProjects(db, user.id, time.range.from, time.range.to), ownApps(db, user.id, time.range.from, time.range.to)]);
  const site = await siteAddress();
  return { account, time, language, hitmap, weekly, tokens, projects, apps, site, badges: badgeRows.map((b) => badgeDto(b, site.origin)), isNew: !active };
}
