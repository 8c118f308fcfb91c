import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DayHeartbeats } from '../../lib/wakatime/importing/day-heartbeats';
import { Deltas } from '../../lib/wakatime/sending/credits';
import { DistinctHeartbeats } from '../../lib/wakatime/sending/distinct-heartbeats';
import { GAP_MS, type Heartbeat } from '../../lib/wakatime/sending/heartbeat';

// A day held in columns credits exactly what the day's heartbeat objects credit: told apart as
// DistinctHeartbeats tells them (the last one sent kept), in time order, each gap of at most
// 15 minutes to the earlier heartbeat.

/** The credits of heartbeats as objects: the reference. */
function referenceCredits(beats: Heartbeat[], firstNext: number, zone: string) {
  const distinct = new DistinctHeartbeats();
  for (const h of beats) distinct.add(h);
  const list = distinct.list.sort((a, b) => a.at - b.at || a.type.localeCompare(b.type) || a.digest - b.digest);
  const deltas = new Deltas();
  list.forEach((h, i) => {
    const next = i + 1 < list.length ? list[i + 1].at : firstNext;
    if (next - h.at <= GAP_MS && next > h.at) deltas.add(h, h.at, next, zone, 1);
  });
  return { credits: deltas.credits(), distinct: list.length };
}

const heartbeat = fc.record({
  at: fc.integer({ min: 0, max: 40 }).map((m) => Date.UTC(2024, 2, 31) + m * 60_000 * 7),
  type: fc.constantFrom('file', 'app') as fc.Arbitrary<Heartbeat['type']>,
  digest: fc.integer({ min: 1, max: 3 }),
  category: fc.constant('coding'),
  language: fc.constantFrom('Go', 'Rust'),
  project: fc.constantFrom('api', 'web'),
  editor: fc.constantFrom('vim', 'VS Code'),
  os: fc.constant('Linux'),
  app: fc.constantFrom('', 'Firefox'),
  machine: fc.constantFrom('', 'laptop'),
  agent: fc.constantFrom('', 'Claude'),
  aiLines: fc.constant(0),
  humanLines: fc.constant(0),
});

describe('a day of heartbeats held in columns', () => {
  it('credits what the heartbeat objects credit, repeats and ties included, and counts the combinations it names', () => {
    fc.assert(
      fc.property(fc.array(heartbeat, { maxLength: 60 }), fc.option(fc.integer({ min: 0, max: 20 * 60_000 })), fc.constantFrom('UTC', 'Asia/Kathmandu', 'Europe/Berlin'), (beats, after, zone) => {
        const firstNext = after === null ? Infinity : Date.UTC(2024, 2, 31) + 41 * 7 * 60_000 + after;
        // In any order, and in order of time (as WakaTime writes a day: nothing to sort).
        const inOrder = [...new Map(beats.map((h) => [h.at, h])).values()].sort((a, b) => a.at - b.at);
        for (const list of [beats, inOrder]) {
          const day = new DayHeartbeats();
          for (const h of list) day.add(h);
          const deltas = new Deltas();
          const distinct = day.credit(firstNext, zone, deltas);
          expect({ credits: deltas.credits(), distinct }).toEqual(referenceCredits(list, firstNext, zone));
          expect(day.size).toBe(list.length);
          expect(day.named).toBe(new Set(list.map((h) => [h.type, h.language, h.project, h.editor, h.os, h.app, h.category, h.machine, h.agent].join('\u0000'))).size);
          expect(day.earliest).toBe(list.reduce((min, h) => Math.min(min, h.at), Infinity));
        }
      }),
      { numRuns: 500 },
    );
  });
});
