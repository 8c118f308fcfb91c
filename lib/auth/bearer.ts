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

interface RouteContext<P> {
  params?: Promise<P>;
}

const unauthorized = (detail: string, error?: string) =>
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
    let response: Response;
    try {
      const token = bearerToken(request);
      if (!looksLikeToken(token)) throw unauthorized('The token is not a Codetally token.', 'invalid_token');
      const db = await getDb();
      const found = await findPrincipal(
        db,
        hashToken(token),
        options.rateLimited ? { scope, limit: config().SYNC_RATE_LIMIT_PER_MINUTE } : undefined,
      );
      if (!found) throw unauthorized('The token is unknown or revoked.', 'invalid_token');
      const { principal, rate } = found;
      if (!principal.token.scopes.includes(scope)) {
        throw new ApiError(403, 'forbidden', `This route needs a token with the "${scope}" scope.`);
      }
      if (rate) extraHeaders = rateLimitHeaders(rate);
      assertWithinLimit(rate);
      const params = ((await route?.params) ?? {}) as P;
      response = await handler({ ...principal, request, db, params });
    } catch (err) {
      response = errorResponse(err);
    }
    for (const [name, value] of Object.entries(extraHeaders)) {
      if (!response.headers.has(name)) response.headers.set(name, value);
    }
    return response;
  };
}
