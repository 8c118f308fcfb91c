import { config } from '../config';
import { getDb, type Db } from '../db/client';
import { ApiError, errorResponse } from '../http/problem';
import { assertWithinLimit, rateLimitHeaders } from '../http/rate-limit';
import { findPrincipal, type Principal } from './principal';
import { hashToken, looksLikeToken, type Scope } from './tokens';

export interface TokenContext<P> extends Principal {
  request: Request;
  db: Db;
  params: P;
}

export interface RouteContext<P> {
  params?: Promise<P>;
}

export const unauthorized = (detail: string, error?: string) =>
  new ApiError(401, 'unauthorized', detail, {
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

/** Authenticates a Bearer token for a route needing `scope`: one lookup, revocation, scope, rate count. */
export async function authenticateToken(request: Request, scope: Scope, rateLimited = false) {
  const token = bearerToken(request);
  if (!looksLikeToken(token)) throw unauthorized('The token is not a Codetally token.', 'invalid_token');
  const db = await getDb();
  const found = await findPrincipal(db, hashToken(token), rateLimited ? { scope, limit: config().SYNC_RATE_LIMIT_PER_MINUTE } : undefined);
  if (!found) throw unauthorized('The token is unknown or revoked.', 'invalid_token');
  if (!found.principal.token.scopes.includes(scope)) {
    throw new ApiError(403, 'forbidden', `This route needs a token with the "${scope}" scope.`);
  }
  return { ...found, db };
}

/** Copies headers the wrapper computed (rate limits) onto the handler's answer unless it set them. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}

/**
 * The one wrapper for every token-authenticated route: parses the header, hashes and looks up
 * the token once, checks revocation and scope, counts the write rate when asked, and hands the
 * handler a typed context. Whatever the handler throws becomes a problem+json answer.
 */
export function withToken<P = Record<string, never>>(
  scope: Scope,
  handler: (ctx: TokenContext<P>) => Promise<Response>,
  options: { rateLimited?: boolean } = {},
) {
  return async (request: Request, route?: RouteContext<P>): Promise<Response> => {
    let extraHeaders: Record<string, string> = {};
    try {
      const { principal, rate, db } = await authenticateToken(request, scope, options.rateLimited);
      if (rate) extraHeaders = rateLimitHeaders(rate);
      assertWithinLimit(rate);
      const params = ((await route?.params) ?? {}) as P;
      return withHeaders(await handler({ ...principal, request, db, params }), extraHeaders);
    } catch (err) {
      return withHeaders(errorResponse(err), extraHeaders);
    }
  };
}
