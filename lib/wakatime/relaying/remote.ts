import { OutboundError, outboundBytes, userAddresses } from '../../http/outbound';
import { basicAuth } from '../api-key';

// What a relay says to the other service, through lib/http/outbound.ts under the rules for an
// address a user gave (public addresses, and the hosts IMPORT_ALLOWED_HOSTS lists): its key as
// WakaTime's clients send it (Basic, the key in base64), bounded in time and size.

/** The whole exchange's deadline. */
export const RELAY_TIMEOUT_MS = 15_000;
/** The most bytes of an answer read (a bulk's answer of 25 heartbeats is a few kB). */
export const RELAY_ANSWER_BYTES = 256 * 1024;

/** The header a heartbeat a relay forwards carries, naming the install it comes from: such a heartbeat is never relayed again. */
export const ORIGIN_HEADER = 'x-origin-instance';

/** What checking a key against `{base}/users/current` found: ok, the key refused, or what else happened. */
export type KeyCheck = { ok: true } | { ok: false; field: 'api_key' | 'api_url'; message: string };

/** Asks `{base}/users/current` with the key, once (at a relay's creation). */
export async function checkKey(base: string, key: string): Promise<KeyCheck> {
  try {
    const answer = await outboundBytes(`${base}/users/current`, userAddresses(), {
      headers: { authorization: basicAuth(key), accept: 'application/json', 'user-agent': 'codetally-relay' },
      timeoutMs: RELAY_TIMEOUT_MS,
      maxBytes: RELAY_ANSWER_BYTES,
    });
    if (answer.status >= 200 && answer.status < 300) return { ok: true };
    if (answer.status === 401 || answer.status === 403) return { ok: false, field: 'api_key', message: `api_key was refused by ${new URL(base).host} (${answer.status})` };
    return { ok: false, field: 'api_url', message: `api_url: ${new URL(base).host} answered ${answer.status} to users/current: not a WakaTime-compatible base address` };
  } catch (err) {
    if (err instanceof OutboundError) return { ok: false, field: 'api_url', message: `api_url: ${err.message}` };
    throw err;
  }
}
