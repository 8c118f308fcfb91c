import { describe, expect, it } from 'vitest';
import { DASHBOARD_RANGE, dashboardRange } from '@/lib/web/account/dashboard-range';
import { insightsQuerySchema } from '@/lib/figures/schemas';
import { projectRangeQuery } from '@/lib/projects/schemas';
import { ownRangeNames } from '@/lib/stats/range';
import { periods } from '@/lib/web/chart-geometry';
import { everyDay } from '@/lib/web/account/projects';
import { addDays, eachDay } from '@/lib/dates';

// A dashboard page's range comes from its address: the links' `range`, or the form's `from` and
// `to`, checked by the rules of the route the page draws; a bad one is said, naming the field and
// the rule, and the dashboard's one default shown (every page opens on the same dates).

describe('the dashboard range', () => {
  it('takes a named range, from and to dates, and nothing as the last 30 days', () => {
    for (const name of ['7d', '30d', '365d', 'all'] as const) expect(dashboardRange({ range: name })).toEqual({ query: { name } });
    expect(DASHBOARD_RANGE).toBe('30d');
    expect(dashboardRange({})).toEqual({ query: { name: '30d' } });
    expect(dashboardRange({ from: '2025-01-01', to: '2025-03-31' })).toEqual({ query: { name: 'custom', from: '2025-01-01', to: '2025-03-31' }, from: '2025-01-01', to: '2025-03-31' });
    // The form sends empty fields; they are not given.
    expect(dashboardRange({ range: '30d', from: '', to: ' ' })).toEqual({ query: { name: '30d' } });
  });

  it.each([
    [{ range: 'constructor' }, /^range: must be one of today, 7d, 30d, 90d, 365d, all$/],
    [{ range: '14d' }, /^range: must be one of/],
    [{ from: '2025-02-30', to: '2025-03-01' }, /^from: must be a real date YYYY-MM-DD$/],
    [{ from: '2025-03-01' }, /^to: from and to go together$/],
    [{ to: '2025-03-01' }, /^from: from and to go together$/],
    [{ from: '2025-03-02', to: '2025-03-01' }, /^to: must not be before from$/],
    [{ from: '2024-01-01', to: '2025-01-01' }, /^to: the span may be at most 366 days$/],
    [{ range: '7d', from: '2025-01-01', to: '2025-01-02' }, /^range: give either range or from and to, not both$/],
    [{ range: ['7d', '30d'] }, /^range: give it once$/],
  ])('refuses %j with a message naming the field and the rule, and shows the last 30 days', (search, message) => {
    const range = dashboardRange(search);
    expect(range.query).toEqual({ name: '30d' });
    expect(range.error).toMatch(message);
  });
});

describe('the range of the other dashboard pages', () => {
  it('falls back to the one default of every page, with or without a refused range', () => {
    expect(dashboardRange({}, ownRangeNames)).toEqual({ query: { name: '30d' } });
    expect(dashboardRange({ range: '7d' }, ownRangeNames)).toEqual({ query: { name: '7d' } });
    expect(dashboardRange({ range: '14d' }, ownRangeNames)).toMatchObject({ query: { name: '30d' }, error: expect.stringMatching(/^range: must be one of/) });
    expect(dashboardRange({ range: ['7d', '7d'] }, ownRangeNames)).toEqual({ query: { name: '30d' }, error: 'range: give it once' });
    expect(dashboardRange({ from: '2025-03-02', to: '2025-03-01' }, ownRangeNames)).toEqual({
      query: { name: '30d' },
      error: 'to: must not be before from',
      from: '2025-03-02',
      to: '2025-03-01',
    });
  });

  it('takes only the named ranges of the page\'s route, and names them when refusing another', () => {
    expect(dashboardRange({ range: '365d' }, ownRangeNames)).toEqual({ query: { name: '365d' } });
    expect(dashboardRange({ range: '90d' }, ownRangeNames)).toEqual({ query: { name: '30d' }, error: 'range: must be one of 7d, 30d, 365d, all' });
    expect(dashboardRange({ range: 'today' }, ownRangeNames).error).toBe('range: must be one of 7d, 30d, 365d, all');
  });

  // The pages link to their route's answers (a project's CSV) with the range they show, and
  // insights draws GET /me/insights: a page must accept exactly what its route accepts.
  // An address without a range is the one case read apart: every page opens on the dashboard's
  // default (the routes keep their documented ones: GET /me/insights 7 days).
  it.each([
    ['the project pages and GET /me/projects', ownRangeNames, projectRangeQuery],
    ['insights and GET /me/insights', undefined, insightsQuerySchema],
  ] as const)('%s accept the same addresses and read them alike', (_, names, route) => {
    const searches: Record<string, string>[] = [
      {},
      ...['today', '7d', '30d', '90d', '365d', 'all', '1y', 'constructor'].map((range) => ({ range })),
      { from: '2025-01-01', to: '2025-12-31' },
      { from: '2024-01-01', to: '2025-01-01' },
      { from: '2025-01-02', to: '2025-01-01' },
      { from: '2025-02-29', to: '2025-03-01' },
      { from: '2025-01-01' },
      { range: '7d', from: '2025-01-01', to: '2025-01-02' },
    ];
    let refused = 0;
    for (const search of searches) {
      const page = dashboardRange(search, names);
      const api = route.safeParse(search);
      expect([search, page.error === undefined]).toEqual([search, api.success]);
      if (Object.keys(search).length === 0) expect(page.query).toEqual({ name: DASHBOARD_RANGE });
      else if (api.success) expect([search, page.query]).toEqual([search, api.data]);
      else refused++;
    }
    // Both kinds were compared.
    expect(refused).toBeGreaterThan(3);
    expect(refused).toBeLessThan(searches.length - 3);
  });
});

describe('bars a card can hold', () => {
  const run = (n: number) => eachDay('2024-01-01', addDays('2024-01-01', n - 1)).map((date, i) => ({ date, seconds: i }));

  it('draws a bar a day up to a quarter, a week up to two years, a month beyond; the totals add up', () => {
    for (const [days, period, most] of [
      [7, 'day', 7],
      [92, 'day', 92],
      [93, 'week', 15],
      [365, 'week', 54],
      [366, 'week', 54],
      [742, 'week', 107],
      [743, 'month', 26],
      [3000, 'month', 100],
    ] as const) {
      const input = run(days);
      const { period: drawn, totals } = periods(input);
      expect([days, drawn]).toEqual([days, period]);
      expect(totals.length).toBeLessThanOrEqual(most);
      expect(totals.reduce((s, t) => s + t.seconds, 0)).toBe(input.reduce((s, d) => s + d.seconds, 0));
    }
    expect(periods(run(100)).totals[0]).toEqual({ key: '2024-01-01', name: 'week of 2024-01-01', seconds: 0 + 1 + 2 + 3 + 4 + 5 + 6 });
    expect(periods(run(800)).totals[1]).toMatchObject({ key: '2024-02', name: 'Feb 2024' });
  });
});

describe('a project page\'s days', () => {
  const days = [
    { date: '2026-03-02', seconds: 60 },
    { date: '2026-03-05', seconds: 120 },
  ];
  it('are every date of the range, days without time as 0', () => {
    expect(everyDay(days, { name: 'custom', from: '2026-03-01', to: '2026-03-06' })).toEqual([
      { date: '2026-03-01', seconds: 0 },
      { date: '2026-03-02', seconds: 60 },
      { date: '2026-03-03', seconds: 0 },
      { date: '2026-03-04', seconds: 0 },
      { date: '2026-03-05', seconds: 120 },
      { date: '2026-03-06', seconds: 0 },
    ]);
  });
  it('begin at the first date with time for all time, and are none without time', () => {
    expect(everyDay(days, { name: 'all', from: '1970-01-01', to: '2026-03-05' }).map((d) => d.date)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
    expect(everyDay([], { name: '30d', from: '2026-02-04', to: '2026-03-05' })).toEqual([]);
  });
});
