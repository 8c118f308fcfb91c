import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { desktopActivity, heartbeats, hiddenProjects, ideActivity, userHours } from '../db/schema';
import { periodOf, type Per } from './queries';
import { HOUR_CAP_MILLIS } from '../activity';
import type { PublicOwner } from '../sharing/owner';
import type { ChartTarget, NamedSeconds } from './chart-bodies';

// The owner's own view (dashboard): every dimension, shared or not, including projects and
// desktop applications, which no public surface shows. Hours are capped at 3600 s as everywhere.

/** The chart target of the owner looking at their own data: everything is "shared" with them. */
export function ownerTarget(user: { id: string; handle: string; displayName: string; timezone: string; statsVersion: number }): ChartTarget {
  const owner: PublicOwner = {
    user: { id: user.id, handle: user.handle, display_name: user.displayName },
    timezone: user.timezone,
    shares: { languages: true, editors: true, apps: true, ai: true, machines: true },
    statsVersion: user.statsVersion,
  };
  return { scope: 'user', owner, own: true };
}

function named(found: { name: string; millis: number }[]): NamedSeconds[] {
  const list = found.map((f) => ({ name: f.name, seconds: Math.round(Number(f.millis) / 1000) })).filter((f) => f.seconds > 0);
  const total = list.reduce((sum, f) => sum + f.seconds, 0);
  return list
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name))
    .map((f) => ({ ...f, percent: total ? Math.round((f.seconds / total) * 1000) / 10 : 0 }));
}

/**
 * Coding time per project (per period), an hour over the cap scaled down in proportion. Hidden
 * projects are left out (their time counts in totals only): only the owner's project list
 * (lib/projects/read.ts) names them.
 */
export async function projectTotals(db: Db, userId: string, from: string, to: string, per: Per = 'range'): Promise<{ period: string; name: string; millis: number }[]> {
  const [a, h, x] = [ideActivity, userHours, hiddenProjects];
  const found = await rows<{ period: string; name: string; millis: number }>(
    db,
    sql`SELECT * FROM (
          SELECT ${periodOf(a.date, per)} AS period, CASE WHEN ${a.project} = '' THEN '(no project)' ELSE ${a.project} END AS name,
                 sum(${a.millis} * least(1, ${HOUR_CAP_MILLIS}::float8 / nullif(${h.millis}, 0)))::float8 AS millis
          FROM ${a} JOIN ${h} ON ${h.userId} = ${a.userId} AND ${h.date} = ${a.date} AND ${h.hour} = ${a.hour}
          WHERE ${a.userId} = ${userId}::uuid AND ${a.date} BETWEEN ${from} AND ${to}
          GROUP BY 1, 2) AS p
        WHERE NOT EXISTS (SELECT 1 FROM ${x} WHERE ${x.userId} = ${userId}::uuid AND ${x.project} = p.name)`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis) }));
}

/** Coding time per project over the range, as the dashboard lists it. */
export async function ownProjects(db: Db, userId: string, from: string, to: string): Promise<NamedSeconds[]> {
  return named(await projectTotals(db, userId, from, to));
}

/** Desktop time per application, capped per hour across applications; its own figure. */
export async function ownApps(db: Db, userId: string, from: string, to: string): Promise<NamedSeconds[]> {
  const d = desktopActivity;
  return named(
    await rows<{ name: string; millis: number }>(
      db,
      sql`WITH hours AS (
            SELECT ${d.app} AS app, ${d.millis} AS millis, sum(${d.millis}) OVER (PARTITION BY ${d.date}, ${d.hour}) AS hour_millis
            FROM ${d} WHERE ${d.userId} = ${userId}::uuid AND ${d.date} BETWEEN ${from} AND ${to})
          SELECT app AS name, sum(millis * least(1, ${HOUR_CAP_MILLIS}::float8 / nullif(hour_millis, 0)))::float8 AS millis
          FROM hours GROUP BY app`,
    ),
  );
}

/** Whether the user has any coding or desktop time at all: a new account's dashboard leads with setting up. */
export async function hasActivity(db: Db, userId: string): Promise<boolean> {
  const [found] = await rows<{ any: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM ${ideActivity} WHERE ${ideActivity.userId} = ${userId}::uuid)
            OR EXISTS (SELECT 1 FROM ${desktopActivity} WHERE ${desktopActivity.userId} = ${userId}::uuid)
            OR EXISTS (SELECT 1 FROM ${heartbeats} WHERE ${heartbeats.userId} = ${userId}::uuid) AS any`,
  );
  return Boolean(found?.any);
}

/**
 * The bucket the user's plugins or agent wrote last, or their latest heartbeat when it came later
 * (a first heartbeat counts no time until the next one, two minutes on), or null before the first:
 * what the set-up steps wait for.
 */
export async function latestActivity(db: Db, userId: string): Promise<{ kind: 'editor' | 'desktop'; name: string; source: string; seconds: number; at: string } | null> {
  const [a, d, h] = [ideActivity, desktopActivity, heartbeats];
  const [found] = await rows<{ kind: 'editor' | 'desktop'; name: string; source: string; millis: number; at: string | Date }>(
    db,
    sql`(SELECT 'editor' AS kind, ${a.language} AS name, ${a.editor} AS source, ${a.millis} AS millis, ${a.updatedAt} AS at
         FROM ${a} WHERE ${a.userId} = ${userId}::uuid ORDER BY ${a.updatedAt} DESC LIMIT 1)
        UNION ALL
        (SELECT 'desktop', ${d.app}, ${d.platform}, ${d.millis}, ${d.updatedAt}
         FROM ${d} WHERE ${d.userId} = ${userId}::uuid ORDER BY ${d.updatedAt} DESC LIMIT 1)
        UNION ALL
        (SELECT CASE WHEN ${h.type} = 'app' THEN 'desktop' ELSE 'editor' END, CASE WHEN ${h.type} = 'app' THEN ${h.app} ELSE ${h.language} END,
                CASE WHEN ${h.type} = 'app' THEN ${h.os} ELSE ${h.editor} END, 0, to_timestamp(${h.at} / 1000.0)
         FROM ${h} WHERE ${h.userId} = ${userId}::uuid ORDER BY ${h.at} DESC LIMIT 1)
        ORDER BY at DESC LIMIT 1`,
  );
  if (!found) return null;
  return { kind: found.kind, name: found.name, source: found.source, seconds: Math.round(Number(found.millis) / 1000), at: new Date(found.at).toISOString() };
}
