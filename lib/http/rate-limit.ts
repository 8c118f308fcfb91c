import { sql, type SQL } from 'drizzle-orm';
import { ApiError } from './problem';

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
}

/**
 * Counts one request against a token's fixed one-minute window and returns (count, reset).
 * The counter lives in the database, so every server process on the same PostgreSQL shares
 * it; the row lock on the token's counter makes concurrent increments exact. `tokens` is a
 * query yielding the token_id to count (none: nothing is counted).
 */
export function countRequestSql(tokens: SQL): SQL {
  return sql`
    INSERT INTO rate_limits AS r (token_id, window_start, count)
    SELECT token_id, date_trunc('minute', now()), 1 FROM (${tokens}) AS counted
    ON CONFLICT (token_id) DO UPDATE SET
      count = CASE WHEN r.window_start = excluded.window_start THEN r.count + 1 ELSE 1 END,
      window_start = excluded.window_start
    RETURNING count,
      greatest(1, ceil(extract(epoch FROM window_start + interval '1 minute' - now())))::int AS reset`;
}

export function rateLimitState(limit: number, count: number, reset: number): RateLimitState {
  return { limit, remaining: Math.max(0, limit - count), resetSeconds: reset, exceeded: count > limit };
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) for one policy named "sync". */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'ratelimit-policy': `"sync";q=${state.limit};w=60`,
    ratelimit: `"sync";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

export function assertWithinLimit(state: RateLimitState | undefined): void {
  if (!state?.exceeded) return;
  throw new ApiError(429, 'rate_limited', `More than ${state.limit} write requests a minute with this token. Retry after ${state.resetSeconds} s.`, {
    headers: { 'retry-after': String(state.resetSeconds), ...rateLimitHeaders(state) },
  });
}
