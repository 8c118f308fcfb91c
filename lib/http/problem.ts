// One error type for every answer that is not 2xx, and one mapper to RFC 9457 problem+json.
import { z } from 'zod';
import { failureLine, isDatabaseUnavailable, isTransientConflict } from '../db/errors';
import { errorCatalog, errorCodes, type ErrorCode } from './errors';

/** One problem of one field: `code` is zod's issue code or one of the catalog's field codes. */
export const fieldErrorSchema = z.object({
  index: z.number().int().optional(),
  path: z.string(),
  code: z.string(),
  message: z.string(),
});

export type FieldError = z.infer<typeof fieldErrorSchema>;

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.enum(errorCodes),
    detail: z.string(),
    errors: z.array(fieldErrorSchema).optional(),
  })
  .meta({
    id: 'Problem',
    description: 'RFC 9457 problem details; `type` links to the code on /docs/errors.',
    examples: [
      {
        type: '/docs/errors#invalid_payload',
        title: 'Invalid payload',
        status: 422,
        code: 'invalid_payload',
        detail: 'No activity in the batch was valid.',
        errors: [{ index: 0, path: 'hour', code: 'too_big', message: 'hour must be 0-23' }],
      },
    ],
  });

export const errorDocsBase = '/docs/errors';

/** An answer that is not 2xx: its status comes from the catalog entry of its code. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.status = errorCatalog[code].status;
  }
}

/** 400 invalid_query naming the parameter and the rule it broke. */
export function invalidQuery(param: string, rule: string): ApiError {
  const message = `${param}: ${rule}`;
  return new ApiError('invalid_query', message, { errors: [{ path: param, code: 'invalid_query', message }] });
}

export function problemBody(code: ErrorCode, detail: string, errors?: FieldError[]) {
  const { status, title } = errorCatalog[code];
  return {
    type: `${errorDocsBase}#${code}`,
    title,
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
  return new Response(JSON.stringify(problemBody(err.code, err.detail, err.extra.errors)), {
    status: err.status,
    headers,
  });
}

/** Turns anything thrown by a handler into an answer; unknown errors are logged, never echoed. */
export function errorResponse(err: unknown): Response {
  if (err instanceof ApiError) return problemResponse(err);
  if (isDatabaseUnavailable(err)) {
    console.error('[codetally] database unavailable:', failureLine(err));
    return problemResponse(
      new ApiError('unavailable', 'The database is not answering; nothing was written. Retry later.', {
        headers: { 'retry-after': '5' },
      }),
    );
  }
  if (isTransientConflict(err)) {
    console.warn('[codetally] statement rolled back by a conflict:', failureLine(err));
    return problemResponse(
      new ApiError('unavailable', 'A conflicting operation held the data; nothing was written. Retry.', {
        headers: { 'retry-after': '1' },
      }),
    );
  }
  console.error('[codetally] unhandled error:', err);
  return problemResponse(new ApiError('internal', 'Something went wrong on our side. Retry later.'));
}
