import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { config, resetConfig } from '@/lib/config';
import { addDays } from '@/lib/dates';
import { getDb, rows } from '@/lib/db/client';
import { call, newUser } from '../helpers/api';
import { getChart } from '../helpers/public';

// The attacks on site-wide figures, made by an attacker who controls any number of accounts and
// asks any number of questions. The victim keeps everything private; only community statistics
// are on (the default). Noise is on, at its default scale.

let dayCounter = 0;
/** A date no other test of this file writes to. */
const freshDate = () => addDays('2025-01-01', 3 * dayCounter++);

async function coder(date: string, language: string, seconds: number) {
  const u = await newUser();
  const activities = [];
  for (let hour = 0, left = seconds; left > 0; hour++, left -= 3600) activities.push({ language, time: Math.min(3600, left), date, hour });
  expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
  return u;
}

/** The site-wide seconds of one language over a range, as anyone may ask. */
async function languageSeconds(language: string, from: string, to: string): Promise<number> {
  const body = await (await getChart('language', `from=${from}&to=${to}`)).json();
  return body.languages.find((l: { name: string }) => l.name === language)?.seconds ?? 0;
}

beforeAll(() => {
  delete process.env.PUBLIC_NOISE_SECONDS;
  resetConfig();
  expect(config().PUBLIC_NOISE_SECONDS).toBe(900);
});

describe('site-wide figures against an attacker with many accounts', () => {
  it('busiest-date unlocking: a date on which the victim coded a language alone adds nothing to any range', async () => {
    const lonely = freshDate();
    const busy = addDays(lonely, 1);
    await coder(lonely, 'Idris', 5400); // the victim, alone in Idris that day
    for (let i = 0; i < 3; i++) await coder(busy, 'Idris', 600); // the attacker's accounts, the next day
    const both = await languageSeconds('Idris', lonely, busy);
    expect(both).toBe(await languageSeconds('Idris', busy, busy));
    expect(await languageSeconds('Idris', lonely, lonely)).toBe(0);
    // Nor does the victim's lonely day show in the daily series.
    const time = await (await getChart('time', `from=${lonely}&to=${busy}`)).json();
    expect(time.days[0]).toEqual({ date: lonely, seconds: 0 });
  });

  it('fake accounts on the victim\'s date: subtracting their own time leaves noise, not the victim\'s seconds', async () => {
    const errors: number[] = [];
    for (let i = 0; i < 24; i++) {
      const date = freshDate();
      const victim = 1800 + 137 * i; // what the attacker wants to read
      await coder(date, 'Lean', victim);
      await coder(date, 'Lean', 300); // two accounts of the attacker, whose time it knows
      await coder(date, 'Lean', 300);
      const estimate = (await languageSeconds('Lean', date, date)) - 600;
      errors.push(Math.abs(estimate - victim));
      // Every published figure is a whole number of minutes.
      expect((await languageSeconds('Lean', date, date)) % 60).toBe(0);
    }
    errors.sort((a, b) => a - b);
    // The noise has scale 900 s (median |error| about 10 min); exact answers are rare chance.
    // (Thresholds chosen so that a working noise fails them about once in a few thousand runs.)
    expect(errors[Math.floor(errors.length / 2)]).toBeGreaterThan(150);
    expect(errors.filter((e) => e < 60).length).toBeLessThan(8);
  });

  it('asking again, or differencing ranges, isolates the same noisy release of the victim\'s cell every time: nothing to average', async () => {
    const errors: number[] = [];
    for (let v = 0; v < 16; v++) {
      const start = freshDate();
      const victim = 2700 + 211 * v;
      await coder(start, 'Agda', victim);
      for (let i = 0; i < 2; i++) await coder(start, 'Agda', 600);
      // Days of the attacker's own after the victim's date, to make ranges of.
      for (let d = 1; d <= 2; d++) for (let i = 0; i < 3; i++) await coder(addDays(start, d), 'Agda', 600);

      const again = await Promise.all(Array.from({ length: 3 }, () => languageSeconds('Agda', start, start)));
      const differences = [];
      for (let end = 1; end <= 2; end++) {
        differences.push((await languageSeconds('Agda', start, addDays(start, end))) - (await languageSeconds('Agda', addDays(start, 1), addDays(start, end))));
      }
      // Every question that holds the cell gets its one release, noise included.
      expect(new Set([...again, ...differences]).size).toBe(1);
      errors.push(Math.abs(again[0] - 1200 - victim));
    }
    errors.sort((a, b) => a - b);
    expect(errors[Math.floor(errors.length / 2)]).toBeGreaterThan(120);
  });

  it('forcing re-releases: a cell changed again within PUBLIC_CACHE_SECONDS keeps its release, and each release is noisier', async () => {
    process.env.PUBLIC_CACHE_SECONDS = '60';
    resetConfig();
    try {
      const date = freshDate();
      await coder(date, 'Coq', 1800);
      const attacker = await coder(date, 'Coq', 300);
      await coder(date, 'Coq', 300);
      const first = await languageSeconds('Coq', date, addDays(date, 1));
      // The attacker adds time to force a new release: within the minute, nothing changes.
      await call(postBatch, '/sync/activities', { token: attacker.token, body: { activities: [{ language: 'Coq', time: 60, date, hour: 5 }] } });
      expect(await languageSeconds('Coq', date, addDays(date, 2))).toBe(first);
      const db = await getDb();
      const [cell] = await rows<{ release: number; pending: boolean }>(
        db,
        sql`SELECT release, pending FROM community_day_languages WHERE date = ${date} AND language = 'Coq'`,
      );
      expect(cell).toEqual({ release: 1, pending: true });
      // A minute later (moved back here rather than waited for), the waiting change is released.
      await db.execute(sql`UPDATE community_day_languages SET released_at = released_at - interval '61 seconds' WHERE date = ${date}`);
      await db.execute(sql`UPDATE community_days SET released_at = released_at - interval '61 seconds' WHERE date = ${date}`);
      await languageSeconds('Coq', date, addDays(date, 3));
      const [after] = await rows<{ release: number; pending: boolean }>(
        db,
        sql`SELECT release, pending FROM community_day_languages WHERE date = ${date} AND language = 'Coq'`,
      );
      expect(after).toEqual({ release: 2, pending: false });
    } finally {
      process.env.PUBLIC_CACHE_SECONDS = '0';
      resetConfig();
    }
  });
});
