import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { LRUCache } from 'lru-cache';
import { col, cols } from '../db/names';
import { rateLimits, readRateLimits, userRateLimits, userReadRateLimits } from '../db/schema';
import { ApiError } from './problem';

// Request rates: two budgets of each kind in fixed one-minute windows, one per token and one per
// user, so that making more tokens does not multiply what one account may do. A request needs
// room in both. Writes of activity (the sync and heartbeat routes) count against the write
// budgets (SYNC_RATE_LIMIT_PER_MINUTE, SYNC_USER_RATE_LIMIT_PER_MINUTE); every other request made
// with a token, and the account routes' with a session (per user only), against the read budgets
// (READ_RATE_LIMIT_PER_MINUTE, READ_USER_RATE_LIMIT_PER_MINUTE). Each kind has counters of its
// own, so reads never spend what a plugin needs to write, nor writes what a status bar reads.

/** What a budget counts: activity writes, or every other request of a token or session. */
export type BudgetKind = 'write' | 'read';

/** The two budgets of a kind a request is counted against; 0 turns one off. */
export interface Limits {
  kind: BudgetKind;
  token: number;
  user: number;
}

/** The write budgets (the heartbeat and sync routes' statements count against them). */
export type WriteLimits = Limits & { kind: 'write' };

/** The policies as RateLimit-Policy names them, per kind: the token's and the user's. */
const POLICIES = {
  write: { token: 'sync', user: 'sync-user' },
  read: { token: 'read', user: 'read-user' },
} as const;

type Policy = (typeof POLICIES)[BudgetKind][keyof (typeof POLICIES)[BudgetKind]];

/** The counters of each kind (lib/db/tables/limits.ts): apart, so that neither kind spends the other's. */
const COUNTERS = {
  write: { token: rateLimits, user: userRateLimits },
  read: { token: readRateLimits, user: userReadRateLimits },
} as const;

/** What one budget's counter said: its limit, the count with this request, seconds to reset. */
export interface Counted {
  limit: number;
  count: number;
  reset: number;
}

export interface RateLimitState {
  /** The budget that runs out first: the token's ("sync", "read") or the user's ("sync-user", "read-user"). */
  policy: Policy;
  /** Whose budget that is. */
  whose: 'token' | 'user';
  limit: number;
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
  /** Both budgets, for RateLimit-Policy. */
  limits: Limits;
}

/**
 * Counts one request against a counter's fixed one-minute window and returns (count, reset).
 * The counters live in the database, so every server process on the same PostgreSQL shares
 * them; the row lock on a counter makes concurrent increments exact. `ids` is a query yielding
 * the id to count (none: nothing is counted).
 */
function countSql(counters: (typeof COUNTERS)[BudgetKind]['token' | 'user'], id: AnyPgColumn, ids: SQL): SQL {
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

/**
 * CTEs `token_counted` and `user_counted` (count, reset; no row when a budget is off) counting
 * one request of the token and user that `who` yields (columns token_id, user_id) against the
 * budgets of `limits`' kind.
 */
export function countCtes(who: SQL, limits: Limits): SQL {
  const none = sql`SELECT NULL::int AS count, NULL::int AS reset WHERE false`;
  const { token, user } = COUNTERS[limits.kind];
  return sql`
    token_counted AS (${limits.token > 0 ? countSql(token, token.tokenId, sql`SELECT token_id FROM (${who}) AS w`) : none}),
    user_counted AS (${limits.user > 0 ? countSql(user, user.userId, sql`SELECT user_id FROM (${who}) AS w`) : none})`;
}

/** countCtes for the write budgets (the write statements of lib/ingest/store.ts count with it). */
export const countWriteCtes = (who: SQL, limits: WriteLimits): SQL => countCtes(who, limits);

/** Columns token_count, token_reset, user_count, user_reset (after countCtes). */
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
export function rateLimitState(limits: Limits, row: CountedRow): RateLimitState | undefined {
  const policy = POLICIES[limits.kind];
  const budgets = [
    row.token_count === null ? null : { whose: 'token' as const, limit: limits.token, count: row.token_count, reset: Number(row.token_reset) },
    row.user_count === null ? null : { whose: 'user' as const, limit: limits.user, count: row.user_count, reset: Number(row.user_reset) },
  ].filter((b) => b !== null);
  if (budgets.length === 0) return undefined;
  const states = budgets.map((b) => ({
    policy: policy[b.whose],
    whose: b.whose,
    limit: b.limit,
    remaining: Math.max(0, b.limit - b.count),
    resetSeconds: b.reset,
    exceeded: b.count > b.limit,
    limits,
  }));
  // The exceeded one first (the one to wait for longest), else the one with the least room.
  return states.sort((a, b) => Number(b.exceeded) - Number(a.exceeded) || (a.exceeded ? b.resetSeconds - a.resetSeconds : a.remaining - b.remaining))[0];
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): both policies of the kind, and the tighter one's room. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const { kind, token, user } = state.limits;
  const policies = [
    token > 0 ? `"${POLICIES[kind].token}";q=${token};w=60` : null,
    user > 0 ? `"${POLICIES[kind].user}";q=${user};w=60` : null,
  ].filter(Boolean);
  return {
    'ratelimit-policy': policies.join(', '),
    ratelimit: `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

function rateLimited(state: RateLimitState): ApiError {
  const write = state.limits.kind === 'write';
  const what = write ? 'write requests' : 'requests other than activity writes';
  const whose = state.whose === 'token' ? 'with this token' : `for this account (all its tokens${write ? '' : ' and sessions'} together)`;
  return new ApiError('rate_limited', `More than ${state.limit} ${what} a minute ${whose}. Retry after ${state.resetSeconds} s.`, {
    headers: { 'retry-after': String(state.resetSeconds), ...rateLimitHeaders(state) },
  });
}

/** Whose budgets a request is counted against: its token (by hash; none for a session) and the token's user. */
export interface Budgeted {
  tokenHash?: string;
  userId?: string;
}

// The budgets this process found exceeded, per kind, token and user, with when their window
// resets: until then a request of theirs is refused before its body is read or the database
// asked, so that a client past its budget costs no more CPU than the 429. Each process keeps its
// own; the counters in the database stay the authority (a process that has not refused the
// principal yet asks them).
const refusals = new LRUCache<string, { state: RateLimitState; resetAt: number }>({ max: 10_000 });
/** The window's reset is known to the second, and a round trip late: refused early only until a second before. */
const RESET_MARGIN_MS = 1_000;

/** The memo's keys of a principal's two budgets of a kind (none for an unknown token or user). */
function refusalKeys(kind: BudgetKind, who: Budgeted): Record<'token' | 'user', string | undefined> {
  return {
    token: who.tokenHash && `${POLICIES[kind].token}:${who.tokenHash}`,
    user: who.userId && `${POLICIES[kind].user}:${who.userId}`,
  };
}

/** Throws the 429 when the counted state is past a budget, and remembers the refusal (knownRefusal). */
export function assertWithinLimit(state: RateLimitState | undefined, who: Budgeted): void {
  if (!state?.exceeded) return;
  const key = refusalKeys(state.limits.kind, who)[state.whose];
  if (key) refusals.set(key, { state, resetAt: Date.now() + state.resetSeconds * 1000 });
  throw rateLimited(state);
}

/**
 * The 429 for a token or user this process refused for a budget of `limits`' kind within the
 * same window (and under the same limit), or null: nothing known, ask the database. (A user
 * refused through a session is refused through their tokens too, and the other way round.)
 */
export function knownRefusal(who: Budgeted, limits: Limits): ApiError | null {
  const now = Date.now();
  const keys = refusalKeys(limits.kind, who);
  for (const key of [keys.token, keys.user]) {
    const refusal = key ? refusals.get(key) : undefined;
    if (!refusal) continue;
    const { state, resetAt } = refusal;
    if (now < resetAt - RESET_MARGIN_MS && state.limits[state.whose] === limits[state.whose]) {
      return rateLimited({ ...state, limits, remaining: 0, resetSeconds: Math.ceil((resetAt - now) / 1000) });
    }
    refusals.delete(key!);
  }
  return null;
}
