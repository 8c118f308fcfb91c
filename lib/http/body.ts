import { ApiError } from './problem';

export const MAX_BODY_BYTES = 1024 * 1024;

export function isJsonMediaType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

const tooLarge = () =>
  new ApiError('payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`);

/**
 * Reads a JSON body, counting bytes as they arrive: a body over the limit is refused as soon as
 * it crosses it, never buffered whole. Returns the parsed value and the raw bytes (for hashing).
 */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<{ value: unknown; raw: Uint8Array }> {
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    throw new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  }
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read().catch(() => {
        throw new ApiError('malformed_json', 'The body could not be read to its end.');
      });
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const raw = Buffer.concat(chunks, size);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new ApiError('malformed_json', 'The body is not valid UTF-8.');
  }
  try {
    return { value: JSON.parse(text), raw };
  } catch (err) {
    throw new ApiError('malformed_json', `The body is not valid JSON: ${(err as Error).message}`);
  }
}

export const jsonContentType = 'application/json; charset=utf-8';

type JsonInit = { status?: number; headers?: HeadersInit };

export function json(body: unknown, init: JsonInit = {}): Response {
  return jsonResponse(JSON.stringify(body), init);
}

/** A response of JSON already written, as text or as its UTF-8 bytes. */
export function jsonResponse(body: string | Uint8Array<ArrayBuffer>, init: JsonInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', jsonContentType);
  return new Response(body, { status: init.status ?? 200, headers });
}
