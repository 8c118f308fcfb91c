import { createHash } from 'node:crypto';
import { errorResponse } from './problem';

// Public answers: cacheable by browsers and CDNs, readable from any origin, revalidated by ETag.

export interface PublicCachePolicy {
  /** Seconds a shared cache (CDN, image proxy) may serve the answer without asking. */
  sMaxAge: number;
  /** Seconds it may keep serving a stale answer while it fetches a new one. */
  staleWhileRevalidate: number;
  /** Seconds a browser may keep it; defaults to sMaxAge. */
  maxAge?: number;
}

export const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Retry-After',
} as const;

export function cacheControl(policy: PublicCachePolicy): string {
  return `public, max-age=${policy.maxAge ?? policy.sMaxAge}, s-maxage=${policy.sMaxAge}, stale-while-revalidate=${policy.staleWhileRevalidate}`;
}

export function weakEtag(content: string | Uint8Array): string {
  return `W/"${createHash('sha1').update(content).digest('base64url')}"`;
}

/** Weak comparison of If-None-Match against an ETag (RFC 9110 13.1.2). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** A serialized answer with its ETag, computed once and served many times. */
export interface Serialized {
  body: string;
  etag: string;
}

export function serialize(value: unknown): Serialized {
  const body = JSON.stringify(value);
  return { body, etag: weakEtag(body) };
}

/**
 * A public answer with Cache-Control, ETag and CORS, or 304 when the client already has it
 * (`request` null: an answer Next caches, whose conditional requests the front server answers).
 */
export function publicResponse(
  request: Request | null,
  body: string | Uint8Array,
  contentType: string,
  policy: PublicCachePolicy,
  status = 200,
  etag = weakEtag(body),
): Response {
  const headers = new Headers({ ...corsHeaders, 'cache-control': cacheControl(policy), etag });
  if (status === 200 && request && matchesEtag(request.headers.get('if-none-match'), etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set('content-type', contentType);
  return new Response(body as BodyInit, { status, headers });
}

export function publicSerialized(request: Request | null, { body, etag }: Serialized, policy: PublicCachePolicy): Response {
  return publicResponse(request, body, 'application/json; charset=utf-8', policy, 200, etag);
}

export function publicJson(request: Request | null, value: unknown, policy: PublicCachePolicy): Response {
  return publicSerialized(request, serialize(value), policy);
}

/**
 * Wraps a public route: whatever it throws becomes problem+json that any origin can read. A
 * handler that answers at once (a cache hit) is answered at once, without a promise.
 */
export function publicRoute<A extends unknown[]>(handler: (...args: A) => Response | Promise<Response>) {
  const failed = (err: unknown): Response => {
    const response = errorResponse(err);
    for (const [name, value] of Object.entries(corsHeaders)) response.headers.set(name, value);
    return response;
  };
  return (...args: A): Response | Promise<Response> => {
    try {
      const answer = handler(...args);
      return answer instanceof Promise ? answer.catch(failed) : answer;
    } catch (err) {
      return failed(err);
    }
  };
}
