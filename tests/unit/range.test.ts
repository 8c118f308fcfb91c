import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http/problem';
import { addDays, daysBetween, eachDay, isoWeekStart, isoWeekday } from '../../lib/dates';
import { parseQuery } from '../../lib/http/query';
import { resolveRange } from '../../lib/stats/range';
import { chartQueries } from '../../lib/stats/schemas';
import { leaderboardQuerySchema } from '../../lib/stats/leaderboard/query';

const q = (s: string) => new URLSearchParams(s);
/** The range a time chart's query asks for (default 7d). */
const parseRangeQuery = (params: URLSearchParams) => parseQuery(chartQueries.time, params).range;

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
    expect(resolveRange(parseRangeQuery(q('')), '2026-11-21')).toEqual({ name: '7d', from: '2026-11-15', to: '2026-11-21' });
    expect(resolveRange(parseRangeQuery(q('range=today')), '2026-11-21')).toEqual({ name: 'today', from: '2026-11-21', to: '2026-11-21' });
    expect(resolveRange(parseRangeQuery(q('range=365d')), '2026-11-21').from).toBe('2025-11-22');
    expect(resolveRange(parseRangeQuery(q('range=all')), '2026-11-21', '2024-05-01')).toEqual({ name: 'all', from: '2024-05-01', to: '2026-11-21' });
    expect(resolveRange(parseRangeQuery(q('range=all')), '2026-11-21')).toEqual({ name: 'all', from: '2026-11-21', to: '2026-11-21' });
  });

  it('takes an inclusive from/to of up to 366 days', () => {
    expect(parseRangeQuery(q('from=2026-01-01&to=2026-01-31'))).toEqual({ name: 'custom', from: '2026-01-01', to: '2026-01-31' });
    expect(parseRangeQuery(q('from=2024-01-01&to=2024-12-31'))).toMatchObject({ name: 'custom' }); // 366 days, leap year
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
    const err = errorOf(() => parseRangeQuery(q(query)));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_query');
    expect(err.extra.errors?.[0].path).toBe(param);
  });

  it('defaults per chart', () => {
    expect(parseQuery(chartQueries.hitmaps, q('')).range).toEqual({ name: '365d' });
    expect(parseQuery(chartQueries.weekly, q(''))).toEqual({ weeks: 12 });
  });
});

describe('query parameters', () => {
  it.each([
    ['weeks=0', 'weeks'],
    ['weeks=105', 'weeks'],
    ['weeks=1.5', 'weeks'],
    ['weeks=0x10', 'weeks'],
    ['weeks=-1', 'weeks'],
    ['user=%20', 'user'],
  ])('refuses %s for the weekly chart, naming %s', (query, param) => {
    const err = errorOf(() => parseQuery(chartQueries.weekly, q(query)));
    expect(err.code).toBe('invalid_query');
    expect(err.extra.errors?.[0].path).toBe(param);
  });

  it('reads the first of a repeated parameter and ignores unknown ones', () => {
    expect(parseQuery(chartQueries.weekly, q('weeks=3&weeks=500&utm_source=readme'))).toEqual({ weeks: 3 });
  });

  it.each([
    ['range=90d', 'range', '7d or 30d'],
    ['page=0', 'page', 'from 1 to 1000000'],
    ['limit=101', 'limit', 'from 1 to 100'],
    [`language=${'x'.repeat(65)}`, 'language', 'at most 64'],
    ['language=Go%E2%80%AEx', 'language', ''],
  ])('refuses %s on the leaderboard, naming %s', (query, param, rule) => {
    const err = errorOf(() => parseQuery(leaderboardQuerySchema, q(query)));
    expect(err.extra.errors?.[0].path).toBe(param);
    expect(err.detail).toContain(rule);
  });

  it('reads the leaderboard query with its defaults and a trimmed language', () => {
    expect(parseQuery(leaderboardQuerySchema, q(''))).toEqual({ range: '7d', language: null, page: 1, limit: 50 });
    expect(parseQuery(leaderboardQuerySchema, q('range=30d&language=%20Go%20&page=2&limit=10'))).toEqual({ range: '30d', language: 'Go', page: 2, limit: 10 });
  });
});
