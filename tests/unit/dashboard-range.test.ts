import { describe, expect, it } from 'vitest';
import { dashboardRange } from '@/lib/web/account/dashboard-range';
import { periods } from '@/lib/web/chart-geometry';
import { addDays, eachDay } from '@/lib/dates';

// The dashboard's range comes from its address: the links' `range`, or the form's `from` and
// `to`, checked by the chart routes' rules; a bad one is said, naming the field and the rule.

describe('the dashboard range', () => {
  it('takes a named range, from and to dates, and nothing as the last 7 days', () => {
    for (const name of ['7d', '30d', '365d', 'all'] as const) expect(dashboardRange({ range: name })).toEqual({ query: { name } });
    expect(dashboardRange({})).toEqual({ query: { name: '7d' } });
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
  ])('refuses %j with a message naming the field and the rule, and shows the last 7 days', (search, message) => {
    const range = dashboardRange(search);
    expect(range.query).toEqual({ name: '7d' });
    expect(range.error).toMatch(message);
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
