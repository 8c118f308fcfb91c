import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalEditor } from '../../lib/editors';
import { desktopKind, ideKind, validateBuckets } from '../../lib/ingest/buckets';
import { NO_DIMENSIONS, NO_LINE_CHANGES, type IdeRow } from '../../lib/ingest/rows';
import { localDateHour } from '../../lib/local-time';
import { daysFromToday } from '../helpers/api';

const ok = { language: 'TypeScript', time: 60, date: '2026-01-05', hour: 10 };
const errorsOf = (item: unknown) => validateBuckets(ideKind, [item], 'UTC').rejected[0]?.errors ?? [];
const codesOf = (item: unknown) => errorsOf(item).map((e) => `${e.path}:${e.code}`);

describe('IDE bucket validation', () => {
  it('accepts a complete bucket and keeps only what the key and sums need', () => {
    const { groups: rows, rejected } = validateBuckets(
      ideKind,
      [{ ...ok, lines: 12.6, path: '/home/me/secret/app.ts', project_name: ' codetally ', ide_name: 'vscode', filename: 'app.ts' }],
      'UTC',
    );
    expect(rejected).toEqual([]);
    expect(rows).toEqual([
      { date: '2026-01-05', hour: 10, language: 'TypeScript', project: 'codetally', editor: 'VS Code', ...NO_DIMENSIONS, millis: 60_000, lines: 13, ...NO_LINE_CHANGES },
    ]);
  });

  it('keys a bucket by its category, machine and AI agent too, and sums AI and human line changes as added and deleted', () => {
    const ai = { ...ok, category: 'AI Coding', machine: ' work-laptop ', ai_agent: 'Claude', ai_lines: 40, human_lines: -3 };
    const { groups, rejected } = validateBuckets(ideKind, [ai, { ...ai, ai_lines: -10 }, { ...ai, category: 'debugging' }, { ...ok, category: 'typing' }], 'UTC');
    expect(rejected).toEqual([{ index: 3, errors: [expect.objectContaining({ path: 'category', message: expect.stringMatching(/one of WakaTime's categories/) })] }]);
    expect(groups).toEqual([
      expect.objectContaining({ category: 'ai coding', machine: 'work-laptop', os: '', agent: 'Claude', millis: 120_000, aiAdditions: 40, aiDeletions: 10, humanAdditions: 0, humanDeletions: 6 }),
      expect.objectContaining({ category: 'debugging', millis: 60_000, aiAdditions: 40, humanDeletions: 3 }),
    ]);
  });

  it.each([
    [{ time: 1 }, 'language:required'],
    [{ ...ok, language: '   ' }, 'language:too_small'],
    [{ ...ok, language: 'x'.repeat(65) }, 'language:too_big'],
    [{ ...ok, language: 7 }, 'language:invalid_type'],
    [{ language: 'Go' }, 'time:required'],
    [{ ...ok, time: 0 }, 'time:too_small'],
    [{ ...ok, time: -5 }, 'time:too_small'],
    [{ ...ok, time: 3600.5 }, 'time:too_big'],
    [{ ...ok, time: '60' }, 'time:invalid_type'],
    [{ ...ok, lines: -1 }, 'lines:too_small'],
    [{ ...ok, lines: 10_000_001 }, 'lines:too_big'],
    [{ ...ok, date: '2026-1-5' }, 'date:invalid_format'],
    [{ ...ok, date: '2026-02-30' }, 'date:invalid_date'],
    [{ ...ok, date: '1999-12-31' }, 'date:date_out_of_range'],
    [{ ...ok, date: daysFromToday(2) }, 'date:date_out_of_range'],
    [{ ...ok, hour: 24 }, 'hour:too_big'],
    [{ ...ok, hour: -1 }, 'hour:too_small'],
    [{ ...ok, hour: 1.5 }, 'hour:invalid_type'],
    [{ ...ok, path: 'p'.repeat(1025) }, 'path:too_big'],
    [{ ...ok, project_name: 'p'.repeat(201) }, 'project_name:too_big'],
    [{ ...ok, ide_name: 'e'.repeat(65) }, 'ide_name:too_big'],
    [{ ...ok, filename: 'f'.repeat(256) }, 'filename:too_big'],
    [{ ...ok, project_name: 'a\u0007b' }, 'project_name:control_character'],
    [{ ...ok, language: 'Type\nScript' }, 'language:control_character'],
    [{ ...ok, path: '/tmp/\u007f' }, 'path:control_character'],
  ])('rejects %j with %s', (item, expected) => {
    expect(codesOf(item)).toContain(expected);
  });

  it('names every problem of a bucket with a readable message', () => {
    expect(errorsOf({ ...ok, hour: 30 })).toEqual([{ path: 'hour', code: 'too_big', message: 'hour must be 0-23' }]);
  });

  it('accepts the edges of every range', () => {
    const edges = [
      { ...ok, time: 3600, hour: 0, lines: 0 },
      { ...ok, time: 0.001, hour: 23, lines: 10_000_000 },
      { ...ok, date: '2000-01-01' },
      { ...ok, date: daysFromToday(1) },
      { ...ok, language: 'x'.repeat(64), project_name: 'p'.repeat(200), ide_name: 'e'.repeat(64) },
    ];
    expect(validateBuckets(ideKind, edges, 'UTC').rejected).toEqual([]);
  });

  it('rejects content-bearing fields in any case, however the rest looks', () => {
    for (const field of ['content', 'Body', 'TEXT', 'diff', 'patch', 'clipboard', 'source', 'code', 'snippet']) {
      expect(codesOf({ ...ok, [field]: 'x' })).toEqual([`${field}:content_not_allowed`]);
    }
  });

  it('ignores unknown fields and reports their names once, sorted', () => {
    const batch = validateBuckets(ideKind, [{ ...ok, zeta: 1, user_id: 'someone' }, { ...ok, zeta: 2 }], 'UTC');
    expect(batch.ignoredFields).toEqual(['user_id', 'zeta']);
    expect(batch.accepted).toBe(2);
    expect(batch.groups).toEqual([{ date: ok.date, hour: ok.hour, language: ok.language, project: '', editor: '', ...NO_DIMENSIONS, millis: 120_000, lines: 0, ...NO_LINE_CHANGES }]);
  });

  it('treats null optional fields as absent', () => {
    const { groups } = validateBuckets(ideKind, [{ ...ok, project_name: null, ide_name: null, lines: null }], 'UTC');
    expect(groups[0]).toMatchObject({ project: '', editor: '', lines: 0 });
  });

  it('rejects items that are not objects', () => {
    const { rejected } = validateBuckets(ideKind, [null, 3, 'x', []], 'UTC');
    expect(rejected.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(rejected[0].errors[0].code).toBe('invalid_type');
  });

  it("fills an absent date and hour from the user's timezone", () => {
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC']) {
      const before = localDateHour(tz);
      const [row] = validateBuckets(ideKind, [{ language: 'Go', time: 5 }], tz).groups;
      const after = localDateHour(tz);
      expect([before, after]).toContainEqual({ date: row.date, hour: row.hour });
    }
  });
});

describe('local time', () => {
  it('reads the wall clock on both sides of UTC and across a DST change', () => {
    const at = new Date('2026-03-29T00:30:00Z'); // Europe/Berlin moves to CEST at 01:00 UTC
    expect(localDateHour('Europe/Berlin', at)).toEqual({ date: '2026-03-29', hour: 1 });
    expect(localDateHour('Europe/Berlin', new Date('2026-03-29T01:30:00Z'))).toEqual({ date: '2026-03-29', hour: 3 });
    expect(localDateHour('America/Los_Angeles', at)).toEqual({ date: '2026-03-28', hour: 17 });
    expect(localDateHour('Pacific/Kiritimati', at)).toEqual({ date: '2026-03-29', hour: 14 });
  });
});

describe('desktop bucket validation', () => {
  const base = { platform: 'Linux', time: 30, date: '2026-01-05', hour: 9, path: '/usr/bin/code', filename: 'code', program_name: 'Visual Studio Code' };

  it('requires every field of the contract, allowing empty strings where the OS knows nothing', () => {
    const { rejected } = validateBuckets(desktopKind, [{ platform: 'Linux', time: 30 }], 'UTC');
    expect(rejected[0].errors.map((e) => `${e.path}:${e.code}`).sort()).toEqual(
      ['date:required', 'filename:required', 'hour:required', 'path:required', 'program_name:required'].sort(),
    );
    expect(validateBuckets(desktopKind, [{ ...base, path: '', filename: '', program_name: '' }], 'UTC').rejected).toEqual([]);
  });

  it('names the application by program_name, else the basename of filename, else unknown', () => {
    const apps = validateBuckets(
      desktopKind,
      [base, { ...base, program_name: ' ', filename: 'C:\\Program Files\\Code\\Code.exe' }, { ...base, program_name: '', filename: '' }],
      'UTC',
    ).groups.map((r) => r.app);
    expect(apps).toEqual(['Visual Studio Code', 'Code.exe', 'unknown']);
  });
});

describe('grouping', () => {
  it('sums buckets with the same key and keeps different keys apart', () => {
    const { groups, accepted } = validateBuckets(
      ideKind,
      [
        { ...ok, time: 10, lines: 1, project_name: 'a', ide_name: 'vim' },
        { ...ok, time: 20, lines: 2, project_name: 'a', ide_name: 'vim' },
        { ...ok, time: 5, project_name: 'a', ide_name: 'emacs' },
        { ...ok, time: 7, project_name: 'b', ide_name: 'vim' },
        { ...ok, time: 1, hour: 11, project_name: 'a', ide_name: 'vim' },
      ],
      'UTC',
    );
    expect(accepted).toBe(5);
    expect(groups).toHaveLength(4);
    expect(groups[0]).toMatchObject({ project: 'a', editor: 'Vim', hour: 10, millis: 30_000, lines: 3 });
  });

  it('gives one row per distinct key, holding the sums of its buckets, whatever names, spellings of editors and dates repeat', () => {
    const name = (values: string[]) => fc.constantFrom(...values);
    const bucket = fc.record({
      language: name(['Go', 'Rust', 'a', 'ab']),
      project_name: name(['', 'a', 'b', 'ab']),
      ide_name: name(['vim', 'Vim', 'nvim', 'neovim', 'NeoVim', 'a', 'b']),
      date: name(['2026-01-05', '2026-01-06']),
      hour: fc.integer({ min: 0, max: 23 }),
      time: fc.integer({ min: 1, max: 3600 }),
      lines: fc.integer({ min: 0, max: 50 }),
    });
    fc.assert(
      fc.property(fc.array(bucket, { maxLength: 200 }), (items) => {
        const expected = new Map<string, IdeRow>();
        for (const b of items) {
          const editor = canonicalEditor(b.ide_name);
          const key = JSON.stringify([b.date, b.hour, b.language, b.project_name, editor]);
          const row = expected.get(key) ?? { date: b.date, hour: b.hour, language: b.language, project: b.project_name, editor, ...NO_DIMENSIONS, millis: 0, lines: 0, ...NO_LINE_CHANGES };
          row.millis += b.time * 1000;
          row.lines += b.lines;
          expected.set(key, row);
        }
        const { groups, accepted } = validateBuckets(ideKind, items, 'UTC');
        expect(accepted).toBe(items.length);
        expect(groups).toEqual([...expected.values()]);
      }),
    );
  });

  it('keeps fractional seconds exact as integer milliseconds', () => {
    const { groups } = validateBuckets(ideKind, Array.from({ length: 10 }, () => ({ ...ok, time: 0.1 })), 'UTC');
    expect(groups[0].millis).toBe(1000);
  });
});
