// JSON written straight to UTF-8 bytes, for the large answers and statement batches of the
// heartbeat routes. A text built by joining strings is a tree of pieces that has to be walked and
// encoded before it is sent: for the answers of a bulk of 1000 heartbeats that walk cost 1.3-1.8 ms
// where making the pieces cost 0.4. Here each piece is copied once, into the bytes sent;
// strings are written as the UTF-8 of their JSON text, remembered, since names repeat from one
// heartbeat and one request to the next. tests/unit/fast-path.test.ts checks the results against
// JSON.stringify.

const encoder = new TextEncoder();

/** The UTF-8 JSON texts of strings already written (names: up to 256 characters). */
const jsonStrings = new Map<string, Uint8Array>();
const REMEMBERED_LENGTH = 256;

const DIGIT_0 = 48;

/** The digits of a whole number under 10^8. */
const digitCount = (n: number) => (n < 1e4 ? (n < 100 ? (n < 10 ? 1 : 2) : n < 1e3 ? 3 : 4) : n < 1e6 ? (n < 1e5 ? 5 : 6) : n < 1e7 ? 7 : 8);

export class JsonBytes {
  private buffer: Buffer<ArrayBuffer>;
  private length = 0;

  /** `size`: the bytes expected (the buffer grows as needed). */
  constructor(size = 256) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  /** Text that is already JSON and ASCII only (the writer's own punctuation and names, digits). */
  ascii(text: string): this {
    const n = text.length;
    const at = this.room(n);
    const buffer = this.buffer; // a local: the loop stores bytes only
    for (let i = 0; i < n; i++) buffer[at + i] = text.charCodeAt(i);
    this.length = at + n;
    return this;
  }

  /** A string as JSON writes it (escaped and quoted). */
  string(value: string): this {
    let bytes = jsonStrings.get(value);
    if (bytes === undefined) {
      bytes = encoder.encode(JSON.stringify(value));
      if (value.length > REMEMBERED_LENGTH) return this.raw(bytes);
      if (jsonStrings.size >= 10_000) jsonStrings.clear();
      jsonStrings.set(value, bytes);
    }
    return this.raw(bytes);
  }

  /** A string or null as JSON writes it. */
  json(value: string | null): this {
    return value === null ? this.ascii('null') : this.string(value);
  }

  /** Bytes that are already JSON (a copy costs as much as 10-20 bytes stored one by one). */
  raw(bytes: Uint8Array): this {
    const n = bytes.length;
    const at = this.room(n);
    const buffer = this.buffer;
    if (n > 12) buffer.set(bytes, at);
    else for (let i = 0; i < n; i++) buffer[at + i] = bytes[i];
    this.length = at + n;
    return this;
  }

  /** A number as JSON writes it; whole numbers up to 2^53 without the floating-point path. */
  number(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0) return this.ascii(JSON.stringify(value));
    if (value < 1e8) return this.digits(value, digitCount(value));
    const high = Math.floor(value / 1e8);
    return this.number(high).digits(value - high * 1e8, 8);
  }

  /** `value` (under 10^8) in `count` digits, zeros first. */
  private digits(value: number, count: number): this {
    const at = this.room(count);
    const buffer = this.buffer;
    let rest = value | 0; // under 10^8: a 32-bit integer, divided as one
    for (let i = at + count - 1; i >= at; i--) {
      const next = (rest / 10) | 0;
      buffer[i] = DIGIT_0 + rest - next * 10;
      rest = next;
    }
    this.length = at + count;
    return this;
  }

  /**
   * Milliseconds as seconds, as JSON writes `ms / 1000`: whole milliseconds from 1 s up to 2^44
   * (the year 2527) without the floating-point path, as three decimals at most. (Doubles that
   * large are a few millionths apart, so `ms / 1000` is the one nearest to those decimals.)
   */
  seconds(ms: number): this {
    if (!Number.isInteger(ms) || ms < 1000 || ms >= 2 ** 44) return this.ascii(JSON.stringify(ms / 1000));
    const seconds = Math.floor(ms / 1000);
    const fraction = ms - seconds * 1000;
    this.number(seconds);
    if (fraction === 0) return this;
    const tenths = Math.floor(fraction / 100);
    const hundredths = Math.floor(fraction / 10) % 10;
    const thousandths = fraction % 10;
    const at = this.room(4);
    this.buffer[at] = 46; // '.'
    this.buffer[at + 1] = DIGIT_0 + tenths;
    let end = at + 2;
    if (hundredths !== 0 || thousandths !== 0) this.buffer[end++] = DIGIT_0 + hundredths;
    if (thousandths !== 0) this.buffer[end++] = DIGIT_0 + thousandths;
    this.length = end;
    return this;
  }

  /** The bytes written (the writer is not to be used after). */
  bytes(): Buffer<ArrayBuffer> {
    return this.buffer.subarray(0, this.length);
  }

  /** The text written (the writer is not to be used after). */
  text(): string {
    return this.buffer.toString('utf8', 0, this.length);
  }

  /** Makes room for `size` more bytes; returns where they go. */
  private room(size: number): number {
    if (this.length + size > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + size));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    return this.length;
  }
}

type Key = string | number;
type Tree = Map<Key, Tree | Uint8Array>;

/**
 * JSON bytes made of a few keys (names, a type and a digest) by `write`, remembered under those
 * keys (up to `limit` in all): the same names end one heartbeat's text after another. Maps
 * within maps, so that no key is made of the parts.
 */
export class RememberedBytes<K extends readonly Key[]> {
  private readonly root: Tree = new Map();
  private count = 0;

  constructor(
    private readonly write: (out: JsonBytes, keys: K) => void,
    private readonly limit = 10_000,
  ) {}

  get(keys: K): Uint8Array {
    let node = this.root;
    const last = keys.length - 1;
    for (let i = 0; i < last; i++) {
      let next = node.get(keys[i]) as Tree | undefined;
      if (next === undefined) node.set(keys[i], (next = new Map()));
      node = next;
    }
    let bytes = node.get(keys[last]) as Uint8Array | undefined;
    if (bytes === undefined) {
      if (++this.count > this.limit) {
        this.root.clear();
        this.count = 0;
        return this.get(keys);
      }
      const out = new JsonBytes();
      this.write(out, keys);
      // A copy of its own size: the writer's buffer holds 256 bytes.
      node.set(keys[last], (bytes = Buffer.from(out.bytes())));
    }
    return bytes;
  }
}
