import { authenticateHash, authenticateRead, unauthorized, withRate } from '../auth/bearer';
import { cachedPrincipal, type Principal } from '../auth/principal';
import { Admission, admittedInStatement, refuseKnownOverBudget } from '../auth/write-token';
import { hashToken, looksLikeToken, satisfies, type ScopeRule } from '../auth/tokens';
import { writeLimits } from '../config';
import { getDb, type Db } from '../db/client';
import { ApiError, errorResponse } from '../http/problem';
import { corsHeaders } from '../http/public';
import { assertWithinLimit, type RateLimitState } from '../http/rate-limit';

// The auth wrapper of the WakaTime-compatible routes (/api/wakatime/v1): the key as wakatime-cli
// and the plugins send it (Basic with the key as user name, Bearer with the key or, as Wakapi's
// users and its README's Prometheus example send it, with the key in base64, or ?api_key=), the user named
// in the path (`current`, or the key owner's own handle or id), and errors in WakaTime's shape,
// {"error": "..."}, with the status and headers the rest of the API would give.

export interface WakaContext extends Principal {
  request: Request;
  db: Db;
  /** The route's path parameters (`user`, and `range` on stats). */
  params: Record<string, string>;
  /** On the counted routes, when the key's principal is known: what the write statement checks and counts. */
  admission?: Admission;
  /**
   * The owner's data version as the statement that looked the key up read it (lib/auth/principal.ts),
   * what their cached figures key on (lib/stats/own-cache.ts); absent when the principal came from
   * memory (a write route's known key).
   */
  statsVersion?: number;
}

/** The key of a request, wherever wakatime-cli or a plugin put it; an empty `?api_key=` is none (README tools send one when they have no key). */
export function wakatimeKey(request: Request): string | null {
  const header = request.headers.get('authorization');
  if (header) {
    const [scheme, value = ''] = header.trim().split(/\s+/, 2);
    if (/^basic$/i.test(scheme)) {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      // base64(key), base64(key:) or base64(key:anything): the key is the user name.
      return decoded.split(':')[0];
    }
    if (/^bearer$/i.test(scheme)) return bearerKey(value);
  }
  return new URL(request.url).searchParams.get('api_key') || null;
}

/**
 * A Bearer value's key: the value itself, or, when it is no key but its base64 is one (Wakapi's
 * `Bearer base64(key)`), that. Decided by the form of the text alone, before any lookup, so no
 * value names two keys and the time taken says nothing a wrong key's does not.
 */
function bearerKey(value: string): string {
  if (looksLikeToken(value)) return value;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  return looksLikeToken(decoded) ? decoded : value;
}

/** An error answer in WakaTime's shape. */
export async function wakatimeError(err: unknown): Promise<Response> {
  const problem = errorResponse(err);
  const { detail } = (await problem.json()) as { detail: string };
  const headers = new Headers(problem.headers);
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify({ error: detail }), { status: problem.status, headers });
}

/**
 * The answer of a route anyone may read, made by `answer`, or its error in WakaTime's shape; both
 * readable from any origin.
 */
export async function publicWakatime(answer: () => Promise<Response>): Promise<Response> {
  try {
    return await answer();
  } catch (err) {
    const failed = await wakatimeError(err);
    for (const [name, value] of Object.entries(corsHeaders)) failed.headers.set(name, value);
    return failed;
  }
}

/** Whether the user named in the path is the key's own: `current`, or the owner's id or handle. */
const isOwnUser = (named: string, user: Principal['user']) => named === 'current' || named === user.id || named.toLowerCase() === user.handle.toLowerCase();

/** A key reaches its own user only. */
function assertOwnUser(named: string, user: Principal['user']): void {
  if (!isOwnUser(named, user)) throw new ApiError('forbidden', 'A key reaches its own user only: use "current".');
}

/** The answer a route with a public form gives for the user named in its path, as to a request without a key. */
export type PublicAnswer = (request: Request, params: Record<string, string>) => Promise<Response>;

/**
 * A WakaTime-compatible route for keys with `scope` (one scope, or any of several). `counted`:
 * the request counts against the write budgets (the heartbeat routes), as every write route's
 * does; a key this process knows is then checked and counted by the handler's write statement, as
 * the sync routes do (lib/auth/write-token.ts). Otherwise it counts against the read budgets, in
 * the statement that looks the key up (lib/auth/bearer.ts: authenticateRead). `others`: on a read
 * route with a public form (users/{user}, stats), a valid key of someone else than the user named
 * gets what a request without a key gets (that user's public figures, or the same 404), not a 403:
 * a README tool's key is often its owner's while it reads another's profile.
 */
export function withWakatimeKey(scope: ScopeRule, handler: (ctx: WakaContext) => Promise<Response>, options: { counted?: boolean; others?: PublicAnswer } = {}) {
  return async (request: Request, route?: { params?: Promise<Record<string, string>> }): Promise<Response> => {
    let rate: RateLimitState | undefined;
    try {
      const key = wakatimeKey(request);
      if (!key) throw unauthorized('Send your API key: Authorization: Basic base64(key), Bearer key, or ?api_key=key.');
      if (!looksLikeToken(key)) throw unauthorized('The API key is not a Codetally key.', 'invalid_token');
      const db = await getDb();
      const tokenHash = hashToken(key);
      const params = (await route?.params) ?? {};
      const named = params.user ?? 'current';
      const known = options.counted ? await cachedPrincipal(db, tokenHash) : undefined;
      if (options.counted) refuseKnownOverBudget(tokenHash, known);
      if (known && satisfies(known.token.scopes, scope)) {
        assertOwnUser(named, known.user);
        return await admittedInStatement(db, tokenHash, known, request, (ctx) => handler({ ...ctx, params }), wakatimeError);
      }
      const found = options.counted ? await authenticateHash(db, tokenHash, scope, writeLimits()) : await authenticateRead(db, tokenHash, scope);
      rate = found.rate;
      assertWithinLimit(rate, { tokenHash, userId: found.principal.user.id });
      if (options.others && !isOwnUser(named, found.principal.user)) return withRate(await options.others(request, params), rate);
      assertOwnUser(named, found.principal.user);
      return withRate(await handler({ ...found.principal, request, db, params, statsVersion: found.statsVersion }), rate);
    } catch (err) {
      return withRate(await wakatimeError(err), rate);
    }
  };
}

/** The Authorization header wakatime-cli sends with a key (Basic, the key in base64), as this service's requests to another carry it. */
export const basicAuth = (key: string): string => `Basic ${Buffer.from(key, 'utf8').toString('base64')}`;
