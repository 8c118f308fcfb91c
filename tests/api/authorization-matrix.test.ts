import { describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/config';
import { GET as leaderboard } from '@/app/main/api/v1/leaderboard/api/get/public/route';
import { POST as createBadge } from '@/app/main/api/v1/badges/route';
import { GET as svgRoute } from '@/app/main/api/v1/public/[site]/svg/[userUUID]/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { defaultSettings, type Settings } from '@/lib/accounts/schemas';
import { call, daysFromToday, newUser } from '../helpers/api';
import { getChart } from '../helpers/public';
import { documented } from '../helpers/contract';

// For each public surface: an anonymous viewer x the owner's settings -> the expected answer.

const today = daysFromToday(0);
const owners: Record<string, Partial<Settings>> = {
  private: {},
  public: { profile_public: true },
  'public+languages': { profile_public: true, share_languages: true },
  'public+editors': { profile_public: true, share_editors: true },
  'leaderboard only': { leaderboard: true },
  'leaderboard+languages': { leaderboard: true, share_languages: true },
  'no community stats': { profile_public: true, community_stats: false },
};

async function owner(settings: Partial<Settings>) {
  const u = await newUser({ settings: { ...defaultSettings, ...settings } });
  const activities = [{ language: 'Elixir', time: 1200, hour: 9, date: today, ide_name: 'helix' }];
  expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
  return u;
}

const range = `from=${today}&to=${today}`;

describe.each(Object.entries(owners))('owner %s', (_, settings) => {
  const s = { ...defaultSettings, ...settings };

  it('per-user charts: 404 unless public; languages and editors only if shared', async () => {
    const { user } = await owner(settings);
    const time = await getChart('time', `user=${user.handle}&${range}`);
    const language = await getChart('language', `user=${user.handle}&${range}`);
    const hitmaps = await getChart('hitmaps', `user=${user.id}&${range}`);
    const weekly = await getChart('weekly', `user=${user.id}&weeks=1`);
    for (const res of [time, language, hitmaps, weekly]) expect(res.status).toBe(s.profile_public ? 200 : 404);
    if (!s.profile_public) return;
    const t = await time.json();
    expect(t.total_seconds).toBe(1200);
    expect(t.editors.map((e: { name: string }) => e.name)).toEqual(s.share_editors ? ['Helix'] : []);
    expect((await language.json()).languages.map((l: { name: string }) => l.name)).toEqual(s.share_languages ? ['Elixir'] : []);
    expect((await weekly.json()).weeks[0].top_language).toBe(s.share_languages ? 'Elixir' : null);
  });

  it('leaderboard: listed only if opted in; languages only if shared', async () => {
    const { user } = await owner(settings);
    const byTotal = new Request('http://localhost/main/api/v1/leaderboard/api/get/public?range=7d&limit=100');
    const body = await (await documented(byTotal, await leaderboard(byTotal))).json();
    const entry = body.entries.find((e: { user: { id: string } }) => e.user.id === user.id);
    expect(Boolean(entry)).toBe(s.leaderboard);
    if (entry) expect(entry.languages.map((l: { name: string }) => l.name)).toEqual(s.share_languages ? ['Elixir'] : []);
    const elixir = new Request('http://localhost/main/api/v1/leaderboard/api/get/public?range=7d&language=Elixir&limit=100');
    const byLanguage = await (await documented(elixir, await leaderboard(elixir))).json();
    expect(byLanguage.entries.some((e: { user: { id: string } }) => e.user.id === user.id)).toBe(s.leaderboard && s.share_languages);
  });

  it('badge: shown whatever the profile settings, because the owner created it', async () => {
    const { user, token } = await owner(settings);
    const badge = await (await call(createBadge, '/badges', { token, body: { metric: 'total', range: '7d' } })).json();
    const embed = new Request(badge.url);
    const res = await documented(embed, await svgRoute(embed, { params: Promise.resolve({ site: 'github', userUUID: user.id }) }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('20 mins');
  });

  it('badge token: publishes (and so sees) a language\'s figure only while the owner shares languages', async () => {
    const { user, token } = await owner(settings);
    const res = await call(createBadge, '/badges', { token, body: { metric: 'language', range: '7d', language: 'Elixir' } });
    expect(res.status).toBe(s.share_languages ? 201 : 403);
    if (!s.share_languages) {
      expect((await res.json()).errors[0].code).toBe('languages_not_shared');
      return;
    }
    const badge = await res.json();
    const svg = await svgRoute(new Request(badge.url), { params: Promise.resolve({ site: 'github', userUUID: user.id }) });
    expect(await svg.text()).toContain('20 mins');
  });
});

describe('site-wide figures and community_stats', () => {
  it('count members and never a user who opted out', async () => {
    // Exact figures: noise and rounding off (tests/api/community-privacy.test.ts covers them).
    process.env.PUBLIC_NOISE_SECONDS = '0';
    resetConfig();
    const day = '2026-07-01';
    const post = async (u: { token: string }, time: number) =>
      call(postBatch, '/sync/activities', { token: u.token, body: { activities: [{ language: 'Go', time, hour: 8, date: day }] } });
    for (let i = 0; i < 3; i++) await post(await newUser(), 100);
    const before = await (await getChart('time', `from=${day}&to=${day}`)).json();
    expect(before.total_seconds).toBe(300);
    await post(await newUser({ settings: { ...defaultSettings, community_stats: false } }), 999);
    expect((await (await getChart('time', `from=${day}&to=${day}`)).json()).total_seconds).toBe(300);
    await post(await newUser(), 50);
    expect((await (await getChart('time', `from=${day}&to=${day}`)).json()).total_seconds).toBe(350);
  });
});
