import { RequestCookies } from '@edge-runtime/cookies';
import { sql } from 'drizzle-orm';
import { readLimits } from '../config';
import { getDb, preparedRows, type Db } from '../db/client';
import { siteOrigin } from '../http/origin';
import { ApiError, errorResponse } from '../http/problem';
import { assertWithinLimit, countCtes, countedColumns, knownRefusal, rateLimitState, type CountedRow, type RateLimitState } from '../http/rate-limit';
import { authenticateToken, unauthorized, withHeaders, withRate, type RouteContext } from './bearer';
import { sessionUser } from './session';
import { anyOf, type Scope, type ScopeRule } from './tokens';

// The account routes (/me...) accept either the browser session of the dashboard or a token
// with the `account` scope (the owner's own figures also with `stats`: OWN_FIGURES_SCOPES). A
// session request that changes something must come from this site. Either way the request counts
// against the read budgets (lib/http/rate-limit.ts): a token's against its own and its user's, a
// session's against the user's, as a cookie is replayed by a script as easily as a key.

/** The scopes that read the owner's own figures: the account's, or the stats reader's (which changes nothing). */
export const OWN_FIGURES_SCOPES: ScopeRule = ['account', 'stats'];

export interface AccountContext<P> {
  request: Request;
  db: Db;
  user: { id: string; handle: string; timezone: string };
  /** How the caller proved who they are. */
  via: 'session' | 'token';
  /** The token the request was made with (via 'token'). */
  tokenId?: string;
  /** That token's scopes (via 'token'). */
  scopes?: readonly Scope[];
  params: P;
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cookies ride along on cross-site requests, so a session-authenticated change must show it
 * started on this site: Sec-Fetch-Site: same-origin, or an Origin equal to the site's origin.
 */
export function assertSameSite(request: Request): void {
  if (safeMethods.has(request.method)) return;
  const site = request.headers.get('sec-fetch-site');
  if (site === 'same-origin') return;
  const origin = request.headers.get('origin');
  if (site === null && origin && URL.canParse(origin) && new URL(origin).host === new URL(siteOrigin(request.headers)).host) return;
  throw new ApiError('forbidden', 'Cross-site request refused: change your account from the dashboard or with a token.');
}

/**
 * Counts a session's request against its user's read budget (a session has no token budget):
 * 429 past it, before the database is asked when this process refused the user in this window.
 */
export async function countSessionRequest(db: Db, userId: string): Promise<RateLimitState | undefined> {
  const limits = { ...readLimits(), token: 0 };
  if (limits.user === 0) return undefined;
  const refusal = knownRefusal({ userId }, limits);
  if (refusal) throw refusal;
  const [row] = await preparedRows<CountedRow>(
    db,
    sql`WITH ${countCtes(sql`SELECT NULL::uuid AS token_id, ${userId}::uuid AS user_id`, limits)} SELECT ${countedColumns}`,
  );
  const rate = rateLimitState(limits, row);
  assertWithinLimit(rate, { userId });
  return rate;
}

export function withAccount<P = Record<string, never>>(handler: (ctx: AccountContext<P>) => Promise<Response>, scope: ScopeRule = 'account') {
  const run = async (request: Request, route?: RouteContext<P>): Promise<Response> => {
    let rate: RateLimitState | undefined;
    try {
      const params = ((await route?.params) ?? {}) as P;
      if (request.headers.has('authorization')) {
        const found = await authenticateToken(request, scope);
        rate = found.rate;
        const { principal, db } = found;
        return withRate(await handler({ request, db, user: principal.user, via: 'token', tokenId: principal.token.id, scopes: principal.token.scopes, params }), rate);
      }
      const user = await sessionUser(new RequestCookies(request.headers));
      if (!user) throw unauthorized(`Sign in, or send a token with the ${anyOf(scope).map((s) => `"${s}"`).join(' or ')} scope.`);
      assertSameSite(request);
      const db = await getDb();
      rate = await countSessionRequest(db, user.id);
      return withRate(await handler({ request, db, user, via: 'session', params }), rate);
    } catch (err) {
      return withRate(errorResponse(err), rate);
    }
  };
  // Account answers are for their owner only: no shared cache may keep them.
  return async (request: Request, route?: RouteContext<P>) => withHeaders(await run(request, route), { 'cache-control': 'private, no-store' });
}
