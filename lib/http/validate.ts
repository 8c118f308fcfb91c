import type { z } from 'zod';
import { ApiError, type FieldError } from './problem';

/** The stable error code of a zod issue: a refinement names its own in `params.code`. */
export function issueCode(issue: z.core.$ZodIssue): string {
  return issue.code === 'custom' ? ((issue.params as { code?: string } | undefined)?.code ?? 'invalid') : issue.code;
}

/** Parses a JSON body against a schema; every problem is named by field and rule (422). */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('malformed_json', 'The body must be a JSON object.');
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: FieldError[] = result.error.issues.map((i) => ({
    path: i.path.join('.'),
    code: issueCode(i),
    message: `${i.path.join('.') || 'body'}: ${i.message}`,
  }));
  throw new ApiError('invalid_payload', 'The request body is not valid.', { errors });
}
