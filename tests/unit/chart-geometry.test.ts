import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, eachDay } from '../../lib/dates';
import { axisLabels, axisTextWidth, axisTiers, calendar, daysIntoWeek, donutArcs, hourTicks, months, slices, type AxisUnit } from '../../lib/web/chart-geometry';

describe('chart slices', () => {
  it('gives shares of the whole, with the time no named entry holds as "All others"', () => {
    // Site-wide: two languages shown of 10 hours (the rest rests on too few people).
    const community = slices([{ name: 'Go', seconds: 3600 }, { name: 'Rust', seconds: 1800 }], 8, 36_000);
    expect(community).toEqual([
      { name: 'Go', seconds: 3600, percent: 10, color: 1 },
      { name: 'Rust', seconds: 1800, percent: 5, color: 2 },
      { name: 'All others', seconds: 30_600, percent: 85, color: 0 },
    ]);
    // A person's own languages: all of them when they fit, the smallest grouped when not.
    const nine = Array.from({ length: 9 }, (_, i) => ({ name: `L${i}`, seconds: 900 - i * 10 }));
    expect(slices(nine.slice(0, 8), 8).map((s) => s.name)).toEqual(['L0', 'L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7']);
    expect(slices(nine, 8).map((s) => [s.name, s.seconds])).toEqual([...nine.slice(0, 7).map((i) => [i.name, i.seconds]), ['All others', 830 + 820]]);
  });

  it('always adds up to the whole, and the donut closes its circle', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 30 }), fc.nat(500_000), fc.integer({ min: 2, max: 15 }), (secs, extra, limit) => {
        const items = secs.sort((a, b) => b - a).map((seconds, i) => ({ name: `n${i}`, seconds }));
        const whole = secs.reduce((a, b) => a + b, 0) + extra;
        const rows = slices(items, limit, whole);
        expect(rows.length).toBeLessThanOrEqual(limit);
        expect(rows.reduce((sum, r) => sum + r.seconds, 0)).toBe(whole);
        expect(Math.abs(rows.reduce((sum, r) => sum + r.percent, 0) - 100)).toBeLessThanOrEqual(0.05 * rows.length + 1e-9);
        const arcs = donutArcs(rows);
        expect(arcs[0].start).toBe(0);
        expect(arcs.at(-1)!.start + arcs.at(-1)!.dash).toBeCloseTo(100, 9);
      }),
    );
  });
});

describe('bar chart gridlines', () => {
  it('rounds the top up to whole steps that cover the tallest bar', () => {
    expect(hourTicks(5.5 * 3600)).toEqual({ top: 6 * 3600, ticks: [0, 2, 4, 6].map((h) => ({ seconds: h * 3600, label: h === 0 ? '0' : `${h}h` })) });
    expect(hourTicks(1500).ticks.map((t) => t.label)).toEqual(['0', '10m', '20m', '30m']);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000 }), (max) => {
        const { top, ticks } = hourTicks(max);
        expect(top).toBeGreaterThanOrEqual(max);
        expect(ticks.length).toBeLessThanOrEqual(4);
        expect(ticks.at(-1)!.seconds).toBe(top);
      }),
    );
  });
});

describe('the weekly chart', () => {
  it('counts the days of the current week so far', () => {
    expect(daysIntoWeek('2026-11-23', '2026-11-23')).toBe(1); // a Monday
    expect(daysIntoWeek('2026-11-23', '2026-11-26')).toBe(4);
    expect(daysIntoWeek('2026-11-16', '2026-11-23')).toBe(7);
  });
});

describe('the year calendar', () => {
  it('puts each day in its ISO week column and weekday row, and labels months where they start', () => {
    const days = eachDay('2025-11-24', '2026-11-23').map((date) => ({ date, seconds: 60, level: 1 }));
    const { cells, columns, months: labels } = calendar(days);
    expect(cells[0]).toMatchObject({ date: '2025-11-24', column: 0, row: 0 }); // a Monday
    expect(cells.find((c) => c.date === '2026-01-04')).toMatchObject({ column: 5, row: 6 }); // a Sunday
    expect(columns).toBe(53);
    for (const c of cells) expect(c.column * 7 + c.row).toBe(cells.indexOf(c));
    expect(labels.map((m) => m.label)).toEqual(['Nov', 'Dec', 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov'].slice(1));
    expect(labels[0]).toEqual({ label: 'Dec', column: 1 }); // the first column whose Monday is in December (2025-12-01); November's label had no room
    for (let i = 1; i < labels.length; i++) expect(labels[i].column - labels[i - 1].column).toBeGreaterThanOrEqual(3);
  });

  it('sums the months for its table', () => {
    const days = [...eachDay('2026-01-30', '2026-02-02')].map((date, i) => ({ date, seconds: i % 2 ? 0 : 600 }));
    expect(months(days)).toEqual([
      { month: 'Jan 2026', seconds: 600, activeDays: 1 },
      { month: 'Feb 2026', seconds: 600, activeDays: 1 },
    ]);
    expect(addDays('2026-01-30', 3)).toBe('2026-02-02');
  });
});

describe('the dates under a chart', () => {
  // The label as drawn: its left and right edges in pixels, as wide as its text can be.
  const drawn = (dates: string[], width: number, unit: AxisUnit = 'day') =>
    axisLabels(dates, width, unit).map((l) => {
      const w = axisTextWidth(l.text);
      const anchor = (l.at / 100) * width;
      const left = l.align === 'start' ? anchor : l.align === 'end' ? anchor - w : anchor - w / 2;
      return { ...l, left, right: left + w };
    });

  function expectReadable(dates: string[], width: number, unit: AxisUnit = 'day') {
    const labels = drawn(dates, width, unit);
    const slot = width / dates.length;
    for (const [i, l] of labels.entries()) {
      // Under its own column (over its centre), inside the plot, clear of the one before.
      const centre = (l.column + 0.5) * slot;
      expect(l.left).toBeLessThanOrEqual(centre + 1e-9);
      expect(l.right).toBeGreaterThanOrEqual(centre - 1e-9);
      expect(l.left).toBeGreaterThanOrEqual(-1e-9);
      expect(l.right).toBeLessThanOrEqual(width + 1e-9);
      if (i > 0) expect(l.left).toBeGreaterThan(labels[i - 1].right);
    }
    return labels;
  }

  // A 390 px phone's card leaves the plot about 290 px; a 1366 px desktop's about 1000 (and every tier's width).
  const widths = [290, 1000, ...axisTiers.map((t) => t.plot)];

  it('never overlaps, for 1, 7, 30 and 365 days at phone and desktop widths, and always names some day', () => {
    for (const n of [1, 7, 30, 365])
      for (const width of widths) {
        const dates = eachDay(addDays('2026-12-05', 1 - n), '2026-12-05');
        expect(expectReadable(dates, width).length).toBeGreaterThan(0);
      }
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 800 }), fc.integer({ min: 120, max: 1600 }), fc.integer({ min: 0, max: 3000 }), (n, width, offset) => {
        const end = addDays('2024-01-01', offset);
        expectReadable(eachDay(addDays(end, 1 - n), end), width);
      }),
    );
  });

  it('labels every day of a week on a desktop, fewer on a phone, weeks and months at long ranges', () => {
    const week = eachDay('2026-11-29', '2026-12-05');
    expect(axisLabels(week, 1000).map((l) => l.text)).toEqual(['Nov 29', 'Nov 30', 'Dec 1', 'Dec 2', 'Dec 3', 'Dec 4', 'Dec 5']);
    const phone = axisLabels(week, 220).map((l) => l.text);
    expect(phone.length).toBeLessThan(7);
    expect(phone.at(-1)).toBe('Dec 5'); // today is named
    // A month on a phone: Mondays.
    const month = eachDay('2026-11-06', '2026-12-05');
    expect(axisLabels(month, 220).map((l) => l.text)).toEqual(['Nov 9', 'Nov 16', 'Nov 23', 'Nov 30']);
    // A year: months, January named by its year.
    const year = eachDay('2025-12-06', '2026-12-05');
    const texts = axisLabels(year, 1000).map((l) => l.text);
    expect(texts).toEqual(['2026', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);
    expect(axisLabels(year, 220).length).toBeLessThan(texts.length);
    // A single day is labelled under its one column, in the middle.
    expect(axisLabels(['2026-12-05'], 290)).toEqual([{ column: 0, text: 'Dec 5', at: 50, align: 'middle' }]);
  });

  it('labels weeks and months as their columns', () => {
    const mondays = Array.from({ length: 53 }, (_, i) => addDays('2025-12-08', i * 7));
    for (const width of widths) expectReadable(mondays, width, 'week');
    const firsts = Array.from({ length: 30 }, (_, i) => `${2024 + Math.floor((i + 6) / 12)}-${String(((i + 6) % 12) + 1).padStart(2, '0')}-01`);
    for (const width of widths) expectReadable(firsts, width, 'month');
    expect(axisLabels(firsts, 1000, 'month')[0].text).toBe('Jul');
  });
});
