import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http/problem';
import { addDays, daysBetween, eachDay, isoWeekStart, isoWeekday } from '../../lib/dates';
import { parseRangeQuery, resolveRange } from '../../lib/stats/range';

const q = (s: string) => new URLSearchParams(s);

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected an error');
}

describe('calendar arithmetic', () => {
  it('adds days across months, leap days and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2025-12-30', '2026-01-02')).toBe(3);
  });

  it('lists every day of an inclusive span, including a DST change (dates have no clock)', () => {
    expect(eachDay('2026-03-28', '2026-03-30')).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(eachDay('2026-01-01', '2026-01-01')).toEqual(['2026-01-01']);
    expect(eachDay('2026-01-02', '2026-01-01')).toEqual([]);
  });

  it('starts ISO weeks on Monday', () => {
    expect(isoWeekday('2026-11-23')).toBe(0); // a Monday
    expect(isoWeekday('2026-11-22')).toBe(6); // a Sunday
    expect(isoWeekStart('2026-11-22')).toBe('2026-11-16');
    expect(isoWeekStart('2026-11-23')).toBe('2026-11-23');
    expect(isoWeekStart('2027-01-01')).toBe('2026-12-28'); // the week straddles the year
  });
});

describe('range query', () => {
  it('defaults per route and resolves named ranges ending today', () => {
    expect(resolveRange(parseRangeQuery(q(''), '7d'), '2026-11-21')).toEqual({ name: '7d', from: '2026-11-15', to: '2026-11-21' });
    expect(resolveRange(parseRangeQuery(q('range=today'), '7d'), '2026-11-21')).toEqual({ name: 'today', from: '2026-11-21', to: '2026-11-21' });
    expect(resolveRange(parseRangeQuery(q('range=365d'), '7d'), '2026-11-21').from).toBe('2025-11-22');
    expect(resolveRange(parseRangeQuery(q('range=all'), '7d'), '2026-11-21', '2024-05-01')).toEqual({ name: 'all', from: '2024-05-01', to: '2026-11-21' });
    expect(resolveRange(parseRangeQuery(q('range=all'), '7d'), '2026-11-21')).toEqual({ name: 'all', from: '2026-11-21', to: '2026-11-21' });
  });

  it('takes an inclusive from/to of up to 366 days', () => {
    expect(parseRangeQuery(q('from=2026-01-01&to=2026-01-31'), '7d')).toEqual({ name: 'custom', from: '2026-01-01', to: '2026-01-31' });
    expect(parseRangeQuery(q('from=2024-01-01&to=2024-12-31'), '7d')).toMatchObject({ name: 'custom' }); // 366 days, leap year
  });

  it.each([
    ['range=2w', 'range'],
    ['from=2026-01-01', 'to'],
    ['to=2026-01-01', 'from'],
    ['from=2026-02-30&to=2026-03-01', 'from'],
    ['from=2026-01-01&to=yesterday', 'to'],
    ['from=2026-02-01&to=2026-01-01', 'to'],
    ['from=2024-01-01&to=2025-01-01', 'to'],
    ['range=7d&from=2026-01-01&to=2026-01-02', 'range'],
  ])('answers 400 invalid_query for %s, naming %s', (query, param) => {
    const err = errorOf(() => parseRangeQuery(q(query), '7d'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_query');
    expect(err.extra.errors?.[0].path).toBe(param);
  });

  it('limits the names a route allows', () => {
    expect(errorOf(() => parseRangeQuery(q('range=90d'), '7d', ['7d', '30d'])).detail).toContain('7d, 30d');
  });
});
