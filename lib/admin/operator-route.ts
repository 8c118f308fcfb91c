import { RequestCookies } from '@edge-runtime/cookies';
import { withAdmin } from '../auth/admin';
import { assertSameSite, countSessionRequest } from '../auth/account';
import { withHeaders, type RouteContext } from '../auth/bearer';
import { sessionUser } from '../auth/session';
import { getDb, type Db } from '../db/client';
import { ApiError, errorResponse } from '../http/problem';
import { operatorHandle } from './operators';

// The operator routes (/admin/flags, /admin/audit, /admin/users?q=, /admin/users/{handle}/hide):
// the ADMIN_TOKEN holder (Bearer, through withAdmin), or an operator signed in (their session:
// changes only from this site, counted against their read budget). Anyone else gets 404, as if
// the route did not exist. Answers are never kept by a shared cache.

export interface OperatorContext<P> {
  request: Request;
  db: Db;
  params: P;
  /** Who acts, for the audit log: the operator's handle, or `admin-token`. */
  operator: string;
}

export function withOperator<P = Record<string, never>>(handler: (ctx: OperatorContext<P>) => Promise<Response>) {
  const byToken = withAdmin<P>(({ request, db, params }) => handler({ request, db, params, operator: 'admin-token' }));
  const run = async (request: Request, route?: RouteContext<P>): Promise<Response> => {
    if (request.headers.has('authorization')) return byToken(request, route as { params: Promise<P> } | undefined);
    try {
      const params = ((await route?.params) ?? {}) as P;
      const user = await sessionUser(new RequestCookies(request.headers));
      const db = await getDb();
      const operator = user && (await operatorHandle(db, user.id));
      if (!user || !operator) throw new ApiError('not_found', 'No such route.');
      assertSameSite(request);
      await countSessionRequest(db, user.id);
      return await handler({ request, db, params, operator });
    } catch (err) {
      return errorResponse(err);
    }
  };
  return async (request: Request, route?: RouteContext<P>) => withHeaders(await run(request, route), { 'cache-control': 'private, no-store' });
}
