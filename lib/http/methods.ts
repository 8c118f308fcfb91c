import { REQUEST_BOUND_SECONDS, withinDeadline } from '../db/deadline';
import { observeRequest } from '../metrics/registry';
import { corsHeaders } from './public';
import { ApiError, errorResponse, problemResponse } from './problem';

// The methods of a route file, in one place: its handlers, a 405 problem (with the Allow header
// RFC 9110 asks for) for every other method, and OPTIONS. Next answers an unexported method
// with an empty 405 without Allow, and cannot represent TRACE or CONNECT at all: the service's
// own server (lib/server/front.ts) sends those to OPTIONS with this header naming the method.

export const UNSUPPORTED_METHOD_HEADER = 'x-codetally-unsupported-method';

const standard = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof standard)[number];
// Next passes a context whose params differ per route: each handler states its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's context must fit
type Handler = (request: Request, context: any) => Response | Promise<Response>;

type Handlers = Partial<Record<Method, Handler>>;
/** What a route file exports: its own handlers as they are, the other methods refused. */
export type RouteMethods<H extends Handlers> = H & Omit<Record<Method, Handler>, keyof H> & { OPTIONS: Handler };

/** 405 method_not_allowed naming the method and what is allowed. */
export function methodNotAllowed(method: string, allow: string): ApiError {
  return new ApiError('method_not_allowed', `${method} is not allowed here; this route allows ${allow}.`, { headers: { allow } });
}

/**
 * A handler whose work ends within REQUEST_BOUND_SECONDS (docs/security.md, "Every request ends within a bound"): every statement it
 * runs ends by then (lib/db/deadline.ts), each auth wrapper answering that in its own shape (503
 * with Retry-After); a moment later, whatever still waits gets that 503 here.
 */
function bounded(handler: Handler): Handler {
  return (request, context) =>
    withinDeadline(REQUEST_BOUND_SECONDS * 1000, async () => handler(request, context), 1000).catch((err: unknown) => errorResponse(err));
}

/**
 * A handler whose requests are counted and timed under `pattern`, the route's path as its file
 * names it (`/main/api/v1/public/charts/[userUUID]/[chart]`): Next tells a handler no pattern, and
 * the path asked for would put ids and handles in the metrics (lib/metrics/registry.ts).
 */
export function measured(pattern: string, handler: Handler): Handler {
  return async (request, context) => {
    const started = performance.now();
    let status = 500;
    try {
      const response = await handler(request, context);
      status = response.status;
      return response;
    } finally {
      // Next always passes the request; a caller of a handler that reads none may not.
      observeRequest(pattern, (request as Request | undefined)?.method ?? 'GET', status, (performance.now() - started) / 1000);
    }
  };
}

/**
 * The exports of a route file. `pattern`: the route's path as its file names it, under which its
 * requests are measured (`measured`; tests/api/metrics.test.ts checks each file's). `cors`: a
 * public route, readable from any origin, whose OPTIONS answers a browser's preflight. `upload`: a
 * route that receives a body for longer than the request bound (a data dump), whose statements
 * keep only their own bound.
 */
export function route<H extends Handlers>(given: H, options: { pattern: string; cors?: boolean; upload?: boolean }): RouteMethods<H> {
  const handlers = options.upload ? given : (Object.fromEntries(Object.entries(given).map(([m, h]) => [m, bounded(h!)])) as H);
  const methods = standard.filter((m) => handlers[m]);
  const allow = [...methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])), 'OPTIONS'].join(', ');
  const cors: Record<string, string> = options.cors ? corsHeaders : {};
  const refuse = (request: Request): Response => {
    const response = problemResponse(methodNotAllowed(request.headers.get(UNSUPPORTED_METHOD_HEADER) ?? request.method, allow));
    for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
    return response;
  };
  const OPTIONS = (request: Request): Response => {
    if (request.headers.has(UNSUPPORTED_METHOD_HEADER)) return refuse(request);
    // A browser sends a preflight when a request sets If-None-Match itself.
    const preflight = options.cors
      ? {
          ...cors,
          'access-control-allow-methods': allow,
          'access-control-allow-headers': 'If-None-Match',
          'access-control-max-age': '86400',
        }
      : {};
    return new Response(null, { status: 204, headers: { allow, ...preflight } });
  };
  const all: Record<string, Handler> = { GET: refuse, POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse, ...handlers, OPTIONS };
  return Object.fromEntries(Object.entries(all).map(([m, h]) => [m, measured(options.pattern, h)])) as RouteMethods<H>;
}
