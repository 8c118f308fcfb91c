import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as leaderboard } from '@/app/main/api/v1/leaderboard/api/get/public/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { GET as getStats } from '@/app/api/wakatime/v1/users/[user]/stats/[range]/route';
import type { Settings } from '@/lib/accounts/schemas';
import { resetConfig } from '@/lib/config';
import { canonicalEditor } from '@/lib/editors';
import { call, daysFromToday, newUser } from '../helpers/api';
import { getChart } from '../helpers/public';

/** A public profile's README stats (GET /api/v1/users/{handle}/stats/last_30_days, no key: every world's date is in it). */
async function publicStats(handle: string) {
  const request = new Request(`http://localhost/api/v1/users/${handle}/stats/last_30_days`);
  const res = await getStats(request, { params: Promise.resolve({ user: handle, range: 'last_30_days' }) });
  expect(res.status).toBe(200);
  return (await res.json()).data;
}

// Random small worlds of users with random settings and activity: no public answer may show a
// figure of a private user or an unshared dimension, and every site-wide entry must rest on at
// least PUBLIC_MIN_USERS (3) community members. Worlds share the database and a date comes back
// every 25 worlds (shrinking runs many), so the site-wide checks count everyone who wrote to the
// world's date; machines' names and AI-assisted coding (the AI Coding category, and an AI agent's
// own plugin as an editor: `claude-code` is Claude Code) show only with share_machines and share_ai.
// Site-wide figures are exact here: the noise would lift a total over its ceiling
// (tests/api/community-privacy.test.ts covers the noise).

const K = 3;
const languages = ['Go', 'Rust', 'Zig', 'C'];
const settingsArb: fc.Arbitrary<Settings> = fc.record({
  profile_public: fc.boolean(),
  share_languages: fc.boolean(),
  share_editors: fc.boolean(),
  share_apps: fc.boolean(),
  share_ai: fc.boolean(),
  share_machines: fc.boolean(),
  leaderboard: fc.boolean(),
  community_stats: fc.boolean(),
  // Not a sharing setting: it must change nothing any public surface shows.
  weekly_report: fc.boolean(),
});
const bucketArb = fc.record({
  language: fc.constantFrom(...languages),
  ide_name: fc.constantFrom('Vim', 'Zed', 'claude-code'),
  time: fc.integer({ min: 60, max: 3600 }),
  hour: fc.integer({ min: 0, max: 3 }),
  // AI-assisted buckets (shown only with share_ai) and machines (named only with share_machines).
  category: fc.constantFrom('coding', 'ai coding', 'debugging'),
  ai_lines: fc.integer({ min: 0, max: 50 }),
  machine: fc.constantFrom('desk', 'laptop'),
});
const worldArb = fc.array(fc.record({ settings: settingsArb, buckets: fc.array(bucketArb, { minLength: 1, maxLength: 4 }) }), { minLength: 2, maxLength: 6 });

type Bucket = { language: string; ide_name: string; time: number; hour: number; category: string; ai_lines: number; machine: string };
let run = 0;
/** Everyone who wrote to a date, over every world so far. */
const wroteOn = new Map<string, { settings: Settings; buckets: Bucket[] }[]>();

beforeAll(() => {
  process.env.PUBLIC_NOISE_SECONDS = '0';
  resetConfig();
});

describe('privacy over random worlds', () => {
  it('holds for every public route and the leaderboard', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (world) => {
        const date = daysFromToday(-(run++ % 25)); // one date per world, inside the 30-day leaderboard
        const range = `from=${date}&to=${date}`;
        const people = [];
        for (const p of world) {
          const u = await newUser({ settings: p.settings });
          // Each user's machines are named for them alone: a name found anywhere public is theirs.
          const activities = p.buckets.map((b) => ({ ...b, machine: `${b.machine}-${u.user.handle}`, date }));
          expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
          people.push({ ...p, user: u.user });
        }
        wroteOn.set(date, [...(wroteOn.get(date) ?? []), ...world]);

        for (const p of people) {
          const time = await getChart('time', `user=${p.user.id}&${range}`);
          const lang = await getChart('language', `user=${p.user.id}&${range}`);
          expect(time.status).toBe(p.settings.profile_public ? 200 : 404);
          expect(lang.status).toBe(p.settings.profile_public ? 200 : 404);
          if (!p.settings.profile_public) continue;
          const t = await time.json();
          const l = await lang.json();
          // An AI agent's plugin is an editor of its own only with share_ai; without it, its time is Other's.
          const editorShown = (name: string) => (canonicalEditor(name) === 'Claude Code' && !p.settings.share_ai ? 'Other' : canonicalEditor(name));
          const shownEditors = new Set(p.buckets.map((b) => editorShown(b.ide_name)));
          if (!p.settings.share_editors) expect(t.editors).toEqual([]);
          else expect(new Set(t.editors.map((e: { name: string }) => e.name))).toEqual(shownEditors);
          if (!p.settings.share_languages) expect(l.languages).toEqual([]);
          else for (const x of l.languages) expect(new Set(p.buckets.map((b) => b.language)).has(x.name)).toBe(true);
          // The day total never exceeds an hour per distinct hour used.
          expect(t.total_seconds).toBeLessThanOrEqual(3600 * new Set(p.buckets.map((b) => b.hour)).size);
          // The README stats (WakaTime's shape): machines only with share_machines, AI-assisted coding only with share_ai.
          const stats = await publicStats(p.user.handle);
          if (p.settings.share_editors) expect(new Set(stats.editors.map((e: { name: string }) => e.name))).toEqual(shownEditors);
          const everything = JSON.stringify([t, l, stats]);
          if (!p.settings.share_machines) expect(everything).not.toContain(`-${p.user.handle}`);
          else expect(stats.machines.every((m: { name: string }) => m.name.endsWith(`-${p.user.handle}`))).toBe(true);
          if (!p.settings.share_ai) {
            expect(everything).not.toContain('AI Coding');
            expect(everything).not.toContain('Claude');
            expect(stats.grand_total).not.toHaveProperty('ai_additions');
          }
        }

        const members = wroteOn.get(date)!.filter((p) => p.settings.community_stats);
        const site = await (await getChart('language', range)).json();
        if (members.length < K) expect(site.suppressed).toBe(true);
        for (const entry of site.languages) {
          const backers = members.filter((p) => p.buckets.some((b) => b.language === entry.name));
          expect(backers.length).toBeGreaterThanOrEqual(K);
        }
        const siteTime = await (await getChart('time', range)).json();
        const memberCeiling = members.reduce((sum, p) => sum + 3600 * new Set(p.buckets.map((b) => b.hour)).size, 0);
        expect(siteTime.total_seconds).toBeLessThanOrEqual(memberCeiling);
        for (const entry of siteTime.editors) {
          expect(members.filter((p) => p.buckets.some((b) => canonicalEditor(b.ide_name) === entry.name)).length).toBeGreaterThanOrEqual(K);
        }

        const board = await (await leaderboard(new Request('http://localhost/main/api/v1/leaderboard/api/get/public?range=30d&limit=100'))).json();
        for (const p of people) {
          const entry = board.entries.find((e: { user: { id: string } }) => e.user.id === p.user.id);
          if (!p.settings.leaderboard) expect(entry).toBeUndefined();
          if (entry && !p.settings.share_languages) expect(entry.languages).toEqual([]);
        }
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
