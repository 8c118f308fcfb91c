import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DumpError, DumpReader, MAX_KEY_BYTES } from '../../lib/wakatime/importing/dump';
import { DumpOrigins, MAX_DUMP_USER_AGENTS } from '../../lib/wakatime/importing/dump-origins';
import { checkHeartbeat, type CheckContext } from '../../lib/wakatime/sending/heartbeat-check';

// The reader of WakaTime data dumps holds the chunk it reads and the heartbeat it cuts out, never
// more: hostile documents (deep nesting, endless keys, strings, numbers or whitespace) are refused
// or skipped in bounded memory, and documents that are not dumps say so.

const MiB = 1024 * 1024;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** The memory in use now (the heap and buffers), after a full collection. */
function heapUsed(): number {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/**
 * Streams `head`, then `chunks` chunks of 1 MiB of `fill`, then `tail` through a reader, checking
 * every 8 chunks that the heap grew by less than `maxGrowth`. Returns the heartbeats read, or
 * the reader's error, and the time it took.
 */
function stream(head: string, fill: string, chunks: number, tail: string, maxGrowth = 8 * MiB) {
  const reader = new DumpReader();
  const body = Buffer.alloc(MiB, fill);
  const start = heapUsed();
  const t0 = performance.now();
  const heartbeats: unknown[] = [];
  try {
    heartbeats.push(...reader.push(Buffer.from(head)));
    for (let i = 0; i < chunks; i++) {
      heartbeats.push(...reader.push(body));
      if (i % 8 === 0) expect(heapUsed() - start, `heap growth after ${i + 1} MiB`).toBeLessThan(maxGrowth);
    }
    heartbeats.push(...reader.push(Buffer.from(tail)));
    reader.end();
    return { heartbeats, error: null, ms: performance.now() - t0 };
  } catch (err) {
    if (!(err instanceof DumpError)) throw err;
    return { heartbeats, error: err, ms: performance.now() - t0 };
  }
}

/** Reads a whole document in chunks of `size` bytes. */
function read(doc: string | Buffer, size = 7): unknown[] {
  const reader = new DumpReader();
  const bytes = Buffer.from(doc);
  const out: unknown[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...reader.push(bytes.subarray(i, i + size)));
  reader.end();
  return out;
}

const errorOf = (doc: string | Buffer, size?: number) => {
  try {
    read(doc, size);
  } catch (err) {
    if (err instanceof DumpError) return err.message;
    throw err;
  }
  return null;
};

describe('the data dump reader', () => {
  it('reads the heartbeats of a dump, and of a bare array of heartbeats, whatever the chunks', () => {
    const heartbeats = [{ entity: 'a.go', time: 1, type: 'file' }, { entity: 'b "quoted" \\ \u00e9', time: 2, nested: { deps: [[1], { x: ']' }] } }];
    const dump = JSON.stringify({ user: { id: 'u', extra: [[{ days: [] }]] }, range: { start: 0 }, days: [{ date: '2024-01-01', heartbeats: heartbeats.slice(0, 1) }, { date: '2024-01-02', grand_total: {}, heartbeats: heartbeats.slice(1) }] });
    for (const size of [1, 2, 5, 64, 1 << 20]) {
      expect(read(dump, size)).toEqual(heartbeats);
      expect(read(JSON.stringify(heartbeats), size)).toEqual(heartbeats);
    }
    expect(read(`\ufeff ${dump}\n`)).toEqual(heartbeats);
  });

  it('refuses 50 MB of nested brackets at once, in bounded memory, naming the byte', () => {
    // The document that killed the server: {"x": and then brackets, in a value nobody reads.
    const skipped = stream('{"x":', '[', 50, '');
    expect(skipped.error?.message).toMatch(/nest(ed|s) deeper than \d+ levels.*\(at byte \d+\)/);
    expect(Number(skipped.error?.message.match(/at byte (\d+)/)![1])).toBeLessThan(100);
    expect(skipped.ms).toBeLessThan(2_000);
    // The same in the heartbeats, and in one heartbeat.
    expect(stream('{"days":[{"heartbeats":[{"a":', '[', 50, '').error?.message).toMatch(/nest(ed|s) deeper/);
    expect(stream('[{"a":', '[', 50, '').error?.message).toMatch(/nest(ed|s) deeper/);
    expect(stream('', '[', 50, '').error?.message).toMatch(/^Not a WakaTime data dump: the array holds an array/);
    // What WakaTime itself nests is well within the bound.
    const deep = { days: [{ heartbeats: [{ entity: 'a', time: 1, x: [[[[{ y: [[{}]] }]]]] }] }], user: { a: { b: { c: [[[[{}]]]] } } } };
    expect(read(JSON.stringify(deep))).toHaveLength(1);
  });

  it('takes a key of up to MAX_KEY_BYTES bytes and refuses a longer one, wherever the chunks split it', () => {
    for (const [head, tail] of [['{"', '":1,"days":[]}'], ['{"days":[{"', '":1,"heartbeats":[]}]}']]) {
      for (const [length, expected] of [[MAX_KEY_BYTES, null], [MAX_KEY_BYTES + 1, expect.stringMatching(/key longer than 256 bytes.*\(at byte \d+\)/)]] as const) {
        const doc = Buffer.from(`${head}${'k'.repeat(length)}${tail}`);
        for (let split = 1; split < doc.length; split++) {
          const reader = new DumpReader();
          let error: string | null = null;
          try {
            reader.push(doc.subarray(0, split));
            reader.push(doc.subarray(split));
            reader.end();
          } catch (err) {
            if (!(err instanceof DumpError)) throw err;
            error = err.message;
          }
          expect([head, length, split, error]).toEqual([head, length, split, expected]);
        }
      }
    }
  });

  it('refuses a key longer than a dump has instead of buffering it', () => {
    for (const head of ['{"', '{"days":[{"']) {
      const long = stream(head, 'k', 50, '":1}');
      expect(long.error?.message).toMatch(/key longer than \d+ bytes.*\(at byte \d+\)/);
      expect(long.ms).toBeLessThan(2_000);
    }
  });

  it('skips long strings, numbers and whitespace in bounded memory', () => {
    const tail = ',"days":[{"heartbeats":[{"entity":"a.go","time":1}]}]}';
    expect(stream('{"user":"', 'x', 24, `"${tail}`).heartbeats).toEqual([{ entity: 'a.go', time: 1 }]);
    expect(stream('{"user":["', '\\', 24, `"]${tail}`).heartbeats).toEqual([{ entity: 'a.go', time: 1 }]);
    expect(stream('{"range":1', '0', 24, tail).heartbeats).toEqual([{ entity: 'a.go', time: 1 }]);
    expect(stream('{"range":', ' ', 24, `1${tail}`).heartbeats).toEqual([{ entity: 'a.go', time: 1 }]);
    expect(stream('{"range":[', '1,', 24, `1]${tail}`).heartbeats).toEqual([{ entity: 'a.go', time: 1 }]);
    // One heartbeat is held whole, up to its bound.
    expect(stream('[{"entity":"', 'x', 4, '"}]').error?.message).toMatch(/heartbeat is larger than/);
  });

  it('says a document that is not a data dump is not one', () => {
    for (const doc of ['{"hello":"world"}', '{}', '[1,2,3]', '["a"]', '[[]]', '[null]', '{"days":{}}', '{"days":"x"}', '{"days":[1]}', '{"days":[[]]}', '{"days":[{"heartbeats":{}}]}', '{"days":[{"heartbeats":[1]}]}', '3', '"x"', 'null']) {
      expect([doc, errorOf(doc)]).toEqual([doc, expect.stringMatching(/^Not a WakaTime data dump/)]);
    }
    // Empty dumps are dumps: a new account's export.
    expect(read('{"user":{},"days":[]}')).toEqual([]);
    expect(read('[]')).toEqual([]);
    expect(read('{"days":[{"date":"2024-01-01","heartbeats":[]}]}')).toEqual([]);
  });

  it('says where a broken document breaks', () => {
    expect(errorOf('{"days":[{"heartbeats":[{"time":1}]}')).toMatch(/ends before/);
    expect(errorOf('{"days":[]} {}')).toMatch(/after the end/);
    expect(errorOf('{"days":[}')).toMatch(/does not match/);
    expect(errorOf('{"user":[1}, "days":[]}')).toMatch(/does not match/);
    expect(errorOf('{"days":[{"heartbeats":[{"time":}]}]}')).toMatch(/not valid JSON.*at byte 24/);
    expect(errorOf('')).toMatch(/empty/);
    // Keys that are not JSON strings: a bad escape, a raw control character.
    expect(errorOf('{"d\\qys":[]}')).toMatch(/^a key is not a valid JSON string: .*\(at byte 1\)$/);
    expect(errorOf(Buffer.from('{"days":[{"heart\u0001beats":[]}]}'))).toMatch(/^a key is not a valid JSON string: .*\(at byte 10\)$/);
  });

  it('takes "days": null and "heartbeats": null as none, and refuses any other value there', () => {
    expect(read('{"user":{},"days":null}')).toEqual([]);
    expect(read('{"days":[{"date":"2024-01-01","heartbeats":null},{"date":"2024-01-02","heartbeats":[{"time":1}]}]}', 3)).toEqual([{ time: 1 }]);
    for (const value of ['{}', '"x"', '1', 'true', 'false']) {
      expect(errorOf(`{"days":${value}}`)).toMatch(/^Not a WakaTime data dump: "days" is /);
      expect(errorOf(`{"days":[{"heartbeats":${value}}]}`)).toMatch(/^Not a WakaTime data dump: "heartbeats" of a day is /);
    }
  });

  it('never throws anything but a DumpError, and reads every dump JSON.stringify writes', () => {
    const value = fc.letrec((tie) => ({
      any: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), fc.array(tie('any'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('days', 'heartbeats', 'x', 'date'), tie('any'), { maxKeys: 3 })),
    })).any;
    /** Reads `doc`: it may fail, but only with a DumpError. */
    const readsOrRefuses = (doc: Buffer, size: number) => {
      try {
        read(doc, size);
      } catch (err) {
        expect(err).toBeInstanceOf(DumpError);
      }
    };
    fc.assert(
      fc.property(value, fc.integer({ min: 1, max: 16 }), fc.nat(), fc.constantFrom(0x5c, 0x22, 0x01), (v, size, at, byte) => {
        const doc = Buffer.from(JSON.stringify(v) ?? '');
        readsOrRefuses(doc, size);
        // Cut anywhere, or with a byte changed (a backslash, a quote, a control character), it
        // still fails only with a DumpError.
        readsOrRefuses(doc.subarray(0, at % (doc.length + 1)), size);
        const changed = Buffer.from(doc);
        if (changed.length > 0) changed[at % changed.length] = byte;
        readsOrRefuses(changed, size);
      }),
      { numRuns: 1000 },
    );
    const heartbeats = fc.array(fc.record({ entity: fc.string(), time: fc.double({ noNaN: true, noDefaultInfinity: true }), deps: fc.jsonValue({ maxDepth: 3 }) }), { maxLength: 4 });
    fc.assert(
      fc.property(fc.array(heartbeats, { maxLength: 3 }), fc.integer({ min: 1, max: 16 }), (days, size) => {
        const dump = { user: { x: [1] }, days: days.map((hs, i) => ({ date: `2024-01-0${i + 1}`, heartbeats: hs })) };
        expect(read(JSON.stringify(dump), size)).toEqual(JSON.parse(JSON.stringify(days.flat())));
      }),
      { numRuns: 200 },
    );
  });
});

describe("the dump's lists of User-Agents and machine names", () => {
  const agents = [
    { id: 'ua-1', value: 'wakatime/v1.90.0 (linux-6.8.0-x86_64) go1.22.1 neovim/0.9.5 vim-wakatime/11.1.1', editor: 'Neovim', os: 'Linux' },
    { id: 'ua-2', value: 'something else', editor: 'vscode', os: 'Mac' },
  ];
  const machines = [{ id: 'm-1', name: 'ada-desk', value: 'ada-desk.local' }];
  const heartbeats = [{ entity: 'a.go', time: 1, user_agent_id: 'ua-1', machine_name_id: 'm-1' }];
  /** Reads `doc` in chunks of `size` bytes; returns the heartbeats, the User-Agent entries and the machine names. */
  function both(doc: string, size: number, heartbeats = true) {
    const entries: unknown[] = [];
    const machineEntries: unknown[] = [];
    const reader = new DumpReader({ heartbeats, onUserAgent: (e) => entries.push(e), onMachineName: (e) => machineEntries.push(e) });
    const bytes = Buffer.from(doc);
    const out: unknown[] = [];
    for (let i = 0; i < bytes.length; i += size) out.push(...reader.push(bytes.subarray(i, i + size)));
    return { out, entries, machineEntries, read: reader.originsRead, reader };
  }

  it('is read before or after the days, whatever the chunks, and alone by a reader of that list', () => {
    const before = JSON.stringify({ user_agents: agents, machine_names: machines, days: [{ date: '2024-01-01', heartbeats }] });
    const after = JSON.stringify({ user: {}, days: [{ date: '2024-01-01', heartbeats }], machine_names: machines, user_agents: agents });
    for (const doc of [before, after]) {
      for (const size of [1, 3, 64, 1 << 20]) {
        const read = both(doc, size);
        read.reader.end();
        expect(read).toMatchObject({ out: heartbeats, entries: agents, machineEntries: machines, read: true });
        // The first pass of an import: no heartbeat is cut out, the lists are.
        expect(both(doc, size, false)).toMatchObject({ out: [], entries: agents, machineEntries: machines, read: true });
      }
    }
    // A reader of the list alone knows at once that a bare array of heartbeats has none.
    expect(both(JSON.stringify(heartbeats), 1, false)).toMatchObject({ out: [], entries: [], read: true });
    expect(both(JSON.stringify({ days: [] }), 4, false)).toMatchObject({ entries: [], read: false });
    // One list read is not both: the pass goes on for the other.
    expect(both(JSON.stringify({ user_agents: agents, days: [] }), 4, false)).toMatchObject({ entries: agents, read: false });
  });

  it('is an array of objects, or null', () => {
    expect(both('{"user_agents":null,"days":[]}', 2)).toMatchObject({ entries: [] });
    expect(errorOf('{"user_agents":{},"days":[]}')).toMatch(/^Not a WakaTime data dump: "user_agents" is an object/);
    expect(errorOf('{"user_agents":[1],"days":[]}')).toMatch(/^Not a WakaTime data dump: an entry of "user_agents" is a number/);
    expect(errorOf('{"machine_names":"x","days":[]}')).toMatch(/^Not a WakaTime data dump: "machine_names" is a string/);
    expect(errorOf('{"machine_names":[true],"days":[]}')).toMatch(/^Not a WakaTime data dump: an entry of "machine_names" is /);
  });
});

describe('the origin of an imported heartbeat', () => {
  it("comes from its User-Agent in the dump's list, read as the heartbeat routes read one, with canonical names", () => {
    const origins = new DumpOrigins();
    origins.add({ id: 'ua-1', value: 'wakatime/v1.90.0 (linux-6.8.0-x86_64) go1.22.1 neovim/0.9.5 vim-wakatime/11.1.1', editor: 'Vim', os: 'Linux' });
    origins.add({ id: 'ua-2', value: 'not a user agent', editor: 'vscode', os: 'Mac' });
    origins.add({ id: 'ua-3', value: null, editor: 'sublime', os: 'Windows' });
    origins.add({ id: 'ua-4', editor: 'bad\u0000name', os: 3 });
    origins.add('not an entry');
    origins.add({ id: 7, value: 'x' });
    expect(origins.of({ user_agent_id: 'ua-1' })).toEqual({ editor: 'Neovim', os: 'Linux', agent: '' });
    // The parser finds nothing in it: the dump's own editor and system, the editor's name canonical.
    expect(origins.of({ user_agent_id: 'ua-2' })).toEqual({ editor: 'VS Code', os: 'Mac', agent: '' });
    expect(origins.of({ user_agent_id: 'ua-3' })).toEqual({ editor: 'Sublime Text', os: 'Windows', agent: '' });
    expect(origins.of({ user_agent_id: 'ua-4' })).toBeUndefined();
    expect(origins.of({ user_agent_id: 'unknown' })).toBeUndefined();
    expect(origins.of({})).toBeUndefined();
    // An older dump's editor and system on the heartbeat itself.
    expect(origins.of({ editor: 'nvim', operating_system: 'Linux' })).toEqual({ editor: 'Neovim', os: 'Linux', agent: '' });
    expect(origins.of({ editor: 'emacs', user_agent_id: 'ua-3' })).toEqual({ editor: 'Emacs', os: 'Windows', agent: '' });
  });

  it('is looked up only for a heartbeat without a user_agent of its own, and by the same checks as every heartbeat', () => {
    const origins = new DumpOrigins();
    origins.add({ id: 'ua-1', value: 'wakatime/v1.90.0 (darwin-23.4.0-arm64) go1.22.1 zed/0.150.0 zed-wakatime/0.1.0' });
    const ctx: CheckContext = { key: 'k', userAgent: null, earliest: 0, latest: Infinity, tooOld: 'old', digests: new Map(), origins: new Map(), dump: origins };
    const base = { entity: 'a.go', time: 1_700_000_000 };
    expect(checkHeartbeat({ ...base, user_agent_id: 'ua-1' }, ctx)).toMatchObject({ editor: 'Zed', os: 'Mac' });
    expect(checkHeartbeat({ ...base, user_agent_id: 'ua-1', user_agent: 'wakatime/1 (linux-6) go1 emacs/29 emacs-wakatime/1.0' }, ctx)).toMatchObject({ editor: 'Emacs', os: 'Linux' });
    expect(checkHeartbeat({ ...base, user_agent_id: 'nope' }, ctx)).toMatchObject({ editor: '', os: 'Unknown' });
  });

  it("names its machine by machine_name_id from the list first given, a plain name only; a hostname of its own comes first", () => {
    const origins = new DumpOrigins();
    origins.addMachine({ id: 'm-1', name: 'ada-desk', value: 'ada-desk.local' });
    origins.addMachine({ id: 'm-1', name: 'later' });
    origins.addMachine({ id: 'm-2', value: 'build-box' });
    origins.addMachine({ id: 'm-3', name: 'bad\u0000name' });
    origins.addMachine({ id: 4, name: 'x' });
    const ctx: CheckContext = { key: 'k', userAgent: null, earliest: 0, latest: Infinity, tooOld: 'old', digests: new Map(), origins: new Map(), dump: origins };
    const base = { entity: 'a.go', time: 1_700_000_000 };
    expect(checkHeartbeat({ ...base, machine_name_id: 'm-1' }, ctx)).toMatchObject({ machine: 'ada-desk' });
    expect(checkHeartbeat({ ...base, machine_name_id: 'm-2' }, ctx)).toMatchObject({ machine: 'build-box' });
    expect(checkHeartbeat({ ...base, machine_name_id: 'm-3' }, ctx)).toMatchObject({ machine: '' });
    expect(checkHeartbeat({ ...base, machine_name_id: 'nope' }, ctx)).toMatchObject({ machine: '' });
    expect(checkHeartbeat({ ...base, machine_name_id: 'm-1', hostname: 'own' }, ctx)).toMatchObject({ machine: 'own' });
  });

  it('keeps at most MAX_DUMP_USER_AGENTS User-Agents', () => {
    const origins = new DumpOrigins();
    for (let i = 0; i < MAX_DUMP_USER_AGENTS + 50; i++) origins.add({ id: `ua-${i}`, editor: 'vim' });
    expect(origins.size).toBe(MAX_DUMP_USER_AGENTS);
    expect(origins.of({ user_agent_id: `ua-${MAX_DUMP_USER_AGENTS + 1}` })).toBeUndefined();
  });
});

describe('the digests an import remembers', () => {
  it('hold a few megabytes of entity names, however many long ones a dump has', () => {
    const ctx: CheckContext = { key: 'k', userAgent: null, earliest: 0, latest: Infinity, tooOld: '', digests: new Map(), origins: new Map() };
    const long = (i: number) => `/${String(i).padStart(8, '0')}/${'x'.repeat(4086)}`;
    for (let i = 0; i < 3000; i++) {
      const h = checkHeartbeat({ entity: long(i), type: i % 2 ? 'file' : 'url', time: 1_700_000_000 + i }, ctx);
      expect(typeof h).toBe('object');
    }
    const remembered = [...ctx.digests.values()].reduce((sum, m) => sum + [...m.keys()].reduce((s, e) => s + e.length, 0), 0);
    expect(remembered).toBeGreaterThan(0);
    expect(remembered).toBeLessThanOrEqual(4_000_000);
    // Still the same digest for the same entity, remembered or not.
    const again = checkHeartbeat({ entity: long(0), type: 'url', time: 1_700_000_000 }, ctx);
    const fresh = checkHeartbeat({ entity: long(0), type: 'url', time: 1_700_000_000 }, { ...ctx, digests: new Map() });
    expect(again).toEqual(fresh);
  });

  it('hold a few megabytes however many short ones a dump has: each entry costs more than its characters', () => {
    const ctx: CheckContext = { key: 'k', userAgent: null, earliest: 0, latest: Infinity, tooOld: '', digests: new Map(), origins: new Map() };
    for (let i = 0; i < 100_000; i++) checkHeartbeat({ entity: `f${i}`, type: 'file', time: 1_700_000_000 + i }, ctx);
    const entries = [...ctx.digests.values()].reduce((sum, m) => sum + m.size, 0);
    const chars = [...ctx.digests.values()].reduce((sum, m) => sum + [...m.keys()].reduce((s, e) => s + e.length, 0), 0);
    expect(entries).toBeGreaterThan(0);
    // Each entry is charged its characters and 64 (a map entry, its number, a string's header).
    expect(chars + 64 * entries).toBeLessThanOrEqual(4_000_000);
  });
});
