import { writeLimits } from '../config';
import { getDb, type Db } from '../db/client';
import { ApiError, errorResponse } from '../http/problem';
import { assertWithinLimit, rateLimitHeaders } from '../http/rate-limit';
import { Admission, unauthorized } from './admission';
import { cachedPrincipal, findPrincipal, type Principal } from './principal';
import { hashToken, looksLikeToken, type Scope } from './tokens';

export { unauthorized };

export interface TokenContext<P> extends Principal {
  request: Request;
  db: Db;
  params: P;
  /** Set when the token's check and the rate count are left to the request's write statement. */
  admission?: Admission;
}

export interface RouteContext<P> {
  params?: Promise<P>;
}

/** Reads `Authorization: Bearer <token>`; no handler reads the header itself. */
export function bearerToken(request: Request): string {
  const header = request.headers.get('authorization');
  if (!header) throw unauthorized('Send Authorization: Bearer <token>.');
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) throw unauthorized('The Authorization header must be "Bearer <token>".', 'invalid_request');
  return match[1];
}

function tokenHashOf(request: Request): string {
  const token = bearerToken(request);
  if (!looksLikeToken(token)) throw unauthorized('The token is not a Codetally token.', 'invalid_token');
  return hashToken(token);
}

/** Authenticates a Bearer token for a route needing `scope`: one lookup, revocation, scope, rate count. */
export function authenticateToken(request: Request, scope: Scope, rateLimited = false) {
  return authenticateHash(tokenHashOf(request), scope, rateLimited);
}

async function authenticateHash(tokenHash: string, scope: Scope, rateLimited: boolean) {
  const db = await getDb();
  const found = await findPrincipal(db, tokenHash, rateLimited ? { scope, limits: writeLimits() } : undefined);
  if (!found) throw unauthorized('The token is unknown or revoked.', 'invalid_token');
  if (!found.principal.token.scopes.includes(scope)) {
    throw new ApiError('forbidden', `This route needs a token with the "${scope}" scope.`);
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
      const tokenHash = tokenHashOf(request);
      if (options.rateLimited) {
        const admitted = await admittedFromMemory(tokenHash, request, scope, handler, route);
        if (admitted) return admitted;
      }
      const { principal, rate, db } = await authenticateHash(tokenHash, scope, options.rateLimited ?? false);
      if (rate) extraHeaders = rateLimitHeaders(rate);
      assertWithinLimit(rate);
      const params = ((await route?.params) ?? {}) as P;
      return withHeaders(await handler({ ...principal, request, db, params }), extraHeaders);
    } catch (err) {
      return withHeaders(errorResponse(err), extraHeaders);
    }
  };
}

/**
 * A rate-limited request whose token's principal this process knows: the handler runs at once
 * and its write statement checks the token and counts the request (lib/auth/admission.ts). If
 * the handler wrote nothing, the token is checked and the request counted here afterwards, and
 * a revoked token or a request past the limit gets 401 or 429 instead of the handler's answer
 * (which then changed nothing). Null when the principal is not known or lacks the scope.
 */
async function admittedFromMemory<P>(
  tokenHash: string,
  request: Request,
  scope: Scope,
  handler: (ctx: TokenContext<P>) => Promise<Response>,
  route?: RouteContext<P>,
): Promise<Response | null> {
  const db = await getDb();
  const principal = await cachedPrincipal(db, tokenHash);
  if (!principal?.token.scopes.includes(scope)) return null;
  const admission = new Admission(tokenHash, { tokenId: principal.token.id, timeZone: principal.user.timezone, limits: writeLimits() });
  let response: Response;
  try {
    const params = ((await route?.params) ?? {}) as P;
    response = await handler({ ...principal, request, db, params, admission });
  } catch (err) {
    response = errorResponse(err);
  }
  if (!admission.settled) {
    const { rate } = await authenticateHash(tokenHash, scope, true);
    admission.rate = rate;
    assertWithinLimit(rate);
  }
  return withHeaders(response, admission.rate ? rateLimitHeaders(admission.rate) : {});
}
