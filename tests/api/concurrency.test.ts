import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { call, newUser, storedIde } from '../helpers/api';

describe('concurrent writers', () => {
  it('40 concurrent batches adding to one bucket end exactly at the sum', async () => {
    const { user, token } = await newUser();
    const times = Array.from({ length: 40 }, (_, i) => i + 1);
    const answers = await Promise.all(
      times.map((t) =>
        call(postBatch, '/sync/activities', {
          token,
          body: { activities: [{ language: 'Go', time: t, date: '2026-03-01', hour: 12, lines: 1 }] },
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(times.map(() => 200));
    const [row] = await storedIde(user.id);
    expect(row.millis).toBe(times.reduce((a, b) => a + b, 0) * 1000);
    expect(row.lines).toBe(40);
  });

  it('overlapping batches over shared keys in opposite orders neither deadlock nor lose updates', async () => {
    const { user, token } = await newUser();
    const keys = ['A', 'B', 'C', 'D', 'E', 'F'].map((language) => ({ language, time: 1, date: '2026-03-02', hour: 7 }));
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        call(postBatch, '/sync/activities', { token, body: { activities: i % 2 ? keys : [...keys].reverse() } }),
      ),
    );
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const stored = await storedIde(user.id);
    expect(stored.map((r) => [r.language, r.millis])).toEqual(keys.map((k) => [k.language, 24_000]));
  });
});
