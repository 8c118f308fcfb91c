// The one daily average of one's own figures (the dashboard's overview, Insights, the WakaTime
// API's stats and summaries): WakaTime's, the total over the days with coding time. A day off
// does not lower what a coding day looks like, and the same week reads the same everywhere.
// The public contracts that fix another basis (the leaderboard and GET /get/public/time: the
// total over every date of the range) keep it, and the pages that show those say so.

export interface CodedDayAverage {
  /** The total over the days with time, unrounded, in the unit of the totals given; 0 without any. */
  average: number;
  /** Days with time (WakaTime's days_minus_holidays). */
  coded: number;
  /** Every day given (days_including_holidays). */
  days: number;
}

/** The daily average of day totals (days without time included or not: they count for nothing). */
export function codedDayAverage(dayTotals: readonly number[]): CodedDayAverage {
  let total = 0;
  let coded = 0;
  for (const t of dayTotals) {
    total += t;
    if (t > 0) coded += 1;
  }
  return { average: coded ? total / coded : 0, coded, days: dayTotals.length };
}
