import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../lib/dates';
import { isoInZone, localDateHour, localDay, offsetMinutes, wallClock } from '../../lib/local-time';

// A local day as instants (the timeline's frame): its hours, its length on daylight-saving days,
// and instants written with the offset in force.

describe('offsets and ISO instants', () => {
  it('reads the offset in force, fractional ones included', () => {
    expect(offsetMinutes('UTC', Date.parse('2024-06-01T00:00:00Z'))).toBe(0);
    expect(offsetMinutes('America/New_York', Date.parse('2024-01-15T12:00:00Z'))).toBe(-300);
    expect(offsetMinutes('America/New_York', Date.parse('2024-07-15T12:00:00Z'))).toBe(-240);
    expect(offsetMinutes('Asia/Kathmandu', Date.parse('2024-07-15T12:00:00Z'))).toBe(345);
    expect(offsetMinutes('Australia/Lord_Howe', Date.parse('2024-01-15T12:00:00Z'))).toBe(660);
  });

  it('writes an instant in wall-clock time with its offset', () => {
    const at = Date.parse('2024-11-03T06:30:00.750Z');
    expect(isoInZone(at, offsetMinutes('America/New_York', at))).toBe('2024-11-03T01:30:00-05:00');
    expect(isoInZone(at, 345)).toBe('2024-11-03T12:15:00+05:45');
    expect(isoInZone(at, 0)).toBe('2024-11-03T06:30:00+00:00');
  });
});

describe('localDay', () => {
  it('is 23 hours on a spring-forward day, without the skipped hour', () => {
    const day = localDay('2024-03-10', 'America/New_York');
    expect(day.end - day.start).toBe(23 * 3_600_000);
    expect(day.hours[2]).toBeNull();
    expect(day.hours[1]!.end).toBe(day.hours[3]!.start);
  });

  it('is 25 hours on a fall-back day, the repeated hour spanning both passes', () => {
    const day = localDay('2024-11-03', 'America/New_York');
    expect(day.end - day.start).toBe(25 * 3_600_000);
    expect(day.hours[1]!.end - day.hours[1]!.start).toBe(2 * 3_600_000);
  });

  it('moves by half an hour where the zone does (Lord Howe)', () => {
    const day = localDay('2024-04-07', 'Australia/Lord_Howe');
    expect(day.end - day.start).toBe(24.5 * 3_600_000);
  });

  it('is empty, not broken, on a date the zone skipped', () => {
    const day = localDay('2011-12-30', 'Pacific/Apia');
    expect(day.end).toBe(day.start);
    expect(day.hours.every((h) => h === null)).toBe(true);
  });

  it('covers the day with its hours, each instant in them reading as that date and hour', () => {
    const changes = ['2024-03-10', '2024-11-03', '2024-03-31', '2024-10-27', '2024-04-07', '2024-10-06', '2024-09-08', '2024-04-06'];
    let unusual = 0;
    const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Santiago', 'Pacific/Chatham', 'Africa/Casablanca'];
    fc.assert(
      // Any date of three years, or one on which some of these zones change their clocks.
      fc.property(fc.constantFrom(...zones), fc.oneof(fc.integer({ min: 0, max: 3 * 365 }).map((n) => addDays('2023-01-01', n)), fc.constantFrom(...changes)), (zone, date) => {
        const day = localDay(date, zone);
        if (day.end - day.start !== 24 * 3_600_000) unusual += 1;
        const hours = day.hours.filter((h) => h !== null);
        expect(hours[0].start).toBe(day.start);
        expect(hours.at(-1)!.end).toBe(day.end);
        // No gap between hours; they overlap only where the clock goes back inside an hour (Chatham's 03:45 -> 02:45).
        for (let i = 1; i < hours.length; i++) expect(hours[i].start).toBeLessThanOrEqual(hours[i - 1].end);
        day.hours.forEach((h, hour) => {
          if (!h) return;
          expect(localDateHour(zone, new Date(h.start))).toEqual({ date, hour });
          expect(localDateHour(zone, new Date(h.end - 1))).toEqual({ date, hour });
          expect(day.offsetAt(h.start)).toBe(offsetMinutes(zone, h.start));
        });
        expect(localDateHour(zone, new Date(day.start - 1)).date).toBe(addDays(date, -1));
      }),
      { numRuns: 300, seed: 34 },
    );
    expect(unusual).toBeGreaterThan(10); // the property met days of 23, 23.5, 24.5 or 25 hours
  });
});

describe('wallClock', () => {
  it('reads an instant as the zone\'s clock does, across a change of offset', () => {
    expect(wallClock('2024-11-03T05:30:00Z', 'America/New_York')).toBe('2024-11-03 01:30');
    expect(wallClock('2024-11-03T06:30:00Z', 'America/New_York')).toBe('2024-11-03 01:30');
    expect(wallClock('2026-11-29T07:40:59.999Z', 'Asia/Kolkata')).toBe('2026-11-29 13:10');
    expect(wallClock('2026-11-29T07:40:00Z', 'UTC')).toBe('2026-11-29 07:40');
  });
});
