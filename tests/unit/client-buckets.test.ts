import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { credit, hoursOf, type ClientEvent, type EditorEvent } from '../../client/src/buckets';
import { editorEvent, EventError, projectOf } from '../../client/src/events';

// The reference client's crediting (client/src/buckets.ts): WakaTime's rule on this machine's
// local hours, any grouping of the events into commits giving the totals of one.
const zone = process.env.TZ;
afterEach(() => {
  process.env.TZ = zone;
});

const at = (iso: string) => Date.parse(iso);
const ev = (iso: string, language = 'TypeScript'): EditorEvent => ({ kind: 'editor', at: at(iso), language, project: 'p', editor: 'e' });

describe('credit', () => {
  it('credits each gap of at most 15 minutes to the earlier event, cut at local hours', () => {
    process.env.TZ = 'UTC';
    const { buckets, carry } = credit(null, [ev('2026-11-20T10:50:00Z', 'Go'), ev('2026-11-20T11:05:00Z'), ev('2026-11-20T11:25:00Z'), ev('2026-11-20T11:30:00Z', 'Lua')]);
    expect(buckets).toEqual([
      { date: '2026-11-20', hour: 10, language: 'Go', project_name: 'p', ide_name: 'e', time: 600 },
      { date: '2026-11-20', hour: 11, language: 'Go', project_name: 'p', ide_name: 'e', time: 300 },
      { date: '2026-11-20', hour: 11, language: 'TypeScript', project_name: 'p', ide_name: 'e', time: 300 },
    ]);
    expect(carry).toMatchObject({ language: 'Lua', at: at('2026-11-20T11:30:00Z') });
    // The 20-minute gap (11:05 to 11:25) counts nothing; the last event's time counts once the next run begins.
    const next = credit(carry, [ev('2026-11-20T11:31:00Z')]);
    expect(next.buckets).toEqual([{ date: '2026-11-20', hour: 11, language: 'Lua', project_name: 'p', ide_name: 'e', time: 60 }]);
  });

  it('counts an event that comes after a later one was already counted as late, and nothing else', () => {
    const { buckets, late } = credit(ev('2026-11-20T10:00:00Z'), [ev('2026-11-20T09:59:00Z'), ev('2026-11-20T10:01:00Z')]);
    expect(late).toBe(1);
    expect(buckets.reduce((s, b) => s + b.time, 0)).toBe(60);
  });

  it('gives desktop time to the application in front and none to idle time', () => {
    process.env.TZ = 'UTC';
    const d = (iso: string, app: string): ClientEvent => ({ kind: 'desktop', at: at(iso), app, platform: 'Linux' });
    const { buckets } = credit(null, [d('2026-11-20T10:00:00Z', 'Firefox'), d('2026-11-20T10:02:00Z', ''), d('2026-11-20T10:10:00Z', 'XTerm'), d('2026-11-20T10:10:30Z', '')]);
    expect(buckets).toEqual([
      { date: '2026-11-20', hour: 10, platform: 'Linux', program_name: 'Firefox', path: '', filename: '', time: 120 },
      { date: '2026-11-20', hour: 10, platform: 'Linux', program_name: 'XTerm', path: '', filename: '', time: 30 },
    ]);
  });

  it('cuts at the local hours of this machine, across a clock change and in half-hour zones', () => {
    process.env.TZ = 'America/New_York';
    // 01:55 EST to 03:05 EDT is ten minutes: five in hour 1, five in hour 3.
    expect(hoursOf(at('2026-03-08T06:55:00Z'), at('2026-03-08T07:05:00Z'))).toEqual([
      ['2026-03-08', 1, 300_000],
      ['2026-03-08', 3, 300_000],
    ]);
    process.env.TZ = 'Asia/Kolkata';
    expect(hoursOf(at('2026-11-20T04:20:00Z'), at('2026-11-20T04:40:00Z'))).toEqual([
      ['2026-11-20', 9, 600_000],
      ['2026-11-20', 10, 600_000],
    ]);
  });

  it('gives the same totals whatever the grouping of the events into commits', () => {
    process.env.TZ = 'Europe/Berlin';
    const stream = fc.array(fc.tuple(fc.integer({ min: 0, max: 1500 }), fc.constantFrom('Go', 'Rust', 'Lua')), { minLength: 1, maxLength: 60 });
    fc.assert(
      fc.property(stream, fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 20 }), (gaps, cuts) => {
        let t = at('2026-10-24T22:00:00Z'); // runs across the end of summer time
        const events = gaps.map(([gap, language]) => ({ ...ev('2026-10-24T22:00:00Z', language), at: (t += gap * 1000) }));
        const whole = credit(null, events).buckets;
        let carry: ClientEvent | null = null;
        const parts: Record<string, number> = {};
        for (let i = 0, c = 0; i < events.length; c++) {
          const run = events.slice(i, i + cuts[c % cuts.length]);
          i += run.length;
          const r = credit(carry, run);
          carry = r.carry;
          for (const b of r.buckets) parts[JSON.stringify({ ...b, time: 0 })] = (parts[JSON.stringify({ ...b, time: 0 })] ?? 0) + b.time;
        }
        const wholeTotals = Object.fromEntries(whole.map((b) => [JSON.stringify({ ...b, time: 0 }), b.time]));
        expect(Object.keys(parts).sort()).toEqual(Object.keys(wholeTotals).sort());
        for (const [k, v] of Object.entries(wholeTotals)) expect(parts[k]).toBeCloseTo(v, 6);
      }),
    );
  });

  it('sends every line change once, with the next time credited, whatever the grouping, and carries what has no time yet', () => {
    process.env.TZ = 'UTC';
    const stream = fc.array(fc.tuple(fc.integer({ min: 0, max: 1500 }), fc.integer({ min: -20, max: 20 }), fc.integer({ min: -5, max: 5 })), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(stream, fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }), (steps, cuts) => {
        let t = at('2026-11-20T09:00:00Z');
        const events: EditorEvent[] = steps.map(([gap, ai, human]) => ({ ...ev('2026-11-20T09:00:00Z'), at: (t += gap * 1000), aiLines: ai, humanLines: human }));
        let carry: ClientEvent | null = null;
        const sent = { ai: 0, human: 0 };
        for (let i = 0, c = 0; i < events.length; c++) {
          const run = events.slice(i, i + cuts[c % cuts.length]);
          i += run.length;
          const r = credit(carry, run);
          carry = r.carry;
          for (const b of r.buckets) {
            if ('ai_lines' in b || 'human_lines' in b) expect(b.time).toBeGreaterThan(0);
            sent.ai += ('ai_lines' in b && b.ai_lines) || 0;
            sent.human += ('human_lines' in b && b.human_lines) || 0;
          }
        }
        const waiting = carry as EditorEvent | null;
        expect(sent.ai + (waiting?.aiLines ?? 0)).toBe(steps.reduce((s, [, ai]) => s + ai, 0));
        expect(sent.human + (waiting?.humanLines ?? 0)).toBe(steps.reduce((s, [, , h]) => s + h, 0));
      }),
    );
  });
});

describe('events', () => {
  it('checks what a plugin passes where it enters, and names the language from the file when none is given', () => {
    const now = at('2026-11-20T10:00:00Z');
    expect(editorEvent({ entity: '/src/app.tsx', project: ' demo ', editor: 'neovim', machine: '' }, now)).toEqual({ kind: 'editor', at: now, language: 'TypeScript', project: 'demo', editor: 'neovim' });
    // This machine's name unless one is given; a category, an AI agent and line changes when given.
    expect(editorEvent({ language: 'Go' }, now).machine).toBe(os.hostname().trim().slice(0, 64) || undefined);
    expect(editorEvent({ language: 'Go', category: 'AI Coding', agent: 'Claude', aiLines: 12, humanLines: -2, machine: 'box' }, now)).toMatchObject({
      category: 'ai coding', agent: 'Claude', aiLines: 12, humanLines: -2, machine: 'box',
    });
    expect(() => editorEvent({ language: 'Go', category: 'typing' }, now)).toThrow('category must be one of');
    expect(() => editorEvent({ language: 'Go', aiLines: 1.5 }, now)).toThrow('ai lines must be a whole number');
    expect(editorEvent({ entity: 'notes.unknownext' }, now)).toMatchObject({ language: 'Other', project: '', editor: 'unknown' });
    expect(() => editorEvent({ language: 'Go', project: 'a\u0000b' }, now)).toThrow(EventError);
    expect(() => editorEvent({ language: 'x'.repeat(65) }, now)).toThrow('language must be at most 64 characters');
    expect(() => editorEvent({ language: 'Go', time: now / 1000 + 7200 }, now)).toThrow('at most one hour ahead');
    expect(() => editorEvent({ language: 'Go', time: now / 1000 - 15 * 86_400 }, now)).toThrow('within the last 14 days');
    expect(() => editorEvent({ language: 'Go', time: Number.NaN }, now)).toThrow('time must be a number');
  });

  it('names the project after the nearest repository above the file (a .git folder or file), none outside one', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-project-')));
    try {
      fs.mkdirSync(path.join(root, 'tally app', '.git'), { recursive: true });
      fs.mkdirSync(path.join(root, 'tally app', 'vendor', 'lib', 'src'), { recursive: true });
      fs.writeFileSync(path.join(root, 'tally app', 'vendor', 'lib', '.git'), 'gitdir: ../../.git/modules/lib\n');
      fs.mkdirSync(path.join(root, 'loose'));
      expect(projectOf(path.join(root, 'tally app', 'main.go'))).toBe('tally app');
      expect(projectOf(path.join(root, 'tally app', 'vendor', 'lib', 'src', 'x.c'))).toBe('lib');
      expect(projectOf(path.join(root, 'loose', 'notes.md'))).toBeUndefined();
      expect(projectOf(undefined)).toBeUndefined();
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
