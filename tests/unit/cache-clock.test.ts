import { afterEach, describe, expect, it } from 'vitest';
import { CacheClock, installCacheClock, lastMidnight } from '../../lib/cache/clock';
import { COMMUNITY_TAG, dayTag, handleTag, LEADERBOARD_TAG } from '../../lib/cache/tags';
import { resetConfig } from '../../lib/config';
import { embeddedChanges, unheardChanges } from '../../lib/db/changes';

const at = (iso: string) => Date.parse(iso);

describe('lastMidnight', () => {
  it('is the instant the local date turned, on an ordinary day', () => {
    expect(lastMidnight('UTC', at('2026-11-23T15:42:10.123Z'))).toBe(at('2026-11-23T00:00:00Z'));
    expect(lastMidnight('Asia/Kolkata', at('2026-11-23T15:42:10Z'))).toBe(at('2026-11-22T18:30:00Z'));
    // Just before a local midnight, the previous one.
    expect(lastMidnight('America/Los_Angeles', at('2026-11-24T07:59:59Z'))).toBe(at('2026-11-23T08:00:00Z'));
  });

  it('counts from the true turn of the date on a day whose clock moved', () => {
    // New York springs forward at 02:00 on 2026-03-08: midnight was still at UTC-5.
    expect(lastMidnight('America/New_York', at('2026-03-08T20:00:00Z'))).toBe(at('2026-03-08T05:00:00Z'));
    // London falls back at 02:00 on 2026-10-25: midnight was at UTC+1.
    expect(lastMidnight('Europe/London', at('2026-10-25T22:30:00Z'))).toBe(at('2026-10-24T23:00:00Z'));
    // Santiago springs forward at midnight itself (2026-09-06): the day began at 01:00, UTC-3.
    expect(lastMidnight('America/Santiago', at('2026-09-06T12:00:00Z'))).toBe(at('2026-09-06T04:00:00Z'));
  });
});

describe('CacheClock', () => {
  afterEach(() => {
    delete process.env.PUBLIC_CACHE_SECONDS;
    delete process.env.LEADERBOARD_MAX_AGE;
    resetConfig();
  });

  it('serves an answer until one of its tags is announced, and not what began rendering before', async () => {
    const changes = embeddedChanges();
    const clock = new CacheClock(changes);
    const user = 'a3c5a9a1-0000-4000-8000-000000000001';
    const since = Date.now() - 10;
    expect(clock.changedSince([user, handleTag('Ada')], since)).toBe(false);
    await changes.announce([handleTag('ada')]);
    expect(clock.changedSince([user, handleTag('Ada')], since)).toBe(true);
    expect(clock.changedSince([user], since)).toBe(false);
    // A render that begins after the change is good until the next one.
    const later = Date.now() + 1;
    expect(clock.changedSince([user, handleTag('Ada')], later, later)).toBe(false);
    await changes.announce([user]);
    expect(clock.changedSince([user], since)).toBe(true);
  });

  it('forgets everything when anything may have changed', () => {
    const changes = embeddedChanges();
    const clock = new CacheClock(changes);
    const since = Date.now() - 10;
    expect(clock.changedSince([], since)).toBe(false);
    clock.mark(null);
    expect(clock.changedSince([], since)).toBe(true);
  });

  it('serves nothing while the change feed is not received', () => {
    const clock = new CacheClock(unheardChanges());
    expect(clock.serving).toBe(false);
    expect(clock.changedSince([], Date.now())).toBe(true);
  });

  it('lets site-wide figures and the leaderboard lag by their configured ages, and a date end at midnight', () => {
    process.env.PUBLIC_CACHE_SECONDS = '300';
    process.env.LEADERBOARD_MAX_AGE = '60';
    resetConfig();
    const clock = new CacheClock(embeddedChanges());
    const now = at('2026-11-23T12:00:00Z');
    expect(clock.changedSince([COMMUNITY_TAG], now - 299_000, now)).toBe(false);
    expect(clock.changedSince([COMMUNITY_TAG], now - 301_000, now)).toBe(true);
    expect(clock.changedSince([LEADERBOARD_TAG], now - 59_000, now)).toBe(false);
    expect(clock.changedSince([LEADERBOARD_TAG], now - 61_000, now)).toBe(true);
    clock.mark([LEADERBOARD_TAG], now - 1000);
    expect(clock.changedSince([LEADERBOARD_TAG], now - 2000, now)).toBe(true);
    // Rendered before Tokyo's midnight (15:00 UTC): stale after it, not before.
    expect(clock.changedSince([dayTag('Asia/Tokyo')], at('2026-11-23T14:59:00Z'), at('2026-11-23T14:59:30Z'))).toBe(false);
    expect(clock.changedSince([dayTag('Asia/Tokyo')], at('2026-11-23T14:59:00Z'), at('2026-11-23T15:00:01Z'))).toBe(true);
  });
});

describe("Next's cache handler", () => {
  it('keeps a route\'s 200 and 404, never an answer that says no-store', async () => {
    installCacheClock(embeddedChanges());
    // Plain JavaScript that Next loads itself (lib/cache/next-handler.mjs).
    const { default: Handler } = await import('../../lib/cache/next-handler.mjs');
    const handler = new Handler();
    const route = (status: number, cacheControl: string) => ({ kind: 'APP_ROUTE', status, body: Buffer.from('x'), headers: { 'cache-control': cacheControl } });
    const kept = async (key: string, data: object) => {
      await handler.get(key);
      await handler.set(key, data, { cacheControl: { revalidate: 60 } });
      return (await handler.get(key)) !== null;
    };
    expect(await kept('/badge-200', route(200, 'public, max-age=60'))).toBe(true);
    expect(await kept('/badge-404', route(404, 'public, max-age=60'))).toBe(true);
    expect(await kept('/badge-problem', route(404, 'no-store'))).toBe(false);
    expect(await kept('/badge-405', route(405, 'public'))).toBe(false);
  });
});
