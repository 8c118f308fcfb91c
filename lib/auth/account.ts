import { RequestCookies } from '@edge-runtime/cookies';
import { getDb, type Db } from '../db/client';
import { siteOrigin } from '../http/origin';
import { ApiError, errorResponse } from '../http/problem';
import { authenticateToken, unauthorized, withHeaders, type RouteContext } from './bearer';
import { sessionUser } from './session';
import { anyOf, type ScopeRule } from './tokens';

// The account routes (/me...) accept either the browser session of the dashboard or a token
// with the `account` scope (the owner's own figures also with `stats`: OWN_FIGURES_SCOPES). A
// session request that changes something must come from this site.

/** The scopes that read (and set goals on) the owner's own figures: the account's, or the stats reader's. */
export const OWN_FIGURES_SCOPES: ScopeRule = ['account', 'stats'];

export interface AccountContext<P> {
  request: Request;
  db: Db;
  user: { id: string; handle: string; timezone: string };
  /** How the caller proved who they are. */
  via: 'session' | 'token';
  /** The token the request was made with (via 'token'). */
  tokenId?: string;
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

export function withAccount<P = Record<string, never>>(handler: (ctx: AccountContext<P>) => Promise<Response>, scope: ScopeRule = 'account') {
  const run = async (request: Request, route?: RouteContext<P>): Promise<Response> => {
    try {
      const params = ((await route?.params) ?? {}) as P;
      if (request.headers.has('authorization')) {
        const { principal, db } = await authenticateToken(request, scope);
        return await handler({ request, db, user: principal.user, via: 'token', tokenId: principal.token.id, params });
      }
      const user = await sessionUser(new RequestCookies(request.headers));
      if (!user) throw unauthorized(`Sign in, or send a token with the ${anyOf(scope).map((s) => `"${s}"`).join(' or ')} scope.`);
      assertSameSite(request);
      return await handler({ request, db: await getDb(), user, via: 'session', params });
    } catch (err) {
      return errorResponse(err);
    }
  };
  // Account answers are for their owner only: no shared cache may keep them.
  return async (request: Request, route?: RouteContext<P>) => withHeaders(await run(request, route), { 'cache-control': 'private, no-store' });
}
