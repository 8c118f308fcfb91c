import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { DELETE as deleteRoute } from '@/app/main/api/v1/badges/[id]/route';
import { POST as refreshRoute } from '@/app/main/api/v1/badges/[id]/refresh/route';
import { GET as listRoute, POST as createRoute } from '@/app/main/api/v1/badges/route';
import { GET as shieldsRoute } from '@/app/main/api/v1/public/[site]/shields/[userUUID]/route';
import { GET as svgRoute } from '@/app/main/api/v1/public/[site]/svg/[userUUID]/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { updateAccount } from '@/lib/accounts/me';
import { getDb } from '@/lib/db/client';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { documented } from '../helpers/contract';

const today = daysFromToday(0);
const create = (token: string, body: unknown) => call(createRoute, '/badges', { token, body });
const withId = (id: string) => ({ params: Promise.resolve({ id }) });

/** Fetches an embed URL the way an image proxy would. */
async function fetchEmbed(url: string, headers: Record<string, string> = {}) {
  const u = new URL(url);
  const [, , , , , site, kind, owner] = u.pathname.split('/'); // ['', 'main', 'api', 'v1', 'public', site, kind, owner]
  const route = kind === 'svg' ? svgRoute : shieldsRoute;
  const request = new Request(url, { headers });
  return documented(request, await route(request, { params: Promise.resolve({ site, userUUID: owner }) }));
}

async function coder(activities: { language: string; time: number; hour: number }[], settings: Record<string, boolean> = {}) {
  const u = await newUser({ settings }); // private profile: a badge is consent enough
  const body = { activities: activities.map((a) => ({ ...a, date: today })) };
  expect((await call(postBatch, '/sync/activities', { token: u.token, body })).status).toBe(200);
  return u;
}

describe('badges', () => {
  it('creates a badge whose URL shows exactly its figure, as SVG and as shields JSON', async () => {
    // A private profile that shares languages (a language badge made with a token needs that).
    const { user, token } = await coder([{ language: 'Go', time: 3600, hour: 1 }, { language: 'Go', time: 1800, hour: 2 }, { language: 'SQL', time: 600, hour: 3 }], { share_languages: true });
    const res = await create(token, { metric: 'total', range: '7d' });
    expect(res.status).toBe(201);
    const badge = await res.json();
    expect(badge.url).toBe(`http://localhost/main/api/v1/public/github/svg/${user.id}?badge=${badge.id}`);
    expect(badge.markdown).toBe(`![coded 7d](${badge.url})`);
    expect(badge.html).toContain(`src="${badge.url}"`);

    const svg = await fetchEmbed(badge.url);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(svg.headers.get('cache-control')).toMatch(/public.*s-maxage/);
    const text = await svg.text();
    expect(XMLValidator.validate(text)).toBe(true);
    expect(text).toContain('1 hr 40 mins');

    const shields = await (await fetchEmbed(badge.shields_url)).json();
    expect(shields).toEqual({ schemaVersion: 1, label: 'coded 7d', message: '1 hr 40 mins', color: 'blue', cacheSeconds: 60 });
    // Shared caches keep a badge a minute (plus a minute stale): a deleted badge is gone from them within two.
    expect(svg.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60, stale-while-revalidate=60');

    const lang = await (await create(token, { metric: 'language', range: '30d', language: 'SQL', label: 'SQL', style: 'for-the-badge', color: '#ff8800' })).json();
    const langSvg = await (await fetchEmbed(lang.url)).text();
    expect(langSvg).toContain('10 MINS');
    expect(langSvg).toContain('#ff8800');
    const avg = await (await create(token, { metric: 'daily_average', range: '7d' })).json();
    // The one daily average: over the days with coding (one here), as the dashboard and WakaTime count it, and its label says so.
    expect(await (await fetchEmbed(avg.shields_url)).json()).toMatchObject({ label: 'avg per coding day 7d', message: '1 hr 40 mins' });
  });

  it('publishes AI-assisted coding time only while its owner shares it, however the badge is made', async () => {
    const u = await newUser({ settings: {} });
    const body = {
      activities: [
        { language: 'Go', time: 1800, date: today, hour: 1, category: 'ai coding', ai_agent: 'Claude' },
        { language: 'Go', time: 1200, date: today, hour: 2 },
      ],
    };
    expect((await call(postBatch, '/sync/activities', { token: u.token, body })).status).toBe(200);
    const refused = await create(u.token, { metric: 'ai', range: '7d' });
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors[0].code).toBe('ai_not_shared');
    const db = await getDb();
    await updateAccount(db, u.user.id, { settings: { share_ai: true } });
    const made = await create(u.token, { metric: 'ai', range: '7d' });
    expect(made.status).toBe(201);
    const badge = await made.json();
    expect(badge.label).toBe('AI-assisted 7d');
    expect(await (await fetchEmbed(badge.url)).text()).toContain('30 mins');
    // The setting off: the badge is not found, as if it had never been made.
    await updateAccount(db, u.user.id, { settings: { share_ai: false } });
    const hidden = await fetchEmbed(badge.url);
    expect(hidden.status).toBe(404);
    expect(await hidden.text()).not.toContain('30 mins');
  });

  it('follows new data at once, and a refresh bumps the badge', async () => {
    const { token } = await coder([{ language: 'Go', time: 60, hour: 1 }]);
    const badge = await (await create(token, { metric: 'total', range: 'all' })).json();
    const first = await fetchEmbed(badge.shields_url);
    expect((await first.json()).message).toBe('1 min');
    await call(postBatch, '/sync/activities', { token, body: { activities: [{ language: 'Go', time: 120, hour: 5, date: today }] } });
    expect((await (await fetchEmbed(badge.shields_url)).json()).message).toBe('3 mins');
    const refresh = new Request(`http://localhost/main/api/v1/badges/${badge.id}/refresh`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    const refreshed = await documented(refresh, await refreshRoute(refresh, withId(badge.id)));
    expect(refreshed.status).toBe(200);
    expect(Date.parse((await refreshed.json()).refreshed_at)).toBeGreaterThanOrEqual(Date.parse(badge.refreshed_at));
  });

  it('answers 404 with a valid "badge not found" SVG for unknown, foreign or deleted badges', async () => {
    const a = await coder([{ language: 'Go', time: 60, hour: 1 }]);
    const b = await coder([{ language: 'Go', time: 60, hour: 1 }]);
    const badge = await (await create(a.token, { metric: 'total', range: '7d' })).json();
    const foreign = badge.url.replace(a.user.id, b.user.id);
    for (const url of [foreign, `http://localhost/main/api/v1/public/github/svg/not-a-uuid`, badge.url.replace(badge.id, '00000000-0000-4000-8000-000000000000')]) {
      const res = await fetchEmbed(url);
      expect(res.status).toBe(404);
      const text = await res.text();
      expect(XMLValidator.validate(text)).toBe(true);
      expect(text).toContain('badge not found');
    }
    // Another user cannot delete or refresh it.
    const del = async (token: string) => {
      const request = new Request(`http://localhost/main/api/v1/badges/${badge.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      return documented(request, await deleteRoute(request, withId(badge.id)));
    };
    expect((await del(b.token)).status).toBe(404);
    expect((await fetchEmbed(badge.url)).status).toBe(200);
    expect((await del(a.token)).status).toBe(204);
    expect((await fetchEmbed(badge.url)).status).toBe(404);
    const shields = await fetchEmbed(badge.shields_url);
    expect(shields.status).toBe(404);
    expect((await shields.json()).isError).toBe(true);
  });

  it('lists my badges only, needs the badges scope, and validates what it is given', async () => {
    const a = await coder([{ language: 'Go', time: 60, hour: 1 }]);
    const b = await coder([{ language: 'Go', time: 60, hour: 1 }]);
    await create(a.token, { metric: 'total', range: '7d' });
    await create(b.token, { metric: 'total', range: '30d' });
    const listing = new Request('http://localhost/main/api/v1/badges', { headers: { authorization: `Bearer ${a.token}` } });
    const list = await (await documented(listing, await listRoute(listing))).json();
    expect(list.badges.map((x: { range: string }) => x.range)).toEqual(['7d']);

    const syncOnly = await tokenWithScopes(a.user.id, ['sync']);
    expect((await create(syncOnly, { metric: 'total', range: '7d' })).status).toBe(403);
    for (const [body, path] of [
      [{ metric: 'language', range: '7d' }, 'language'],
      [{ metric: 'total', range: '7d', language: 'Go' }, 'language'],
      [{ metric: 'total', range: '90d' }, 'range'],
      [{ metric: 'total', range: '7d', style: 'neon' }, 'style'],
      [{ metric: 'total', range: '7d', color: 'javascript:alert(1)' }, 'color'],
    ] as const) {
      const res = await create(a.token, body);
      expect(res.status).toBe(422);
      expect((await res.json()).errors[0].path).toBe(path);
    }
  });
});
