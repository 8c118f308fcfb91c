import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchClock, desktopRow, fastDesktopRow, fastIdeRow, ideRow } from '../../lib/ingest/fast-path';
import { NO_DIMENSIONS, NO_LINE_CHANGES } from '../../lib/ingest/rows';
import { desktopBucketSchema, ideBucketSchema, maxAcceptedDate } from '../../lib/ingest/schemas';
import { CONTENT_FIELDS } from '../../lib/activity';
import { DistinctHeartbeats } from '../../lib/wakatime/sending/distinct-heartbeats';
import { heartbeatKey, type Heartbeat } from '../../lib/wakatime/sending/heartbeat';
import { heartbeatSchema, quickHeartbeat, TextChecks } from '../../lib/wakatime/sending/heartbeat-input';

// The fast guards must never accept what the schema refuses, nor give another row than the
// schema's output gives; and they must accept ordinary buckets, or they would be pointless.

const tomorrow = maxAcceptedDate();
// One clock for every bucket, as for the buckets of one batch: the last valid date it remembers is tried on all of them.
const clock = new BatchClock('UTC');
const awkwardText = (max: number) =>
  fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.string({ minLength: max - 2, maxLength: max + 2 }),
    fc.constantFrom('', ' ', '  x  ', 'a\tb', 'a\u0000', '\u007f', 'é', 'x'.repeat(max), ` ${'x'.repeat(max)}`, 'TypeScript'),
  );
const anyValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.double(), fc.boolean(), fc.string({ maxLength: 5 }), fc.constant([]), fc.constant({}));
const seconds = fc.oneof(fc.constantFrom(0, -1, 0.001, 1, 3600, 3600.0001, 1e9), fc.double({ min: -10, max: 4000, noNaN: true }), anyValue);
const hour = fc.oneof(fc.integer({ min: -2, max: 25 }), fc.constantFrom(1.5, '3'), anyValue);
const date = fc.oneof(
  fc.constantFrom('2026-01-05', '2000-01-01', '1999-12-31', '2024-02-29', '2023-02-29', '2026-13-01', '2026-1-5', tomorrow, '2999-01-01', ''),
  fc.date({ min: new Date('1998-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  anyValue,
);
const lines = fc.oneof(fc.constantFrom(0, -1, 12.5, 10_000_000, 10_000_001), fc.integer(), anyValue);
const lineChanges = fc.oneof(fc.constantFrom(0, -1, 7, 12.5, -10_000_000, 10_000_000, 10_000_001, -10_000_001), fc.integer(), anyValue);
const category = fc.oneof(fc.constantFrom('coding', 'ai coding', 'AI Coding', ' debugging ', 'Debugging', 'typing', ''), anyValue);

/** Optional fields are sometimes absent altogether. */
function bucket(fields: Record<string, fc.Arbitrary<unknown>>, required: string[]) {
  const entries = Object.entries(fields).map(([k, arb]) => (required.includes(k) ? { [k]: arb } : { [k]: fc.option(arb, { nil: undefined }) }));
  return fc.record(Object.assign({}, ...entries) as Record<string, fc.Arbitrary<unknown>>).map((r) =>
    Object.fromEntries(Object.entries(r).filter(([k, v]) => v !== undefined || required.includes(k))),
  );
}

const awkwardIdeBuckets = bucket(
  {
    language: awkwardText(64),
    time: seconds,
    lines,
    date,
    hour,
    path: awkwardText(1024),
    project_name: awkwardText(200),
    ide_name: awkwardText(64),
    filename: awkwardText(255),
    category,
    machine: awkwardText(64),
    ai_agent: awkwardText(64),
    ai_lines: lineChanges,
    human_lines: lineChanges,
    extra: anyValue,
  },
  ['language', 'time'],
);
// Buckets a plugin sends: every field well-formed, optional ones sometimes absent. Half the IDE
// buckets tried are such: of the awkward ones, with every optional field of the sync route's
// dimensions, so few pass the guard that 5 000 of them can hold none.
const ordinaryIdeBuckets = bucket(
  {
    language: fc.constantFrom('Go', 'TypeScript', 'Rust'),
    time: fc.integer({ min: 1, max: 3600 }),
    lines: fc.integer({ min: 0, max: 500 }),
    date: fc.constantFrom('2026-01-05', '2024-02-29'),
    hour: fc.integer({ min: 0, max: 23 }),
    project_name: fc.constantFrom('codetally', ' api ', ''),
    ide_name: fc.constantFrom('vscode', 'nvim', 'Zed'),
    category,
    machine: fc.constantFrom('desk', 'work-laptop', ''),
    ai_agent: fc.constantFrom('Claude', 'Cursor', ''),
    ai_lines: lineChanges,
    human_lines: lineChanges,
  },
  ['language', 'time'],
);
const ideBuckets = fc.oneof(awkwardIdeBuckets, ordinaryIdeBuckets);
const desktopBuckets = bucket(
  { platform: awkwardText(64), time: seconds, date, hour, path: awkwardText(1024), filename: awkwardText(255), program_name: awkwardText(200) },
  ['platform', 'time', 'date', 'hour', 'path', 'filename', 'program_name'],
);

describe('fast bucket guards', () => {
  it.each([
    ['IDE', ideBuckets, fastIdeRow, ideBucketSchema, ideRow],
    ['desktop', desktopBuckets, fastDesktopRow, desktopBucketSchema, desktopRow],
  ] as const)('%s: whatever the guard accepts, the schema accepts, giving the same row', (_, buckets, guard, schema, toRow) => {
    let accepted = 0;
    fc.assert(
      fc.property(buckets, (b) => {
        const fast = guard(b, clock);
        if (fast === null) return;
        accepted++;
        const parsed = schema.safeParse(b);
        expect(parsed.success).toBe(true);
        expect(fast).toEqual((toRow as (input: unknown, clock: BatchClock) => unknown)(parsed.data, clock));
      }),
      { numRuns: 5000 },
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it('refuses a missing, empty or malformed date before and after it saw a valid one', () => {
    const fresh = new BatchClock('UTC');
    const desk = { platform: 'Linux', time: 30, hour: 9, path: '', filename: 'code', program_name: 'Code' };
    const refused = () => {
      for (const date of ['', '2026-01-5', '2999-01-01']) expect(fastIdeRow({ language: 'Go', time: 1, date }, fresh)).toBeNull();
      for (const date of [undefined, null, '', '2026-01-5', '2999-01-01']) expect(fastDesktopRow({ ...desk, date }, fresh)).toBeNull();
    };
    refused();
    expect(fastDesktopRow({ ...desk, date: '2026-01-05' }, fresh)).not.toBeNull();
    refused();
  });

  it('accepts the ordinary buckets plugins send', () => {
    const ide = { language: 'TypeScript', time: 42.5, lines: 10, date: '2026-01-05', hour: 9, project_name: ' codetally ', ide_name: 'vscode', filename: 'a.ts', path: '/src/a.ts' };
    expect(fastIdeRow(ide, clock)).toEqual({ date: '2026-01-05', hour: 9, language: 'TypeScript', project: 'codetally', editor: 'VS Code', ...NO_DIMENSIONS, millis: 42_500, lines: 10, ...NO_LINE_CHANGES });
    const ai = { ...ide, category: 'ai coding', machine: 'work-laptop', ai_agent: 'Claude', ai_lines: 40, human_lines: -3 };
    expect(fastIdeRow(ai, clock)).toMatchObject({ category: 'ai coding', machine: 'work-laptop', os: '', agent: 'Claude', aiAdditions: 40, aiDeletions: 0, humanAdditions: 0, humanDeletions: 3 });
    expect(fastIdeRow({ language: 'Go', time: 1 }, clock)).toEqual(ideRow(ideBucketSchema.parse({ language: 'Go', time: 1 }), clock));
    const desk = { platform: 'Linux', time: 30, date: '2026-01-05', hour: 9, path: '', filename: 'code', program_name: 'Code' };
    expect(fastDesktopRow(desk, clock)).toEqual({ date: '2026-01-05', hour: 9, platform: 'Linux', app: 'Code', millis: 30_000 });
  });
});

describe('the fast guard of heartbeats', () => {
  const fields = [
    'entity', 'type', 'time', 'category', 'project', 'alternate_project', 'language', 'user_agent', 'plugin',
    'ai_line_changes', 'human_line_changes', 'ai_session', 'ai_input_tokens', 'ai_output_tokens', 'ai_prompt_length',
  ] as const;
  const count = (max: number) => fc.oneof(fc.constantFrom(0, -1, 1.5, max, max + 1, 1e12), fc.integer(), anyValue);
  // Each field is usually one a client sends and now and then an awkward one: with every field
  // awkward, hardly one heartbeat in a thousand passes, and the comparison would go untried.
  const mostly = (good: fc.Arbitrary<unknown>, awkward: fc.Arbitrary<unknown>) =>
    fc.oneof({ arbitrary: good, weight: 9 }, { arbitrary: awkward, weight: 1 });
  const plainText = (max: number) => fc.string({ minLength: 1, maxLength: Math.min(max, 40) });
  const beats = bucket(
    {
      entity: mostly(plainText(4096), awkwardText(4096)),
      type: mostly(fc.constantFrom('file', 'app', 'domain', 'url', 'event'), fc.oneof(fc.constantFrom('File', ''), anyValue)),
      time: mostly(
        fc.oneof(fc.double({ min: 1e9, max: 2e9, noNaN: true }), fc.constantFrom('1700000000.123', '1700000000')),
        fc.oneof(fc.constantFrom(0, -1, Infinity, NaN, ' 1', '1e9', '-1', '1.', '.5', '0x10'), fc.double(), anyValue),
      ),
      category: mostly(fc.constantFrom('coding', 'ai coding', ' debugging '), awkwardText(64)),
      project: mostly(plainText(255), awkwardText(255)),
      alternate_project: mostly(plainText(255), awkwardText(255)),
      language: mostly(fc.constantFrom('TypeScript', 'Go', ' Rust '), awkwardText(64)),
      user_agent: mostly(fc.constantFrom('wakatime/v1.98.0 (linux) go1.22 vscode/1.95.0 vscode-wakatime/25.0.0'), awkwardText(512)),
      plugin: mostly(plainText(512), awkwardText(512)),
      branch: anyValue,
      ai_line_changes: mostly(fc.integer({ min: -1000, max: 1000 }), lineChanges),
      human_line_changes: mostly(fc.integer({ min: -1000, max: 1000 }), lineChanges),
      ai_session: mostly(plainText(255), fc.oneof(awkwardText(255), anyValue)),
      ai_input_tokens: mostly(fc.nat({ max: 1_000_000 }), count(100_000_000)),
      ai_output_tokens: mostly(fc.nat({ max: 1_000_000 }), count(100_000_000)),
      ai_prompt_length: mostly(fc.nat({ max: 100_000 }), count(10_000_000)),
    },
    ['entity', 'time'],
  );

  // One set of remembered checks for every heartbeat, as for the heartbeats of one request.
  const checks = new TextChecks();

  it.each([
    ['checking each string', undefined],
    ['remembering the strings that passed', checks],
  ])('never accepts what the schema refuses, nor reads a heartbeat otherwise (%s)', (_, remembered) => {
    let accepted = 0;
    fc.assert(
      fc.property(beats, (b) => {
        const quick = quickHeartbeat(b, remembered);
        if (quick === null) return;
        accepted++;
        const parsed = heartbeatSchema.safeParse(b);
        expect(parsed.success).toBe(true);
        const pick = (h: Record<string, unknown>) => Object.fromEntries(fields.map((f) => [f, h[f] ?? null]));
        expect(pick(quick)).toEqual(pick(parsed.data!));
      }),
      { numRuns: 5000 },
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it('remembers a string as passing only the rule it passed', () => {
    const fresh = new TextChecks();
    // Invisible characters may be in an entity (a path), never in a name.
    expect(quickHeartbeat({ entity: 'a\u200b', time: 1 }, fresh)).not.toBeNull();
    expect(quickHeartbeat({ entity: 'a', time: 1, project: 'a\u200b' }, fresh)).toBeNull();
    expect(quickHeartbeat({ entity: 'a\u0000', time: 1 }, fresh)).toBeNull();
    expect(quickHeartbeat({ entity: 'a\u0000', time: 1 }, fresh)).toBeNull();
  });

  it('skips no content field when it skips the names the schema knows', () => {
    for (const field of Object.keys(heartbeatSchema.shape)) expect(CONTENT_FIELDS.has(field.toLowerCase())).toBe(false);
  });

  it('accepts the heartbeats wakatime-cli sends', () => {
    const beat = { entity: '/home/me/src/app.ts', type: 'file', time: 1_700_000_000.5, category: 'coding', project: ' app ', language: 'TypeScript', is_write: true, lines: 10, dependencies: ['x'] };
    expect(quickHeartbeat(beat)).toEqual({ entity: beat.entity, type: 'file', time: beat.time, category: 'coding', project: 'app', alternate_project: undefined, language: 'TypeScript', user_agent: undefined, plugin: undefined });
  });

  it('accepts the time as a numeric string, as WakaTime\'s browser extension sends it', () => {
    expect(quickHeartbeat({ entity: 'github.com', type: 'domain', time: '1717000000.123' })?.time).toBe(1_717_000_000.123);
    expect(heartbeatSchema.safeParse({ entity: 'github.com', time: '1717000000.123' }).data?.time).toBe(1_717_000_000.123);
    for (const time of ['', '1e9', 'soon', '1717000000,5']) expect(heartbeatSchema.safeParse({ entity: 'x', time }).error?.issues[0].message).toMatch(/time must be a number/);
  });
});

describe('a heartbeat\'s id', () => {
  it('is the time in milliseconds, the type and the digest in hexadecimal, as String() and toString(16) write them', () => {
    const epochMs = fc.oneof(fc.integer({ min: 0, max: 2 ** 42 }), fc.constantFrom(0, 999, 1000, 1001, 1_762_000_000_000, 1_762_000_000_009, 1_762_000_000_090, 2 ** 31 * 1000 + 7));
    fc.assert(
      fc.property(epochMs, fc.integer({ min: 0, max: 2 ** 52 - 1 }), fc.constantFrom('file', 'app'), (at, digest, type) => {
        expect(heartbeatKey({ at, type, digest })).toBe(`${String(at)}-${type}-${digest.toString(16)}`);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('distinct heartbeats', () => {
  it('keep what a map by heartbeat key keeps, in the same order: each key where it first came, holding its last heartbeat', () => {
    // Few times, types and entities, so that keys repeat and times are shared by other keys.
    const beat = fc.record({ at: fc.integer({ min: 0, max: 3 }).map((t) => 1_762_000_000_000 + t), type: fc.constantFrom('file', 'app'), digest: fc.integer({ min: 0, max: 2 }), language: fc.string({ maxLength: 2 }) });
    // Often a run in order of time first (taken without lookups), then anything.
    const inOrder = fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { maxLength: 4 }).chain((times) =>
      fc.tuple(...times.sort().map((t) => beat.map((b) => ({ ...b, at: 1_762_000_000_000 + t })))),
    );
    fc.assert(
      fc.property(inOrder, fc.array(beat, { maxLength: 30 }), (run, rest) => {
        const beats = [...run, ...rest];
        const distinct = new DistinctHeartbeats();
        const byKey = new Map<string, Heartbeat>();
        for (const b of beats) {
          const h = { ...b, category: 'coding', project: '', editor: 'vim', os: 'Linux', app: '' } as Heartbeat;
          distinct.add(h);
          byKey.set(heartbeatKey(h), h);
        }
        expect(distinct.list).toEqual([...byKey.values()]);
        expect(distinct.size).toBe(byKey.size);
      }),
      { numRuns: 1000 },
    );
  });
});

