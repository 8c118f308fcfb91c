import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GET } from '@/app/main/api/v1/get/list/plans/route';
import { getDb } from '@/lib/db/client';
import { documented } from '../helpers/contract';

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
