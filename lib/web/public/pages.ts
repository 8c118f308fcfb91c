import { unstable_cache } from 'next/cache';
import { notFound } from 'next/navigation';
import { dayTag, handleTag, COMMUNITY_TAG } from '../../cache/tags';
import { getDb } from '../../db/client';
import { atVersion, onReplica } from '../../db/replicas';
import { ApiError } from '../../http/problem';
import { decodedSegment } from '../../http/url';
import { isHandle, isUuid } from '../../ids';
import { publicOwner } from '../../sharing/gate';
import { publicChartData } from '../../stats/public';
import { codedDayAverage } from '../../stats/average';
import { aiMillis, lineTotals } from '../../stats/queries';

// What the public pages show: the same gated, cached answers as the public chart routes, with the
// tags that tell the page cache when they change (lib/cache/tags.ts).

/**
 * True while `next build` prerenders a page on a host whose build does not reach the database
 * (every host but Vercel, whose build step migrates first): the page is made empty, and the
 * cache of a Node host never serves what the build made (lib/cache/next-handler.mjs).
 */
export const prerenderingWithoutDatabase = (): boolean => process.env.NEXT_PHASE === 'phase-production-build' && !process.env.VERCEL;

/**
 * Tags the page or route being rendered: its cache entry carries these tags (Next collects the
 * tags of every unstable_cache call of a render). The cached value itself is nothing.
 */
export async function tagRender(...tags: string[]): Promise<void> {
  await unstable_cache(async () => true, ['codetally-tags', ...tags], { tags })();
}

/** The site-wide figures of the home page. */
export async function communityFigures() {
  await tagRender(COMMUNITY_TAG, dayTag('UTC'));
  const [languages, weekly, time] = await Promise.all([
    publicChartData('language', { range: '30d' }),
    publicChartData('weekly', { weeks: '12' }),
    publicChartData('time', { range: '30d' }),
  ]);
  return { languages, weekly, time };
}

/**
 * The profile of the `[handle]` path segment as it arrived (percent-encoded or not). A private
 * or unknown handle is a 404 page, as it is a 404 answer on the API; that page, too, is cached
 * until the handle is taken or made public.
 */
export async function profileData(segment: string) {
  const handle = decodedSegment(segment);
  if (handle === null) notFound();
  try {
    const owner = await publicOwner(await getDb(), handle);
    await tagRender(owner.user.id, handleTag(handle), dayTag(owner.timezone));
    const [time, language, hitmap, weekly] = await Promise.all([
      publicChartData('time', { user: handle, range: '30d' }),
      publicChartData('language', { user: handle, range: '30d' }),
      publicChartData('hitmaps', { user: handle, range: '365d' }),
      publicChartData('weekly', { user: handle, weeks: '12' }),
    ]);
    // AI-assisted coding over the same days, only while the owner shares it (share_ai).
    const ai = owner.shares.ai ? await sharedAi(owner.user.id, owner.statsVersion, time.range) : null;
    // The one daily average of the dashboard and the WakaTime API (over the days with coding), not
    // the time chart's over every date (that route's contract); the page and its card say so.
    const average = Math.round(codedDayAverage(time.days.map((d) => d.seconds)).average);
    return { user: time.user!, sharesLanguages: owner.shares.languages, time, average, language, hitmap, weekly, ai };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
      // A segment that can be no handle and no id is never taken: nothing to tag.
      if (isHandle(handle) || isUuid(handle)) await tagRender(handleTag(handle));
      notFound();
    }
    throw err;
  }
}

/** A user's AI-assisted coding time and the AI and human line changes of the dates. */
async function sharedAi(userId: string, version: number, range: { from: string; to: string }) {
  const db = await getDb();
  const [millis, lines] = await onReplica(db, { user: userId }, (reader) =>
    Promise.all([aiMillis(reader, userId, range.from, range.to), lineTotals(reader, userId, range.from, range.to)]),
    atVersion(userId, version),
  );
  return { seconds: Math.round(millis / 1000), ...lines };
}
