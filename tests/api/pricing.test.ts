import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { listPublicPlans } from '@/lib/plans';
import { signedUpLocation } from '@/lib/web/account/forms';
import { chosenPlan, formatMoney, pricingView } from '@/lib/web/public/pricing';
import { resetConfig } from '@/lib/config';

// With plans on (PLANS=on), as an install that sells them; a default install lists only what it
// offers (tests/api/plans-off.test.ts).
process.env.PLANS = 'on';
resetConfig();
afterAll(() => {
  delete process.env.PLANS;
  resetConfig();
});

// What the pricing page and the sign-up page say about the plans stored in the database.

describe('the pricing page', () => {
  it('reads prices as people compare them: $0 forever, whole dollars per month, no cents', async () => {
    const { plans, compare } = pricingView(await listPublicPlans(await getDb()));
    expect(plans.map((p) => [p.name, p.price])).toEqual([
      ['Free', { amount: '$0', period: 'forever' }],
      ['Pro', { amount: '$9', period: '/ month' }],
      ['Team', { amount: '$19', period: '/ month' }],
    ]);
    expect(plans.map((p) => p.free)).toEqual([true, false, false]);
    expect(compare[0]).toEqual({ name: 'Price', values: ['$0 forever', '$9 / month', '$19 / month'] });
    expect(compare.find((r) => r.name === 'History')).toEqual({ name: 'History', values: ['1 year', 'Unlimited', 'Unlimited'] });
    expect(compare.find((r) => r.name === 'Badges')).toEqual({ name: 'Badges', values: ['3', '50', '50'] });
  });

  it('keeps the minor digits of an amount that has them, in the currency\'s own digits', () => {
    expect(formatMoney(950, 'USD')).toBe('$9.50');
    expect(formatMoney(1900, 'EUR')).toBe('€19');
    expect(formatMoney(1200, 'JPY')).toBe('¥1,200');
  });

  it('shows a plan an operator changed in the database', async () => {
    const db = await getDb();
    await db.execute(sql`UPDATE plans SET price_amount = 1250, interval = 'year' WHERE id = 'pro'`);
    try {
      const { plans } = pricingView(await listPublicPlans(db));
      expect(plans[1].price).toEqual({ amount: '$12.50', period: '/ year' });
    } finally {
      await db.execute(sql`UPDATE plans SET price_amount = 900, interval = 'month' WHERE id = 'pro'`);
    }
  });
});

describe('the plan chosen on the pricing page', () => {
  it('is a listed plan, named with its price, whether free or paid', async () => {
    const db = await getDb();
    expect(await chosenPlan(db, 'pro')).toMatchObject({ id: 'pro', name: 'Pro', free: false, price: { amount: '$9', period: '/ month' } });
    expect(await chosenPlan(db, 'free')).toMatchObject({ id: 'free', name: 'Free', free: true });
  });

  it('is nothing for an unknown or unlisted id, or a parameter that is no single id', async () => {
    const db = await getDb();
    for (const id of ['enterprise', 'founder', 'PRO', '', ' pro', undefined, null, ['pro', 'team'], 42]) {
      expect([id, await chosenPlan(db, id)]).toEqual([id, null]);
    }
  });

  it('is carried from signing up to signing in, and only a known one', () => {
    expect(signedUpLocation()).toBe('/signin?signedUp=1&callbackUrl=%2Fdashboard%3Fwelcome%3D1');
    expect(signedUpLocation('pro')).toBe('/signin?signedUp=1&plan=pro&callbackUrl=%2Fdashboard%3Fwelcome%3D1');
  });
});
