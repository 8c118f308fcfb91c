import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { config } from '../config';
import { getDb, openedDb, rows, type Db } from '../db/client';
import { communityDirty } from '../db/schema';
import { failureLine } from '../db/errors';
import { atVersion, onReplica } from '../db/replicas';
import { publicSerialized, serialize, type PublicCachePolicy, type Serialized } from '../http/public';
import { parseQuery } from '../http/query';
import { knownPublicOwner, publicOwner } from '../sharing/gate';
import { ProcessCache } from '../process-cache';
import { refreshCommunity } from './community';
import { hitmapChart, languageChart, timeChart, todayFor, weeklyChart, type ChartTarget } from './chart-bodies';
import { chartQueries } from './schemas';

// The four public chart routes: who is asked about (the gate), which range, one cached
// computation per distinct question.

export type ChartName = 'time' | 'language' | 'hitmaps' | 'weekly';

type ChartQuery = z.output<(typeof chartQueries)[ChartName]>;
const cache = new ProcessCache<Serialized>('public-charts');
/** A per-user answer is keyed by the user's data version, so it can live until evicted. */
const userEntryMs = 10 * 60_000;

async function target(ref: string | undefined): Promise<ChartTarget> {
  return ref === undefined ? { scope: 'global' } : { scope: 'user', owner: await publicOwner(await getDb(), ref) };
}

export function chartCachePolicy(t: ChartTarget): PublicCachePolicy {
  // Per-user answers change with every upload and stop when the profile turns private: shared
  // caches keep them at most a minute, plus a minute stale. Site-wide ones may lag by PUBLIC_CACHE_SECONDS.
  if (t.scope === 'user') return { maxAge: 0, sMaxAge: 60, staleWhileRevalidate: 60 };
  const seconds = config().PUBLIC_CACHE_SECONDS;
  return { maxAge: Math.min(60, seconds), sMaxAge: seconds, staleWhileRevalidate: Math.max(seconds, 60) };
}

/** What the cache needs for one chart question: its key, how long an answer lives, how to compute it. */
function cacheEntry(db: Db, chart: ChartName, t: ChartTarget, query: ChartQuery) {
  const today = todayFor(t);
  const question = 'weeks' in query ? { weeks: query.weeks } : query.range;
  // The figures are read on a replica that has replayed every change of the owner (or, site-wide,
  // of every listing) this process knows of, else on the primary (lib/db/replicas.ts); the owner
  // and what they share came from the primary, through the gate.
  const build = (): Promise<unknown> =>
    onReplica<unknown>(
      db,
      t.scope === 'user' ? { user: t.owner.user.id } : 'site',
      (reader) => {
        if ('weeks' in question) return weeklyChart(reader, t, question.weeks, today);
        if (chart === 'time') return timeChart(reader, t, question, today);
        if (chart === 'language') return languageChart(reader, t, question, today);
        return hitmapChart(reader, t, question, today);
      },
      t.scope === 'user' ? atVersion(t.owner.user.id, t.owner.statsVersion) : recounted,
    );
  // The cache holds the serialized answer and its ETag: a hit costs no JSON or hashing.
  // A site-wide answer first brings the community rollups up to date.
  const compute = async () => {
    // A recount that fails (a deadline on a large backlog, after a migration) leaves the figures of
    // the last one: the answer is served from them, and a later read tries again.
    if (t.scope === 'global') {
      await refreshCommunity(db).catch((err) => console.error('[codetally] site-wide figures not brought up to date, answering from the last recount:', failureLine(err)));
    }
    return serialize(await build());
  };
  const who =
    t.scope === 'user'
      ? `${t.owner.user.id}:${t.owner.statsVersion}:${JSON.stringify(t.owner.shares)}:${t.owner.timezone}:${t.owner.user.handle}:${t.owner.user.display_name}`
      : 'global';
  const key = `${chart}|${who}|${JSON.stringify(question)}|${today}`;
  const ttl = t.scope === 'user' ? userEntryMs : config().PUBLIC_CACHE_SECONDS * 1000;
  return { key, ttl, compute };
}

/**
 * Whether a replica holds the site-wide figures as recounted: no date waits for a recount there.
 * With the site-wide fence passed (a member leaving the community figures marks their dates in the
 * same transaction), this means the recount that took them out has been replayed too.
 */
async function recounted(replica: Db): Promise<boolean> {
  const [row] = await rows<{ pending: boolean }>(replica, sql`SELECT EXISTS (SELECT 1 FROM ${communityDirty}) AS pending`);
  return !row.pending;
}

interface ChartAnswer {
  serialized: Serialized;
  target: ChartTarget;
}

/**
 * One public chart answer, serialized, from the shared cache: the JSON routes send it as is and
 * the public pages read the same answer, so both go through the gate and the cache alike.
 */
export async function publicChart(chart: ChartName, params: URLSearchParams): Promise<ChartAnswer> {
  const query = parseQuery(chartQueries[chart], params);
  const t = await target(query.user);
  const { key, ttl, compute } = cacheEntry(await getDb(), chart, t, query);
  return { serialized: await cache.get(key, ttl, compute), target: t };
}

/**
 * The same answer when it can be given at once: the owner known to the gate's cache and the
 * answer in the shared cache. No promise and no database, so a busy chart costs little more than
 * a route that does nothing. Undefined otherwise (then ask publicChart).
 */
function readyChart(chart: ChartName, params: URLSearchParams): ChartAnswer | undefined {
  const db = openedDb();
  if (!db) return undefined;
  const query = parseQuery(chartQueries[chart], params);
  const owner = query.user === undefined ? undefined : knownPublicOwner(db, query.user);
  if (query.user !== undefined && !owner) return undefined;
  const t: ChartTarget = owner ? { scope: 'user', owner } : { scope: 'global' };
  const { key, ttl, compute } = cacheEntry(db, chart, t, query);
  const serialized = cache.peek(key, ttl, compute);
  return serialized && { serialized, target: t };
}

export interface ChartBodies {
  time: Awaited<ReturnType<typeof timeChart>>;
  language: Awaited<ReturnType<typeof languageChart>>;
  hitmaps: Awaited<ReturnType<typeof hitmapChart>>;
  weekly: Awaited<ReturnType<typeof weeklyChart>>;
}

/** The same answer as the JSON route, as an object, for a server-rendered page. */
export async function publicChartData<C extends ChartName>(chart: C, params: Record<string, string>): Promise<ChartBodies[C]> {
  const { serialized } = await publicChart(chart, new URLSearchParams(params));
  return JSON.parse(serialized.body) as ChartBodies[C];
}

export function chartResponse(request: Request, chart: ChartName): Response | Promise<Response> {
  const params = new URL(request.url).searchParams;
  const respond = ({ serialized, target: t }: ChartAnswer) => publicSerialized(request, serialized, chartCachePolicy(t));
  const ready = readyChart(chart, params);
  return ready ? respond(ready) : publicChart(chart, params).then(respond);
}
