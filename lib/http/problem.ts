// One error type for every answer that is not 2xx, and one mapper to RFC 9457 problem+json.

export interface FieldError {
  index?: number;
  path: string;
  code: string;
  message: string;
}

const titles: Record<string, string> = {
  malformed_json: 'Malformed JSON',
  invalid_query: 'Invalid query',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  idempotency_in_progress: 'Idempotent request in progress',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  invalid_payload: 'Invalid payload',
  idempotency_key_reused: 'Idempotency key reused',
  rate_limited: 'Too many requests',
  internal: 'Internal server error',
  unavailable: 'Service unavailable',
};

export const errorDocsBase = '/docs/errors';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: keyof typeof titles,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
  }
}

/** 400 invalid_query naming the parameter and the rule it broke. */
export function invalidQuery(param: string, rule: string): ApiError {
  const message = `${param}: ${rule}`;
  return new ApiError(400, 'invalid_query', message, { errors: [{ path: param, code: 'invalid_query', message }] });
}

export function problemBody(status: number, code: string, detail: string, errors?: FieldError[]) {
  return {
    type: `${errorDocsBase}#${code}`,
    title: titles[code] ?? 'Error',
    status,
    code,
    detail,
    ...(errors ? { errors } : {}),
  };
}

export function problemResponse(err: ApiError): Response {
  const headers = new Headers(err.extra.headers);
  headers.set('content-type', 'application/problem+json');
  headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(problemBody(err.status, err.code, err.detail, err.extra.errors)), {
    status: err.status,
    headers,
  });
}

// PostgreSQL connection-exception classes and shutdown codes, and the socket-level failures
// postgres.js reports: all mean "the database did not answer", never "the request was wrong".
const unavailableSqlStates = /^(08|57P0[1-3]|53300)/;
const unavailableErrnos = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

// A statement PostgreSQL rolled back to let a conflicting one through (deadlock, serialization
// failure, lock not available): nothing was written and the same request may simply be sent again.
const transientSqlStates = /^(40001|40P01|55P03)$/;

/** Whether any cause of `err` carries a code that `matches`. */
function hasCode(err: unknown, matches: (code: string) => boolean): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && matches(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return hasCode(err, (code) => unavailableErrnos.has(code) || unavailableSqlStates.test(code));
}

export function isTransientConflict(err: unknown): boolean {
  return hasCode(err, (code) => transientSqlStates.test(code));
}

/** The innermost cause: the driver's own words, without the query and its parameters. */
function rootMessage(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  for (let depth = 0; e?.cause && depth < 5; depth++) e = e.cause as typeof e;
  return e?.message ?? String(err);
}

/** Turns anything thrown by a handler into an answer; unknown errors are logged, never echoed. */
export function errorResponse(err: unknown): Response {
  if (err instanceof ApiError) return problemResponse(err);
  if (isDatabaseUnavailable(err)) {
    console.error('[codetally] database unavailable:', rootMessage(err));
    return problemResponse(
      new ApiError(503, 'unavailable', 'The database is not answering; nothing was written. Retry later.', {
        headers: { 'retry-after': '5' },
      }),
    );
  }
  if (isTransientConflict(err)) {
    console.warn('[codetally] statement rolled back by a conflict:', rootMessage(err));
    return problemResponse(
      new ApiError(503, 'unavailable', 'A conflicting operation held the data; nothing was written. Retry.', {
        headers: { 'retry-after': '1' },
      }),
    );
  }
  console.error('[codetally] unhandled error:', err);
  return problemResponse(new ApiError(500, 'internal', 'Something went wrong on our side. Retry later.'));
}
