import { config } from '../config';
import { getDb, type Db } from '../db/client';
import { ApiError, errorResponse } from '../http/problem';
import { clientAddress } from '../http/origin';
import { attemptPolicies, limitedAttempt } from './attempts';
import { bearerToken } from './bearer';
import { secretsEqual } from './tokens';

/**
 * Operator routes: Bearer ADMIN_TOKEN, compared in constant time; absent entirely when unset.
 * Wrong tokens are limited per client address (lib/auth/attempts.ts), past which even the right
 * one waits: guessing is not worth it.
 */
export function withAdmin<P = Record<string, never>>(handler: (ctx: { request: Request; db: Db; params: P }) => Promise<Response>) {
  return async (request: Request, route?: { params: Promise<P> }): Promise<Response> => {
    try {
      const params = ((await route?.params) ?? {}) as P;
      const adminToken = config().ADMIN_TOKEN;
      if (!adminToken) throw new ApiError('not_found', 'No such route.');
      const presented = bearerToken(request);
      const db = await getDb();
      const counters = [{ policy: attemptPolicies.admin, subject: clientAddress(request.headers) }];
      if (!(await limitedAttempt(db, counters, async () => secretsEqual(presented, adminToken)))) {
        throw new ApiError('unauthorized', 'The admin token is wrong.', {
          headers: { 'www-authenticate': 'Bearer realm="codetally-admin", error="invalid_token"' },
        });
      }
      return await handler({ request, db, params });
    } catch (err) {
      return errorResponse(err);
    }
  };
}
