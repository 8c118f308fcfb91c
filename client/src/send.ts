import type { Batch } from './queue';
import type { Config } from './home';

// One batch to the service's sync routes, and what its answer means for the queue.

export const VERSION = '0.1.0';
const userAgent = `codetally-client/${VERSION} (${process.platform}; node ${process.versions.node})`;
const paths = { editor: '/main/api/v1/sync/activities', desktop: '/main/api/v1/sync/activities/desktop' } as const;

/** The site's address as the user gave it, without a trailing slash or the API's own path. */
export function siteUrl(apiUrl: string): string {
  return apiUrl.trim().replace(/\/+$/, '').replace(/\/main\/api\/v1$/, '').replace(/\/api\/wakatime\/v1$/, '');
}

export type Outcome =
  /** Stored (or stored before: the service replayed its answer); `rejected` buckets were dropped by it. */
  | { kind: 'delivered'; rejected: unknown[] }
  /** Too large: send it as two halves. */
  | { kind: 'split' }
  /** Refused for good (the body or its buckets are invalid): nothing of it can ever be stored. */
  | { kind: 'dropped'; reason: string }
  /** Not now: the network, the service, a conflict or the rate limit; or the token (kept until it is fixed). */
  | { kind: 'retry'; reason: string; retryAfterMs: number | null };

/** Seconds or an HTTP date, as milliseconds from now. */
export function retryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** What a refusal says: its status, and the code and detail of the error body (ours or WakaTime's shape). */
export async function problem(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { code?: string; detail?: string; error?: string };
    return `${res.status} ${body.code ?? ''} ${body.detail ?? body.error ?? ''}`.trim();
  } catch {
    return `${res.status} ${text.slice(0, 200)}`.trim();
  }
}

export async function sendBatch(config: Config, batch: Batch, fetchImpl: typeof fetch = fetch): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetchImpl(`${siteUrl(config.api_url)}${paths[batch.stream]}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.token}`, 'content-type': 'application/json', 'idempotency-key': batch.key, 'user-agent': userAgent },
      body: JSON.stringify({ activities: batch.buckets }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    // fetch names the network's own error (ECONNREFUSED, ENOTFOUND...) as the cause.
    const { message, cause } = err as Error & { cause?: { message?: string } };
    return { kind: 'retry', reason: `network: ${cause?.message ?? message}`, retryAfterMs: null };
  }
  if (res.ok) {
    const ack = (await res.json().catch(() => ({}))) as { rejected?: unknown[] };
    return { kind: 'delivered', rejected: ack.rejected ?? [] };
  }
  const reason = await problem(res);
  if (res.status === 413) return { kind: 'split' };
  if (res.status === 400 || res.status === 422) {
    // 422 idempotency_key_reused cannot happen to a key made for one batch; any other 400/422 refuses the body itself.
    return { kind: 'dropped', reason };
  }
  return { kind: 'retry', reason, retryAfterMs: retryAfter(res.headers.get('retry-after')) };
}
