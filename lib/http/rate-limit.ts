import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { ApiError } from './problem';

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
}

/**
 * Counts one request against the token's fixed one-minute window. The counter lives in the
 * database, so every server process on the same PostgreSQL shares it; the row lock on the
 * token's counter makes concurrent increments exact. A limit of 0 turns limiting off.
 */
export async function consumeRateLimit(db: Db, tokenId: string, limit: number): Promise<RateLimitState | null> {
  if (limit <= 0) return null;
  const [row] = await rows<{ count: number; reset: number }>(
    db,
    sql`INSERT INTO rate_limits AS r (token_id, window_start, count)
        VALUES (${tokenId}, date_trunc('minute', now()), 1)
        ON CONFLICT (token_id) DO UPDATE SET
          count = CASE WHEN r.window_start = excluded.window_start THEN r.count + 1 ELSE 1 END,
          window_start = excluded.window_start
        RETURNING count,
          greatest(1, ceil(extract(epoch FROM window_start + interval '1 minute' - now())))::int AS reset`,
  );
  return {
    limit,
    remaining: Math.max(0, limit - row.count),
    resetSeconds: Number(row.reset),
    exceeded: row.count > limit,
  };
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) for one policy named "sync". */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'ratelimit-policy': `"sync";q=${state.limit};w=60`,
    ratelimit: `"sync";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

export function assertWithinLimit(state: RateLimitState | null): void {
  if (!state?.exceeded) return;
  throw new ApiError(429, 'rate_limited', `More than ${state.limit} write requests a minute with this token. Retry after ${state.resetSeconds} s.`, {
    headers: { 'retry-after': String(state.resetSeconds), ...rateLimitHeaders(state) },
  });
}
