import { makeBadge } from 'badge-maker';
import type { Db } from '../db/client';
import { localDateHour } from '../local-time';
import type { PublishedBadge } from '../sharing/gate';
import { codedDayAverage } from '../stats/average';
import { aiMillis, dayTotals, dimensionTotals } from '../stats/queries';
import type { RangeName } from '../stats/range';
import { userRange } from '../plans/history';
import { formatDuration } from './format';
import { badgeStyles, type BadgeStyle } from './schemas';

// What a badge shows: its one figure, computed from the same read queries as the charts.

export async function badgeSeconds(db: Db, { badge, timezone, historyDays }: PublishedBadge): Promise<number> {
  const scope = { userId: badge.userId };
  const today = localDateHour(timezone).date;
  // `all` and every range: no day before the owner's plan's window of history.
  const range = await userRange(db, badge.userId, { name: badge.range as RangeName }, today, historyDays);
  if (badge.metric === 'language') {
    const figures = await dimensionTotals(db, scope, 'language', range.from, range.to);
    return Math.round((figures.find((f) => f.name === badge.language)?.millis ?? 0) / 1000);
  }
  if (badge.metric === 'ai') return Math.round((await aiMillis(db, badge.userId, range.from, range.to)) / 1000);
  const days = (await dayTotals(db, scope, range.from, range.to)).map((d) => d.millis);
  // The one daily average (the dashboard's and WakaTime's): over the days with coding time.
  if (badge.metric === 'daily_average') return Math.round(codedDayAverage(days).average / 1000);
  return Math.round(days.reduce((sum, millis) => sum + millis, 0) / 1000);
}

export interface BadgeFace {
  label: string;
  message: string;
  color: string;
}

export async function badgeFace(db: Db, published: PublishedBadge): Promise<BadgeFace> {
  return { label: published.badge.label, message: formatDuration(await badgeSeconds(db, published)), color: published.badge.color };
}

export const notFoundFace: BadgeFace = { label: 'codetally', message: 'badge not found', color: 'lightgrey' };

/** An SVG badge; badge-maker escapes the label and message, so hostile text stays text. */
export function renderSvg(face: BadgeFace, style: BadgeStyle): string {
  return makeBadge({ label: face.label, message: face.message, color: face.color, style });
}

/** The style asked for in the embed URL, else the badge's own (an embed must never break). */
export function styleOf(requested: string | null, fallback: string): BadgeStyle {
  const valid = (s: string | null): s is BadgeStyle => !!s && (badgeStyles as readonly string[]).includes(s);
  return valid(requested) ? requested : valid(fallback) ? fallback : 'flat';
}
