import { describe, expect, it } from 'vitest';
import { codedDayAverage } from '@/lib/stats/average';

// The one daily average of one's own figures: the total over the days with time (WakaTime's).

describe('the daily average', () => {
  it('is the total over the days with time; days without count for nothing, none is 0', () => {
    expect(codedDayAverage([3600, 0, 1800, 0, 1200, 0, 0])).toEqual({ average: 2200, coded: 3, days: 7 });
    expect(codedDayAverage([3600, 1800, 1200])).toEqual({ average: 2200, coded: 3, days: 3 });
    expect(codedDayAverage([0, 0])).toEqual({ average: 0, coded: 0, days: 2 });
    expect(codedDayAverage([])).toEqual({ average: 0, coded: 0, days: 0 });
  });
});
