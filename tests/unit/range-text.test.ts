import { describe, expect, it } from 'vitest';
import { rangeText } from '@/lib/wakatime/reading/reads';

// `range.text` as WakaTime writes it: Raycast's WakaTime extension parses exactly this form.
describe('range.text', () => {
  it("writes a date as WakaTime does: weekday, month, ordinal day, year", () => {
    expect(rangeText('2023-01-29')).toBe('Sun Jan 29th 2023');
    const days: Record<string, string> = {
      '2024-02-01': 'Thu Feb 1st 2024',
      '2024-02-02': 'Fri Feb 2nd 2024',
      '2024-03-03': 'Sun Mar 3rd 2024',
      '2024-12-11': 'Wed Dec 11th 2024',
      '2025-06-12': 'Thu Jun 12th 2025',
      '2025-07-13': 'Sun Jul 13th 2025',
      '2025-08-21': 'Thu Aug 21st 2025',
      '2025-09-22': 'Mon Sep 22nd 2025',
      '2025-10-23': 'Thu Oct 23rd 2025',
      '2024-02-29': 'Thu Feb 29th 2024',
    };
    for (const [date, text] of Object.entries(days)) expect([date, rangeText(date)]).toEqual([date, text]);
  });
});
