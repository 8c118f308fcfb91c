import { readLimits } from '../config';
import { getDb, type Db } from '../db/client';
import { ApiError, errorResponse } from '../http/problem';
import { assertWithinLimit, knownRefusal, rateLimitHeaders, type Limits, type RateLimitState } from '../http/rate-limit';
import { findPrincipal, peekPrincipal, type Found, type Principal } from './principal';
import { anyOf, hashToken, looksLikeToken, satisfies, type Scope, type ScopeRule } from './tokens';

// The auth wrapper of every token-authenticated route that does not write activity (the write
// routes have their own, lib/auth/write-token.ts): the header is read, the token hashed and looked
// up once, its scope checked, the request counted against the read budgets of the token and its
// user by the same statement (lib/http/rate-limit.ts), and the handler gets a typed context.

export interface TokenContext<P> extends Principal {
  request: Request;
  db: Db;
  params: P;
}

export interface RouteContext<P> {
  params?: Promise<P>;
}

export const unauthorized = (detail: string, error?: string) =>
  new ApiError('unauthorized', detail, {
    headers: { 'www-authenticate': error ? `Bearer realm="codetally", error="${error}"` : 'Bearer realm="codetally"' },
  });

/** Reads `Authorization: Bearer <token>`; no handler reads the header itself. */
export function bearerToken(request: Request): string {
  const header = request.headers.get('authorization');
  if (!header) throw unauthorized('Send Authorization: Bearer <token>.');
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) throw unauthorized('The Authorization header must be "Bearer <token>".', 'invalid_request');
  return match[1];
}

/** The hash of the request's Codetally token (what the database stores). */
export function tokenHashOf(request: Request): string {
  const token = bearerToken(request);
  if (!looksLikeToken(token)) throw unauthorized('The token is not a Codetally token.', 'invalid_token');
  return hashToken(token);
}

/**
 * The live token with this hash, checked for `scope` (one scope, or any of several): 401 when
 * unknown or revoked, 403 without the scope. With `limits`, the same lookup counts the request
 * against the budgets of their kind.
 */
export async function authenticateHash(db: Db, tokenHash: string, scope: ScopeRule, limits?: Limits): Promise<Found> {
  const found = await findPrincipal(db, tokenHash, limits && { scope, limits });
  if (!found) throw unauthorized('The token is unknown or revoked.', 'invalid_token');
  if (!satisfies(found.principal.token.scopes, scope)) {
    throw new ApiError('forbidden', `This route needs a token with the ${anyOf(scope).map((s) => `"${s}"`).join(' or ')} scope.`);
  }
  return found;
}

/**
 * authenticateHash counting the request against the read budgets: 429 past one. A token (or its
 * user) this process refused in the current window is refused again before the database is asked.
 */
export async function authenticateRead(db: Db, tokenHash: string, scope: ScopeRule): Promise<Found> {
  const limits = readLimits();
  const refusal = knownRefusal({ tokenHash, userId: peekPrincipal(tokenHash)?.user.id }, limits);
  if (refusal) throw refusal;
  const found = await authenticateHash(db, tokenHash, scope, limits);
  assertWithinLimit(found.rate, { tokenHash, userId: found.principal.user.id });
  return found;
}

/** Authenticates the request's Bearer token for a route needing `scope` (one scope, or any of several), counted as a read. */
export async function authenticateToken(request: Request, scope: ScopeRule): Promise<Found & { db: Db }> {
  const tokenHash = tokenHashOf(request);
  const db = await getDb();
  return { ...(await authenticateRead(db, tokenHash, scope)), db };
}

/** Copies headers an auth wrapper computed (rate limits) onto the handler's answer unless it set them. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}

/** The RateLimit fields of a counted request (none when it was not counted) onto its answer. */
export const withRate = (response: Response, rate: RateLimitState | undefined): Response => withHeaders(response, rate ? rateLimitHeaders(rate) : {});

/** A route for tokens with `scope`; whatever the handler throws becomes a problem+json answer. */
export function withToken<P = Record<string, never>>(scope: Scope, handler: (ctx: TokenContext<P>) => Promise<Response>) {
  return async (request: Request, route?: RouteContext<P>): Promise<Response> => {
    let rate: RateLimitState | undefined;
    try {
      const found = await authenticateToken(request, scope);
      rate = found.rate;
      const params = ((await route?.params) ?? {}) as P;
      return withRate(await handler({ ...found.principal, request, db: found.db, params }), rate);
    } catch (err) {
      return withRate(errorResponse(err), rate);
    }
  };
}
