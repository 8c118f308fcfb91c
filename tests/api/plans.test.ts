import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/main/api/v1/get/list/plans/route';
import { MAX_LIVE_TOKENS } from '@/lib/accounts/tokens';
import { MAX_BADGES_PER_USER } from '@/lib/badges/store';
import { getDb, rows } from '@/lib/db/client';
import { limitLines, limitNames, listPublicPlans, type Plan } from '@/lib/plans';
import { effectiveLimits } from '@/lib/plans/limits';
import { limitValue, pricingView } from '@/lib/web/public/pricing';
import { documented } from '../helpers/contract';
import { resetConfig } from '@/lib/config';

// With plans on (PLANS=on), as an install that sells them; a default install lists only what it
// offers (tests/api/plans-off.test.ts).
process.env.PLANS = 'on';
resetConfig();
afterAll(() => {
  delete process.env.PLANS;
  resetConfig();
});

const get = (headers: Record<string, string> = {}) => {
  const request = new Request('http://localhost/main/api/v1/get/list/plans', { headers });
  return Promise.resolve(GET(request)).then((res) => documented(request, res));
};

describe('GET /get/list/plans', () => {
  it('lists the listable plans in display order with prices in minor units', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const { plans } = await res.json();
    expect(plans.map((p: { id: string }) => p.id)).toEqual(['free', 'pro', 'team']);
    expect(plans[0]).toMatchObject({ name: 'Free', price: { amount: 0, currency: 'USD', interval: null }, limits: { history_days: 365 } });
    expect(plans[1]).toMatchObject({ price: { amount: 900, currency: 'USD', interval: 'month' }, highlighted: true, limits: { history_days: null } });
    for (const plan of plans) {
      expect(Object.keys(plan).sort()).toEqual(['description', 'features', 'highlighted', 'id', 'limits', 'name', 'price']);
      expect(plan.features.length).toBeGreaterThan(0);
    }
  });

  it('never lists a plan that is not listable', async () => {
    const db = await getDb();
    await db.execute(sql`UPDATE plans SET listed = false WHERE id = 'team'`);
    const { plans } = await (await get()).json();
    expect(plans.map((p: { id: string }) => p.id)).toEqual(['free', 'pro']);
    await db.execute(sql`UPDATE plans SET listed = true WHERE id = 'team'`);
  });

  it('is cacheable by CDNs, readable from any origin, and answers 304 to a matching ETag', async () => {
    const res = await get();
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toMatch(/public.*s-maxage=\d+.*stale-while-revalidate=\d+/);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get({ 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get({ 'if-none-match': 'W/"something-else"' })).status).toBe(200);
  });
});

type PlanRow = { id: string; description: string; features: string[]; limits: Record<string, number | null> };
const planRows = async () => rows<PlanRow>(await getDb(), sql`SELECT id, description, features, limits FROM plans ORDER BY position`);

describe('what the plans promise', () => {
  it('offers the export of all data on every plan, as every dashboard does: Free lists it, the others include Free', async () => {
    const { plans } = await (await get()).json();
    const [free, ...paid] = plans as { features: string[] }[];
    expect(free.features.filter((f) => /export/i.test(f))).toEqual(['Export of all your data, any time']);
    for (const plan of paid) {
      expect(plan.features[0]).toMatch(/^Everything in (Free|Pro)$/);
      expect(plan.features.filter((f) => /export/i.test(f))).toEqual([]);
    }
  });

  it('never promises more tokens or badges than any account may hold', async () => {
    for (const plan of await planRows()) {
      expect([plan.id, plan.limits.api_tokens]).toEqual([plan.id, expect.any(Number)]);
      expect(plan.limits.api_tokens).toBeLessThanOrEqual(MAX_LIVE_TOKENS);
      expect([plan.id, plan.limits.badges]).toEqual([plan.id, expect.any(Number)]);
      expect(plan.limits.badges).toBeLessThanOrEqual(MAX_BADGES_PER_USER);
      expect(plan.features.filter((f) => /unlimited (badges|tokens)/i.test(f))).toEqual([]);
    }
  });

  it('were corrected by a migration that leaves what an operator edited as it is', async () => {
    const db = await getDb();
    const before = await planRows();
    // Pro as 0001 seeded it, but with the operator's own description; Team with the operator's own limits.
    await db.execute(sql`UPDATE plans SET description = 'Our own words.',
      features = '["Everything in Free", "Unlimited history", "Unlimited badges", "Full data export", "Priority support"]',
      limits = '{"history_days": null, "api_tokens": 50, "badges": null, "team_members": 1}' WHERE id = 'pro'`);
    await db.execute(sql`UPDATE plans SET limits = '{"history_days": null, "api_tokens": 7, "badges": 9, "team_members": 40}' WHERE id = 'team'`);
    for (const statement of fs.readFileSync('drizzle/0005_plan_features.sql', 'utf8').split('--> statement-breakpoint')) {
      await db.execute(sql.raw(statement));
    }
    // 0015 then lists limits from the limits and gives each plan all five (its data changes only).
    for (const statement of fs.readFileSync('drizzle/0015_plans.sql', 'utf8').split('--> statement-breakpoint')) {
      if (/^\s*(--[^\n]*\n\s*)*UPDATE/.test(statement)) await db.execute(sql.raw(statement));
    }
    const after = Object.fromEntries((await planRows()).map((p) => [p.id, p]));
    expect(after.pro.description).toBe('Our own words.');
    expect(after.pro.features).toEqual(before.find((p) => p.id === 'pro')!.features);
    expect(after.pro.limits).toEqual(before.find((p) => p.id === 'pro')!.limits);
    // The operator's own Team limits are kept; only the key they lacked is added.
    expect(after.team.limits).toEqual({ history_days: null, api_tokens: 7, badges: 9, team_members: 40, private_leaderboards: 1 });
    for (const p of before) {
      await db.execute(sql`UPDATE plans SET description = ${p.description}, features = ${JSON.stringify(p.features)}::jsonb, limits = ${JSON.stringify(p.limits)}::jsonb WHERE id = ${p.id}`);
    }
  });
});

describe('the plans list what is enforced, and only that', () => {
  it('every plan names all five limits, and the list, its feature lines and the pricing page show the stored ones as enforced (within the hard caps)', async () => {
    const db = await getDb();
    const stored = Object.fromEntries((await planRows()).map((p) => [p.id, p]));
    const { plans } = await (await get()).json();
    const { compare } = pricingView(await listPublicPlans(db));
    const row = (name: string) => compare.find((r) => r.name === name)!.values;
    for (const [i, plan] of (plans as Plan[]).entries()) {
      expect(Object.keys(stored[plan.id].limits).sort()).toEqual([...limitNames].sort());
      expect(plan.limits).toEqual(effectiveLimits(stored[plan.id].limits));
      expect(plan.features.slice(-limitLines(plan.limits).length)).toEqual(limitLines(plan.limits));
      expect(plan.features.slice(0, plan.features.length - limitLines(plan.limits).length)).toEqual(stored[plan.id].features);
      expect(row('API tokens')[i]).toBe(limitValue('api_tokens', plan.limits.api_tokens));
      expect(row('Private leaderboards')[i]).toBe(limitValue('private_leaderboards', plan.limits.private_leaderboards));
    }
    expect(plans.find((p: Plan) => p.id === 'free').limits).toEqual({ api_tokens: 5, badges: 3, history_days: 365, team_members: 3, private_leaderboards: 1 });
    expect(plans.find((p: Plan) => p.id === 'free').features).toEqual([
      'Unlimited editors, languages and projects',
      'Public profile, badges and leaderboard',
      'Desktop app time',
      'Export of all your data, any time',
      'One year of history',
      'Up to 5 API tokens',
      'Up to 3 badges',
      'Teams of up to 3 members',
      'Up to 1 private leaderboard',
    ]);
    // Nothing promised that no code keeps: no support line, no billing line.
    for (const plan of plans as Plan[]) expect(plan.features.filter((f) => /support|billing|token management/i.test(f))).toEqual([]);
  });

  it('lists a limit an operator changes as changed, and never more than any account may hold', async () => {
    const db = await getDb();
    await db.execute(sql`UPDATE plans SET limits = limits || '{"badges": 7, "api_tokens": null}'::jsonb WHERE id = 'free'`);
    try {
      const free = (await listPublicPlans(db)).find((p) => p.id === 'free')!;
      expect(free.limits).toMatchObject({ badges: 7, api_tokens: MAX_LIVE_TOKENS });
      expect(free.features).toContain('Up to 7 badges');
      expect(free.features).toContain(`Up to ${MAX_LIVE_TOKENS} API tokens`);
    } finally {
      await db.execute(sql`UPDATE plans SET limits = limits || '{"badges": 3, "api_tokens": 5}'::jsonb WHERE id = 'free'`);
    }
  });
});
