import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { deleteAccount, updateAccount } from '@/lib/accounts/me';
import { CacheClock } from '@/lib/cache/clock';
import { PROFILES_TAG } from '@/lib/cache/tags';
import { usersChanged } from '@/lib/db/changes';
import { dbHandle, getDb } from '@/lib/db/client';
import { publicPagePaths, robotsRules, sitemapEntries } from '@/lib/web/public/crawl';
import { call, newUser } from '../helpers/api';

// What crawlers are told: the sitemap lists public pages and public profiles only, and a cached
// sitemap is dropped as soon as a profile is made public or private.

const origin = 'https://codetally.example';
const urls = async () => (await sitemapEntries(await getDb(), origin)).map((e) => e.url);
const profile = (handle: string) => `${origin}/u/${handle}`;

describe('the sitemap', () => {
  it('lists the public pages and every public profile, never a private one, at the configured origin', async () => {
    const shown = await newUser({ settings: { profile_public: true } });
    const hidden = await newUser({ settings: { profile_public: false, share_languages: true, leaderboard: true } });
    const listed = await urls();
    expect(listed.slice(0, publicPagePaths.length)).toEqual([
      `${origin}/`,
      `${origin}/leaderboard`,
      `${origin}/pricing`,
      `${origin}/docs`,
      `${origin}/docs/wakatime`,
      `${origin}/docs/readme-cards`,
      `${origin}/docs/api`,
      `${origin}/docs/errors`,
    ]);
    expect(listed).toContain(profile(shown.user.handle));
    expect(listed).not.toContain(profile(hidden.user.handle));
    expect(listed.filter((u) => u.includes(hidden.user.handle) || u.includes(hidden.user.id))).toEqual([]);
    expect(listed.every((u) => u.startsWith(`${origin}/`))).toBe(true);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('drops a profile made private, and lists one made public, at the next render', async () => {
    const { user } = await newUser({ settings: { profile_public: true } });
    const db = await getDb();
    expect(await urls()).toContain(profile(user.handle));
    await updateAccount(db, user.id, { settings: { profile_public: false } });
    expect(await urls()).not.toContain(profile(user.handle));
    await updateAccount(db, user.id, { handle: `${user.handle}x`, settings: { profile_public: true } });
    expect(await urls()).toContain(profile(`${user.handle}x`));
    expect(await urls()).not.toContain(profile(user.handle));
    await deleteAccount(db, user.id);
    expect(await urls()).not.toContain(profile(`${user.handle}x`));
  });

  // Behind a transaction pooler no change is received, and the page cache serves nothing (lib/cache/clock.ts).
  it.skipIf(process.env.TEST_DB === 'pgbouncer')('cached, is out of date once a profile is made private, created public or deleted; not on every write', async () => {
    const { changes } = await dbHandle();
    const clock = new CacheClock(changes);
    const db = await getDb();
    // What was announced before counts as before: on PostgreSQL a change is received again when the
    // feed brings it back, a moment later, after the changes announced before it. So once the feed
    // is received at all, a marker announced now is waited for until the feed has brought it back too.
    const heardTimes = process.env.TEST_DB !== 'pglite' ? 2 : 1;
    const allHeard = async () => {
      while (!changes.live) await new Promise((r) => setTimeout(r, 5));
      const marker = `marker:${randomUUID()}`;
      let heard = 0;
      const back = new Promise<void>((resolve) => changes.subscribe((subject) => subject === marker && ++heard === heardTimes && resolve()));
      await usersChanged(db, [], [marker]);
      await back;
      await new Promise((r) => setTimeout(r, 2)); // the clock counts in milliseconds
    };
    const changedAfter = async (change: () => Promise<unknown>) => {
      await allHeard();
      const since = Date.now();
      await change();
      return clock.changedSince([PROFILES_TAG], since);
    };
    const { user, token } = await newUser({ settings: { profile_public: true } });
    const activity = { language: 'Go', time: 600, hour: 10, date: '2026-05-04', ide_name: 'vim' };
    expect(await changedAfter(() => call(postBatch, '/sync/activities', { token, body: { activities: [activity] } }))).toBe(false);
    expect(await changedAfter(() => updateAccount(db, user.id, { display_name: 'A new name' }))).toBe(false);
    expect(await changedAfter(() => updateAccount(db, user.id, { settings: { profile_public: false } }))).toBe(true);
    expect(await changedAfter(() => newUser({ settings: { profile_public: true } }))).toBe(true);
    expect(await changedAfter(() => newUser())).toBe(false);
    expect(await changedAfter(() => deleteAccount(db, user.id))).toBe(true);
  });
});

describe('robots.txt', () => {
  it('lets crawlers read the public pages and badges, not the dashboard or the APIs, and names the sitemap', () => {
    expect(robotsRules(origin)).toEqual({
      rules: { userAgent: '*', allow: ['/', '/main/api/v1/public/'], disallow: ['/dashboard', '/auth/', '/api/', '/main/api/', '/metrics'] },
      sitemap: `${origin}/sitemap.xml`,
    });
  });
});
