// Reads a WakaTime data dump (`{"user": ..., "range": ..., "days": [{"date", "heartbeats": [...]}]}`,
// or a bare array of heartbeats) as it streams in, one heartbeat object at a time: memory holds
// the chunk being read and the heartbeat being cut out, never the document. Only the structure
// around the heartbeats is followed; each heartbeat object is cut out byte for byte and parsed on
// its own (JSON.parse checks it), everything else is skipped. Whatever an upload holds, what is
// kept besides the chunk is bounded: at most four containers on the way to the heartbeats, a
// depth counter (and a bit per level) for a skipped value, a key up to MAX_KEY_BYTES, a heartbeat
// up to MAX_HEARTBEAT_BYTES; strings, numbers and whitespace are stepped over, never gathered.
//
// A dump may also list the User-Agents its heartbeats name by `user_agent_id` (`"user_agents":
// [{"id", "value", "editor", "os"}]`, at the top level, before or after "days"): each entry is cut
// out and parsed like a heartbeat and handed to `onUserAgent`; so are the machines its heartbeats
// name by `machine_name_id` (`"machine_names": [{"id", "name", "value"}]`, to `onMachineName`). A
// reader made with `{ heartbeats: false }` skips the days and reads only those lists
// (lib/wakatime/importing/dump-origins.ts).

import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../../json-syntax';

/** Why a dump cannot be read, with where (bytes from its start). */
export class DumpError extends Error {}

/** The largest one heartbeat may be (its entity is at most 4 KiB; dependencies can be long). */
export const MAX_HEARTBEAT_BYTES = 1024 * 1024;
/**
 * The deepest nesting read. A dump's heartbeats sit five levels down (the dump, "days", a day,
 * "heartbeats", the heartbeat) and nest a few more; without a bound, brackets in a skipped value
 * were followed one frame each until the heap gave out.
 */
export const MAX_DEPTH = 32;
/** The longest key read where keys matter (the dump's and its days': "days", "heartbeats", ...). */
export const MAX_KEY_BYTES = 256;

const NOT_A_DUMP = 'Not a WakaTime data dump';

const enum Role {
  /** A value nobody needs: followed only to find where it ends. */
  Skip,
  Root,
  Days,
  Day,
  Heartbeats,
  /** The dump's "user_agents" array. */
  UserAgents,
  /** The dump's "machine_names" array. */
  MachineNames,
}

/** The dump's lists that name what its heartbeats name by id, and what each holds. */
const lists = { [Role.UserAgents]: { key: 'user_agents', what: 'User-Agents' }, [Role.MachineNames]: { key: 'machine_names', what: 'machine names' } } as const;
type ListRole = keyof typeof lists;
const isList = (role: Role): role is ListRole => role === Role.UserAgents || role === Role.MachineNames;

/** A container on the way to the heartbeats (the dump, "days", a day, "heartbeats"). */
interface Frame {
  object: boolean;
  role: Role;
  /** In an object: the next string is a key. */
  expectKey: boolean;
  /** In an object: the role the current key gives its value. */
  valueRole: Role;
}

/** The first byte of `null`. */
const NULL = 0x6e;

/** Where the string that opens at `start` ends (its closing quote), or -1 when not within `buf`. */
function stringEnd(buf: Buffer, start: number): number {
  for (let q = buf.indexOf(QUOTE, start + 1); q >= 0; q = buf.indexOf(QUOTE, q + 1)) {
    let backslashes = 0;
    while (q - 1 - backslashes > start && buf[q - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return -1;
}

/** What a key names inside a container of a role (`days`: whether the days are read). */
function roleOfKey(role: Role, key: string, days: boolean): Role {
  if (role === Role.Root && key === 'days') return days ? Role.Days : Role.Skip;
  if (role === Role.Root && key === lists[Role.UserAgents].key) return Role.UserAgents;
  if (role === Role.Root && key === lists[Role.MachineNames].key) return Role.MachineNames;
  if (role === Role.Day && key === 'heartbeats') return Role.Heartbeats;
  return Role.Skip;
}

/** JSON's whitespace. */
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Whether `b` starts with a UTF-8 byte order mark (some editors save one): not part of the document. */
const byteOrderMark = (b: Uint8Array) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

/** What a value starting with byte `c` is, in words. */
function kindOf(c: number): string {
  if (c === OPEN_OBJECT) return 'an object';
  if (c === OPEN_ARRAY) return 'an array';
  if (c === QUOTE) return 'a string';
  if (c === 0x74 || c === 0x66) return 'true or false';
  if (c === NULL) return 'null';
  return (c >= 0x30 && c <= 0x39) || c === 0x2d ? 'a number' : 'not JSON';
}

/**
 * Whether a document starting with `head` may be a data dump (an object or an array): null when
 * it may, why not when it cannot, undefined when `head` holds nothing but a byte order mark and
 * whitespace (the upload's first bytes are judged so, before the whole document is read).
 */
export function dumpStartProblem(head: Uint8Array): string | null | undefined {
  let i = byteOrderMark(head) ? 3 : 0;
  while (i < head.length && isSpace(head[i])) i++;
  if (i === head.length) return undefined;
  const c = head[i];
  return c === OPEN_OBJECT || c === OPEN_ARRAY ? null : `${NOT_A_DUMP}: the document is ${kindOf(c)}, where a data dump is a JSON object with "days"`;
}

/** What a reader reads besides the heartbeats. */
export interface DumpReaderOptions {
  /** Whether the days' heartbeats are read (default); without them only "user_agents" and "machine_names" are. */
  heartbeats?: boolean;
  /** Each entry of the dump's "user_agents", parsed (anything JSON: checking it is the caller's). */
  onUserAgent?: (entry: unknown) => void;
  /** Each entry of the dump's "machine_names", alike. */
  onMachineName?: (entry: unknown) => void;
}

/**
 * Feed it the dump's bytes in order (`push`), then `end()`. Each call returns the heartbeats
 * completed by that chunk, parsed (anything JSON: checking them is the caller's).
 */
export class DumpReader {
  private buf: Buffer = Buffer.alloc(0);
  /** Where the current chunk's unread bytes start in `buf`. */
  private pos = 0;
  /** Bytes of the dump before `buf`. */
  private base = 0;
  private stack: Frame[] = [];
  /** Containers open inside a skipped value, and whether each is an object (a bit per level). */
  private skipDepth = 0;
  private readonly skipObjects = new Uint8Array(MAX_DEPTH);
  private started = false;
  private finished = false;
  /** Whether the dump (an object) has its "days" array. */
  private hasDays = false;
  private inString = false;
  private escaped = false;
  /** Where the string being read starts in `buf`, when it is a key we need. */
  private keyStart = -1;
  /** Where the heartbeat being cut out starts in `buf`, and its nesting depth. */
  private captureStart = -1;
  private captureDepth = 0;
  /** The list the value being cut out is an entry of (else it is a heartbeat). */
  private capturingList: ListRole | null = null;
  /** The dump's lists read to their end. */
  private readonly listsRead = new Set<ListRole>();
  private readonly days: boolean;
  private readonly onEntry: Record<ListRole, ((entry: unknown) => void) | undefined>;

  constructor(options: DumpReaderOptions = {}) {
    this.days = options.heartbeats ?? true;
    this.onEntry = { [Role.UserAgents]: options.onUserAgent, [Role.MachineNames]: options.onMachineName };
  }

  /** Whether the dump's "user_agents" and "machine_names" lists have been read whole (a reader of those lists alone may stop). */
  get originsRead(): boolean {
    return this.listsRead.size === 2;
  }

  /** Bytes read so far. */
  get bytesRead(): number {
    return this.base + this.pos;
  }

  private fail(message: string, at = this.base + this.pos): never {
    throw new DumpError(`${message} (at byte ${at})`);
  }

  push(chunk: Uint8Array): unknown[] {
    // Keep what a cut-out heartbeat or a key still needs from the bytes before.
    const keep = this.captureStart >= 0 ? this.captureStart : this.keyStart;
    if (keep >= 0) {
      this.base += keep;
      this.buf = Buffer.concat([this.buf.subarray(keep), chunk]);
      this.pos -= keep;
      if (this.captureStart >= 0) this.captureStart -= keep;
      if (this.keyStart >= 0) this.keyStart -= keep;
    } else {
      this.base += this.buf.length;
      this.buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      this.pos = this.base === 0 && byteOrderMark(this.buf) ? 3 : 0;
    }
    const out: unknown[] = [];
    this.scan(out);
    if (this.captureStart >= 0 && this.buf.length - this.captureStart > MAX_HEARTBEAT_BYTES) {
      this.fail(`a heartbeat is larger than ${MAX_HEARTBEAT_BYTES} bytes`, this.base + this.captureStart);
    }
    return out;
  }

  /** Checks the dump ended where its outermost value does, and was a dump. */
  end(): void {
    if (!this.started) this.fail('the dump is empty: expected a WakaTime data dump (a JSON object with "days")');
    if (!this.finished) this.fail('the dump ends before its last closing bracket: was the upload cut short?');
    if (!this.hasDays) {
      this.fail(`${NOT_A_DUMP}: a JSON object without "days" (a data dump holds "days": [...]; wakatime.com: Settings, Export, heartbeats)`, 0);
    }
  }

  private scan(out: unknown[]): void {
    const buf = this.buf;
    const n = buf.length;
    let i = this.pos;
    while (i < n) {
      const c = buf[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.keyStart >= 0) this.keyRead(this.keyStart, i + 1);
        }
        if (this.keyStart >= 0 && i - this.keyStart > MAX_KEY_BYTES) this.keyTooLong(this.keyStart);
        i++;
        continue;
      }
      if (c === QUOTE) {
        // Most of a dump is strings: jump to the quote that ends this one, when it is in the chunk.
        const end = stringEnd(buf, i);
        if (end >= 0) {
          if (this.captureStart < 0) {
            this.pos = i;
            this.structural(c, i, end);
          }
          i = end + 1;
          continue;
        }
      }
      // A heartbeat being cut out: only strings and brackets matter until it closes.
      if (this.captureStart >= 0) {
        if (c === QUOTE) this.inString = true;
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
          if (this.stack.length + ++this.captureDepth > MAX_DEPTH) this.tooDeep(i);
        } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          if (--this.captureDepth === 0) {
            const value = this.parseHeartbeat(this.captureStart, i + 1);
            if (this.capturingList !== null) this.onEntry[this.capturingList]?.(value);
            else out.push(value);
            this.captureStart = -1;
          }
        }
        i++;
        continue;
      }
      this.pos = i;
      this.structural(c, i, -1);
      i++;
    }
    this.pos = n;
  }

  private tooDeep(i: number): never {
    this.fail(`the document nests deeper than ${MAX_DEPTH} levels, where a data dump nests about ten`, this.base + i);
  }

  private keyTooLong(start: number): never {
    this.fail(`${NOT_A_DUMP}: a key longer than ${MAX_KEY_BYTES} bytes, where a data dump has short names`, this.base + start);
  }

  /**
   * One byte outside strings and heartbeats. `end`: where a string starting here ends, when
   * known (the string is then read whole), or -1.
   */
  private structural(c: number, i: number, end: number): void {
    if (isSpace(c)) return;
    if (this.skipDepth > 0) return this.skip(c, i, end);
    const top = this.stack.at(-1);
    if (this.finished) this.fail('unexpected data after the end of the dump');
    if (!top) {
      this.started = true;
      const problem = dumpStartProblem(this.buf.subarray(i, i + 1));
      if (problem) this.fail(problem);
      if (c === OPEN_OBJECT) this.stack.push({ object: true, role: Role.Root, expectKey: true, valueRole: Role.Skip });
      else {
        // A bare array of heartbeats: nothing more to look for (and no list of User-Agents).
        this.hasDays = true;
        if (!this.days) for (const role of [Role.UserAgents, Role.MachineNames] as const) this.listsRead.add(role);
        this.stack.push({ object: false, role: this.days ? Role.Heartbeats : Role.Skip, expectKey: false, valueRole: Role.Skip });
      }
      return;
    }
    if (top.object && top.expectKey) {
      if (c === QUOTE) {
        top.expectKey = false;
        if (end >= 0) {
          if (end - i - 1 > MAX_KEY_BYTES) this.keyTooLong(i);
          this.keyRead(i, end + 1);
          return;
        }
        this.inString = true;
        this.keyStart = i;
        return;
      }
      if (c === CLOSE_OBJECT) return this.close(true);
      if (c === COMMA) return;
      this.fail('a key of an object is not a string');
    }
    if (c === COLON) return;
    if (c === COMMA) {
      if (top.object) top.expectKey = true;
      return;
    }
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) return this.close(c === CLOSE_OBJECT);
    // The start of a value: its role is what its place makes it.
    const role = top.object ? top.valueRole : top.role === Role.Days ? Role.Day : top.role;
    if (top.object) top.valueRole = Role.Skip;
    if ((role === Role.Heartbeats || isList(role)) && !top.object) {
      if (c !== OPEN_OBJECT) {
        const where = isList(role) ? `an entry of "${lists[role].key}" is` : top === this.stack[0] ? 'the array holds' : 'an entry of "heartbeats" is';
        this.fail(`${NOT_A_DUMP}: ${where} ${kindOf(c)}, where ${isList(role) ? lists[role].what : 'heartbeats'} (objects) belong`);
      }
      if (this.stack.length + 1 > MAX_DEPTH) this.tooDeep(i);
      this.captureStart = i;
      this.captureDepth = 1;
      this.capturingList = isList(role) ? role : null;
      return;
    }
    if ((role === Role.Days || role === Role.Heartbeats || isList(role)) && c === NULL) {
      // `"days": null`, `"heartbeats": null`: none (its bytes are stepped over as a skipped value's).
      if (role === Role.Days) this.hasDays = true;
    } else if (isList(role)) {
      if (c !== OPEN_ARRAY) this.fail(`${NOT_A_DUMP}: "${lists[role].key}" is ${kindOf(c)}, where a data dump has an array`);
      this.stack.push({ object: false, role, expectKey: false, valueRole: Role.Skip });
    } else if (role === Role.Days) {
      if (c !== OPEN_ARRAY) this.fail(`${NOT_A_DUMP}: "days" is ${kindOf(c)}, where a data dump has an array of days`);
      this.hasDays = true;
      this.stack.push({ object: false, role, expectKey: false, valueRole: Role.Skip });
    } else if (role === Role.Day) {
      if (c !== OPEN_OBJECT) this.fail(`${NOT_A_DUMP}: an entry of "days" is ${kindOf(c)}, where a day (an object) belongs`);
      this.stack.push({ object: true, role, expectKey: true, valueRole: Role.Skip });
    } else if (role === Role.Heartbeats) {
      if (c !== OPEN_ARRAY) this.fail(`${NOT_A_DUMP}: "heartbeats" of a day is ${kindOf(c)}, where a data dump has an array`);
      this.stack.push({ object: false, role, expectKey: false, valueRole: Role.Skip });
    } else {
      this.skip(c, i, end);
    }
  }

  /** One byte of a value nobody needs: only strings and brackets matter. */
  private skip(c: number, i: number, end: number): void {
    if (c === QUOTE) this.inString = end < 0;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (this.stack.length + this.skipDepth + 1 > MAX_DEPTH) this.tooDeep(i);
      this.skipObjects[this.skipDepth++] = c === OPEN_OBJECT ? 1 : 0;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (this.skipDepth === 0 || this.skipObjects[--this.skipDepth] !== (c === CLOSE_OBJECT ? 1 : 0)) this.fail('a closing bracket does not match its opening one');
    }
    // Numbers, true, false and null: their bytes are skipped one by one.
  }

  private close(object: boolean): void {
    const top = this.stack.pop();
    if (!top || top.object !== object) this.fail('a closing bracket does not match its opening one');
    if (isList(top.role)) this.listsRead.add(top.role);
    if (this.stack.length === 0) this.finished = true;
  }

  private keyRead(start: number, end: number): void {
    this.keyStart = -1;
    const top = this.stack.at(-1)!;
    let key: string;
    try {
      key = JSON.parse(this.buf.toString('utf8', start, end)) as string;
    } catch (err) {
      this.fail(`a key is not a valid JSON string: ${(err as Error).message}`, this.base + start);
    }
    top.valueRole = roleOfKey(top.role, key, this.days);
  }

  private parseHeartbeat(start: number, end: number): unknown {
    if (end - start > MAX_HEARTBEAT_BYTES) this.fail(`a heartbeat is larger than ${MAX_HEARTBEAT_BYTES} bytes`, this.base + start);
    try {
      return JSON.parse(this.buf.toString('utf8', start, end));
    } catch (err) {
      this.fail(`a heartbeat is not valid JSON: ${(err as Error).message}`, this.base + start);
    }
  }
}
