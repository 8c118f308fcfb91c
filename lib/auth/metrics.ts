import { config } from '../config';
import { ApiError, errorResponse } from '../http/problem';
import { bearerToken } from './bearer';
import { secretsEqual } from './tokens';

/**
 * The metrics route's caller (GET /metrics): Bearer METRICS_TOKEN, compared in constant time;
 * absent entirely (404, as any unknown path) when unset. Unlike the admin token, a wrong one is not
 * counted in the database: the metrics must answer while the database does not, and a token of
 * 16 characters or more is not guessed one request at a time.
 */
export function withMetricsToken(handler: () => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    try {
      const metricsToken = config().METRICS_TOKEN;
      if (!metricsToken) throw new ApiError('not_found', 'No such route.');
      if (!secretsEqual(bearerToken(request), metricsToken)) {
        throw new ApiError('unauthorized', 'The metrics token is wrong.', {
          headers: { 'www-authenticate': 'Bearer realm="codetally-metrics", error="invalid_token"' },
        });
      }
      return await handler();
    } catch (err) {
      return errorResponse(err);
    }
  };
}
