// Reads a WakaTime data dump (`{"user": ..., "range": ..., "days": [{"date", "heartbeats": [...]}]}`,
// or a bare array of heartbeats) as it streams in, one heartbeat object at a time: memory holds
// the chunk being read and the heartbeat being cut out, never the document. Only the structure
// around the heartbeats is followed; each heartbeat object is cut out byte for byte and parsed on
// its own (JSON.parse checks it), everything else is skipped.

/** Why a dump cannot be read, with where (bytes from its start). */
export class DumpError extends Error {}

/** The largest one heartbeat may be (its entity is at most 4 KiB; dependencies can be long). */
const MAX_HEARTBEAT_BYTES = 1024 * 1024;

const enum Role {
  /** A value nobody needs: followed only to find where it ends. */
  Skip,
  Root,
  Days,
  Day,
  Heartbeats,
}

interface Frame {
  object: boolean;
  role: Role;
  /** In an object: the next string is a key. */
  expectKey: boolean;
  /** In an object: the role the current key gives its value. */
  valueRole: Role;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** Where the string that opens at `start` ends (its closing quote), or -1 when not within `buf`. */
function stringEnd(buf: Buffer, start: number): number {
  for (let q = buf.indexOf(QUOTE, start + 1); q >= 0; q = buf.indexOf(QUOTE, q + 1)) {
    let backslashes = 0;
    while (q - 1 - backslashes > start && buf[q - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return -1;
}

/** What a key names inside a container of a role. */
function roleOfKey(role: Role, key: string): Role {
  if (role === Role.Root && key === 'days') return Role.Days;
  if (role === Role.Day && key === 'heartbeats') return Role.Heartbeats;
  return Role.Skip;
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
  private started = false;
  private finished = false;
  private inString = false;
  private escaped = false;
  /** Where the string being read starts in `buf`, when it is a key we need. */
  private keyStart = -1;
  /** Where the heartbeat being cut out starts in `buf`, and its nesting depth. */
  private captureStart = -1;
  private captureDepth = 0;

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
      // A UTF-8 byte order mark (some editors save one) is not part of the document.
      this.pos = this.base === 0 && this.buf[0] === 0xef && this.buf[1] === 0xbb && this.buf[2] === 0xbf ? 3 : 0;
    }
    const out: unknown[] = [];
    this.scan(out);
    if (this.captureStart >= 0 && this.buf.length - this.captureStart > MAX_HEARTBEAT_BYTES) {
      this.fail(`a heartbeat is larger than ${MAX_HEARTBEAT_BYTES} bytes`, this.base + this.captureStart);
    }
    return out;
  }

  /** Checks the dump ended where its outermost value does. */
  end(): void {
    if (!this.started) this.fail('the dump is empty: expected a WakaTime data dump (a JSON object with "days")');
    if (!this.finished) this.fail('the dump ends before its last closing bracket: was the upload cut short?');
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
        i++;
        continue;
      }
      if (c === QUOTE && (this.captureStart >= 0 || this.keyStart < 0)) {
        // Most of a dump is strings: jump to the quote that ends this one, when it is in the chunk.
        const end = stringEnd(buf, i);
        if (end >= 0) {
          if (this.captureStart < 0) this.structural(c, i, end);
          i = end + 1;
          continue;
        }
      }
      // A heartbeat being cut out: only strings and brackets matter until it closes.
      if (this.captureStart >= 0) {
        if (c === QUOTE) this.inString = true;
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.captureDepth++;
        else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          if (--this.captureDepth === 0) {
            out.push(this.parseHeartbeat(this.captureStart, i + 1));
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

  /**
   * One byte outside strings and heartbeats. `end`: where a string starting here ends, when
   * known (the string is then read whole), or -1.
   */
  private structural(c: number, i: number, end: number): void {
    const top = this.stack.at(-1);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return;
    if (this.finished) this.fail('unexpected data after the end of the dump');
    if (!top) {
      this.started = true;
      if (c === OPEN_OBJECT) this.stack.push({ object: true, role: Role.Root, expectKey: true, valueRole: Role.Skip });
      else if (c === OPEN_ARRAY) this.stack.push({ object: false, role: Role.Heartbeats, expectKey: false, valueRole: Role.Skip });
      else this.fail('not a WakaTime data dump: expected a JSON object with "days"');
      return;
    }
    if (top.object && top.expectKey) {
      if (c === QUOTE) {
        top.expectKey = false;
        if (end >= 0) {
          if (top.role !== Role.Skip) this.keyRead(i, end + 1);
          return;
        }
        this.inString = true;
        if (top.role !== Role.Skip) this.keyStart = i;
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
    const role = top.object ? top.valueRole : top.role === Role.Days ? Role.Day : top.role === Role.Heartbeats ? Role.Heartbeats : Role.Skip;
    if (top.object) top.valueRole = Role.Skip;
    if (!top.object && top.role === Role.Heartbeats) {
      if (c !== OPEN_OBJECT) this.fail('an entry of "heartbeats" is not an object');
      this.captureStart = i;
      this.captureDepth = 1;
      return;
    }
    if (c === OPEN_OBJECT) {
      if (role === Role.Days || role === Role.Heartbeats) this.fail(role === Role.Days ? '"days" is not an array' : '"heartbeats" is not an array');
      this.stack.push({ object: true, role: role === Role.Day ? Role.Day : Role.Skip, expectKey: true, valueRole: Role.Skip });
    } else if (c === OPEN_ARRAY) {
      if (role === Role.Day) this.fail('an entry of "days" is not an object');
      this.stack.push({ object: false, role: role === Role.Days || role === Role.Heartbeats ? role : Role.Skip, expectKey: false, valueRole: Role.Skip });
    } else if (c === QUOTE) {
      if (role !== Role.Skip) this.fail('"days" or "heartbeats" is a string');
      this.inString = end < 0;
    } else if (role === Role.Day) {
      this.fail('an entry of "days" is not an object');
    }
    // Numbers, true, false and null: their bytes are skipped one by one.
  }

  private close(object: boolean): void {
    const top = this.stack.pop();
    if (!top || top.object !== object) this.fail('a closing bracket does not match its opening one');
    if (this.stack.length === 0) this.finished = true;
  }

  private keyRead(start: number, end: number): void {
    this.keyStart = -1;
    const top = this.stack.at(-1)!;
    const key = JSON.parse(this.buf.toString('utf8', start, end)) as string;
    top.valueRole = roleOfKey(top.role, key);
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
