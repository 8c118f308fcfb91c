import { config } from '../config';
import { getDb, type Db } from '../db/client';
import { ApiError, errorResponse } from '../http/problem';
import { bearerToken } from './bearer';
import { secretsEqual } from './tokens';

/** Operator routes: Bearer ADMIN_TOKEN, compared in constant time; absent entirely when unset. */
export function withAdmin(handler: (ctx: { request: Request; db: Db }) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    try {
      const adminToken = config().ADMIN_TOKEN;
      if (!adminToken) throw new ApiError(404, 'not_found', 'No such route.');
      const presented = bearerToken(request);
      if (!secretsEqual(presented, adminToken)) {
        throw new ApiError(401, 'unauthorized', 'The admin token is wrong.', {
          headers: { 'www-authenticate': 'Bearer realm="codetally-admin", error="invalid_token"' },
        });
      }
      return await handler({ request, db: await getDb() });
    } catch (err) {
      return errorResponse(err);
    }
  };
}
