import { ApiError } from './problem';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../json-syntax';

export const MAX_BODY_BYTES = 1024 * 1024;

export function isJsonMediaType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

const tooLarge = () =>
  new ApiError('payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`);

/**
 * How deep arrays and objects may nest in a JSON body (the API's bodies nest 3 or 4 levels).
 * JSON.parse of deeply nested input holds the event loop long; counting the brackets first costs
 * one pass over the bytes, a fraction of what JSON.parse takes (docs/scaling.md).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether the JSON text in `bytes` opens more than `max` arrays and objects inside each other
 * (brackets within strings do not count). Malformed JSON is JSON.parse's to refuse.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      for (i++; i < n && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

const tooDeep = () => new ApiError('malformed_json', `The body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`);

/** Options of readJsonBody. */
export interface JsonBodyOptions {
  /** Most bytes taken (MAX_BODY_BYTES by default). */
  limit?: number;
  /**
   * Take the body as JSON whatever its Content-Type says (the WakaTime-compatible heartbeat routes:
   * WakaTime's browser extension posts JSON as text/plain). Otherwise anything but a JSON media
   * type is 415.
   */
  anyMediaType?: boolean;
}

/**
 * JSON text parsed, or 400 malformed_json naming what is wrong; the nesting is bounded before
 * JSON.parse sees it. `bytes`: the text's UTF-8 bytes, when the caller has them already.
 */
export function parseJsonText(text: string, bytes: Uint8Array = Buffer.from(text)): unknown {
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw tooDeep();
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('malformed_json', `The body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * Reads a JSON body, counting bytes as they arrive: a body over the limit is refused as soon as
 * it crosses it, never buffered whole. Returns the parsed value and the raw bytes (for hashing).
 */
export async function readJsonBody(request: Request, { limit = MAX_BODY_BYTES, anyMediaType = false }: JsonBodyOptions = {}): Promise<{ value: unknown; raw: Uint8Array }> {
  if (!anyMediaType && !isJsonMediaType(request.headers.get('content-type'))) {
    throw new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  }
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    try {
      for await (const chunk of bodyChunks(request.body)) {
        size += chunk.byteLength;
        if (size > limit) throw tooLarge();
        chunks.push(chunk);
      }
    } catch (err) {
      throw err instanceof ApiError ? err : new ApiError('malformed_json', 'The body could not be read to its end.');
    }
  }
  const raw = Buffer.concat(chunks, size);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new ApiError('malformed_json', 'The body is not valid UTF-8.');
  }
  return { value: parseJsonText(text, raw), raw };
}

/**
 * A body's bytes as they arrive, one read at a time: a loop that stops early (a `break` or a throw
 * in `for await`) cancels the body between two reads, never while one waits. The body Next makes
 * from Node's request (undici's ReadableStreamFrom) closes itself when the request ends even
 * after it was cancelled during a read, and throws "ReadableStream is already closed" where
 * nothing can catch it; `Readable.fromWeb` reads ahead and cancels just so when a pipeline fails.
 */
export async function* bodyChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!ended) await reader.cancel().catch(() => {});
  }
}

export const jsonContentType = 'application/json; charset=utf-8';

type JsonInit = { status?: number; headers?: HeadersInit };

export function json(body: unknown, init: JsonInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', jsonContentType);
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
}
