import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { LRUCache } from 'lru-cache';
import { col, cols } from '../db/names';
import { rateLimits, userRateLimits } from '../db/schema';
import { ApiError } from './problem';

// The write rate: two budgets in fixed one-minute windows, one per token (the contract's
// SYNC_RATE_LIMIT_PER_MINUTE) and one per user (SYNC_USER_RATE_LIMIT_PER_MINUTE), so that making
// more tokens does not multiply what one account may write. A write needs room in both.

/** The two write budgets a request is counted against; 0 turns one off. */
export interface WriteLimits {
  token: number;
  user: number;
}

/** What one budget's counter said: its limit, the count with this request, seconds to reset. */
export interface Counted {
  limit: number;
  count: number;
  reset: number;
}

export interface RateLimitState {
  /** The budget that runs out first: "sync" (per token) or "sync-user". */
  policy: 'sync' | 'sync-user';
  limit: number;
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
  /** Both budgets, for RateLimit-Policy. */
  limits: WriteLimits;
}

/**
 * Counts one request against a counter's fixed one-minute window and returns (count, reset).
 * The counters live in the database, so every server process on the same PostgreSQL shares
 * them; the row lock on a counter makes concurrent increments exact. `ids` is a query yielding
 * the id to count (none: nothing is counted).
 */
function countSql(counters: typeof rateLimits | typeof userRateLimits, id: AnyPgColumn, ids: SQL): SQL {
  const { windowStart, count } = counters;
  return sql`
    INSERT INTO ${counters} (${cols(id, windowStart, count)})
    SELECT counted.*, date_trunc('minute', now()), 1 FROM (${ids}) AS counted
    ON CONFLICT (${col(id)}) DO UPDATE SET
      ${col(count)} = CASE WHEN ${windowStart} = excluded.${col(windowStart)} THEN ${count} + 1 ELSE 1 END,
      ${col(windowStart)} = excluded.${col(windowStart)}
    RETURNING ${count} AS count,
      greatest(1, ceil(extract(epoch FROM ${windowStart} + interval '1 minute' - now())))::int AS reset`;
}

/** The token's counter (`tokens` yields one column, the token's id). */
export const countTokenRequestSql = (tokens: SQL) => countSql(rateLimits, rateLimits.tokenId, tokens);

/** The user's counter (`users` yields one column, the user's id). */
export const countUserRequestSql = (users: SQL) => countSql(userRateLimits, userRateLimits.userId, users);

/**
 * CTEs `token_counted` and `user_counted` (count, reset; no row when a budget is off) counting
 * one request of the token and user that `who` yields (columns token_id, user_id).
 */
export function countWriteCtes(who: SQL, limits: WriteLimits): SQL {
  const none = sql`SELECT NULL::int AS count, NULL::int AS reset WHERE false`;
  return sql`
    token_counted AS (${limits.token > 0 ? countTokenRequestSql(sql`SELECT token_id FROM (${who}) AS w`) : none}),
    user_counted AS (${limits.user > 0 ? countUserRequestSql(sql`SELECT user_id FROM (${who}) AS w`) : none})`;
}

/** Columns token_count, token_reset, user_count, user_reset (after countWriteCtes). */
export const countedColumns = sql`
  (SELECT count FROM token_counted) AS token_count, (SELECT reset FROM token_counted) AS token_reset,
  (SELECT count FROM user_counted) AS user_count, (SELECT reset FROM user_counted) AS user_reset`;

/** A row holding countedColumns. */
export interface CountedRow {
  token_count: number | null;
  token_reset: number | null;
  user_count: number | null;
  user_reset: number | null;
}

/** The state of the budget that runs out first; exceeded when either is. Undefined when nothing was counted. */
export function rateLimitState(limits: WriteLimits, row: CountedRow): RateLimitState | undefined {
  const budgets = [
    row.token_count === null ? null : { policy: 'sync' as const, limit: limits.token, count: row.token_count, reset: Number(row.token_reset) },
    row.user_count === null ? null : { policy: 'sync-user' as const, limit: limits.user, count: row.user_count, reset: Number(row.user_reset) },
  ].filter((b) => b !== null);
  if (budgets.length === 0) return undefined;
  const states = budgets.map((b) => ({
    policy: b.policy,
    limit: b.limit,
    remaining: Math.max(0, b.limit - b.count),
    resetSeconds: b.reset,
    exceeded: b.count > b.limit,
    limits,
  }));
  // The exceeded one first (the one to wait for longest), else the one with the least room.
  return states.sort((a, b) => Number(b.exceeded) - Number(a.exceeded) || (a.exceeded ? b.resetSeconds - a.resetSeconds : a.remaining - b.remaining))[0];
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): both policies, and the tighter one's room. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const policies = [
    state.limits.token > 0 ? `"sync";q=${state.limits.token};w=60` : null,
    state.limits.user > 0 ? `"sync-user";q=${state.limits.user};w=60` : null,
  ].filter(Boolean);
  return {
    'ratelimit-policy': policies.join(', '),
    ratelimit: `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

function rateLimited(state: RateLimitState): ApiError {
  const whose = state.policy === 'sync' ? 'with this token' : 'for this account (all its tokens together)';
  return new ApiError('rate_limited', `More than ${state.limit} write requests a minute ${whose}. Retry after ${state.resetSeconds} s.`, {
    headers: { 'retry-after': String(state.resetSeconds), ...rateLimitHeaders(state) },
  });
}

/** Whose budgets a request is counted against: its token (by hash) and the token's user. */
export interface Budgeted {
  tokenHash: string;
  userId?: string;
}

// The budgets this process found exceeded, per token and per user, with when their window resets:
// until then a request of theirs is refused before its body is read or parsed, so that a client
// past its budget costs no more CPU than the 429. Each process keeps its own; the counters in the
// database stay the authority (a process that has not refused the principal yet asks them).
const refusals = new LRUCache<string, { state: RateLimitState; resetAt: number }>({ max: 10_000 });
/** The window's reset is known to the second, and a round trip late: refused early only until a second before. */
const RESET_MARGIN_MS = 1_000;

const refusalKey = (state: RateLimitState, who: Budgeted) => (state.policy === 'sync' ? `token:${who.tokenHash}` : who.userId && `user:${who.userId}`);

/** Throws the 429 when the counted state is past a budget, and remembers the refusal (knownRefusal). */
export function assertWithinLimit(state: RateLimitState | undefined, who: Budgeted): void {
  if (!state?.exceeded) return;
  const key = refusalKey(state, who);
  if (key) refusals.set(key, { state, resetAt: Date.now() + state.resetSeconds * 1000 });
  throw rateLimited(state);
}

/**
 * The 429 for a token or user this process refused for its budget within the same window (and
 * under the same `limits`), or null: nothing known, ask the database.
 */
export function knownRefusal(who: Budgeted, limits: WriteLimits): ApiError | null {
  const now = Date.now();
  for (const key of [`token:${who.tokenHash}`, who.userId && `user:${who.userId}`]) {
    const refusal = key ? refusals.get(key) : undefined;
    if (!refusal) continue;
    const { state, resetAt } = refusal;
    if (now < resetAt - RESET_MARGIN_MS && state.limits.token === limits.token && state.limits.user === limits.user) {
      return rateLimited({ ...state, remaining: 0, resetSeconds: Math.ceil((resetAt - now) / 1000) });
    }
    refusals.delete(key!);
  }
  return null;
}
