import { describe, expect, it } from 'vitest';
import { wakapiBadgeQuery } from '@/lib/badges/wakapi';
import { wakapiInterval, wakapiIntervalNames, wakapiSpan } from '@/lib/badges/wakapi-ranges';

// Wakapi's interval names made dates in the owner's timezone, and what a badge URL's path asks.

describe("Wakapi's intervals", () => {
  it('takes every name and alias of Wakapi, and its default for any other', () => {
    for (const name of ['today', 'yesterday', 'week', 'month', 'year', '7_days', 'last_7_days', '30_days', 'last_30_days', '6_months', '12_months', 'any', 'all_time']) {
      expect(wakapiIntervalNames, name).toContain(name);
    }
    expect(wakapiInterval('day')).toBe('yesterday');
    expect(wakapiInterval('last_year')).toBe('last_12_months');
    expect(wakapiInterval('Last 7 Days')).toBe('last_30_days');
    expect(wakapiInterval(undefined)).toBe('last_30_days');
  });

  it('gives the dates of each, today counted, weeks from Monday', () => {
    const sunday = '2026-03-01';
    expect(wakapiSpan('today', sunday, 9)).toEqual({ from: sunday, to: sunday });
    expect(wakapiSpan('yesterday', sunday, 9)).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(wakapiSpan('week', sunday, 9)).toEqual({ from: '2026-02-23', to: sunday });
    expect(wakapiSpan('last_week', sunday, 9)).toEqual({ from: '2026-02-16', to: '2026-02-22' });
    expect(wakapiSpan('month', sunday, 9)).toEqual({ from: '2026-03-01', to: sunday });
    expect(wakapiSpan('last_month', '2026-01-15', 9)).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(wakapiSpan('year', sunday, 9)).toEqual({ from: '2026-01-01', to: sunday });
    expect(wakapiSpan('last_7_days', sunday, 9)).toEqual({ from: '2026-02-23', to: sunday });
    expect(wakapiSpan('last_30_days', sunday, 9)).toEqual({ from: '2026-01-31', to: sunday });
    // Six months before the 31st of August is the end of February.
    expect(wakapiSpan('last_6_months', '2026-08-31', 9)).toEqual({ from: '2026-03-01', to: '2026-08-31' });
    expect(wakapiSpan('last_12_months', sunday, 9)).toEqual({ from: '2025-03-02', to: sunday });
    expect(wakapiSpan('all_time', sunday, 9)).toEqual({ from: '0001-01-01', to: sunday });
    // The last 24 hours: this hour and the 23 before it.
    expect(wakapiSpan('last_24_hours', sunday, 9)).toEqual({ from: '2026-02-28', to: sunday, fromHour: 10 });
    expect(wakapiSpan('last_24_hours', sunday, 23)).toEqual({ from: sunday, to: sunday });
  });
});

describe('a badge URL', () => {
  it('names the user, the first interval and the first filter, in any order, each segment decoded once', () => {
    expect(wakapiBadgeQuery(['alice', 'interval:today'])).toEqual({ user: 'alice', interval: 'today', filter: undefined });
    expect(wakapiBadgeQuery(['alice', 'language:C%23', 'interval:7_days', 'interval:today', 'editor:vim'])).toEqual({
      user: 'alice',
      interval: 'last_7_days',
      filter: { name: 'language', value: 'C#' },
    });
    expect(wakapiBadgeQuery(['alice', 'project:a%3Ab', 'branch:main'])).toEqual({ user: 'alice', interval: 'last_30_days', filter: { name: 'project', value: 'a:b' } });
    expect(wakapiBadgeQuery(['alice', 'project:'])).toEqual({ user: 'alice', interval: 'last_30_days', filter: undefined });
    expect(wakapiBadgeQuery([''])).toBeNull();
    expect(wakapiBadgeQuery(['alice', 'language:%ZZ'])).toBeNull();
    expect(wakapiBadgeQuery(['alice', 'language:a%00b'])).toBeNull();
  });
});
