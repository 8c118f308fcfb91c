import type { z } from 'zod';
import { ApiError } from '../../http/problem';
import { sameOriginPath } from '../../http/url';

// Form answers of server actions: the same zod schemas as the API, errors keyed by field.

export interface FormState {
  ok?: boolean;
  message?: string;
  /** Field path (as in the API's `errors[].path`) to message. */
  fieldErrors?: Record<string, string>;
  /** What was submitted, so a refused form shows it again (React resets a form after its action). */
  values?: Record<string, unknown>;
  /** Whatever the action made that the form shows once (a new token). */
  result?: Record<string, unknown>;
}

/** A text field of a posted form, or undefined when it is missing or blank (the schema then says what it needs). */
export function formText(form: FormData, name: string): string | undefined {
  const v = form.get(name);
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** Runs the schema; on failure returns the form state with each field's first message. */
export function parseForm<T extends z.ZodType>(schema: T, value: unknown): { data: z.infer<T> } | { state: FormState } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { data: parsed.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) fieldErrors[issue.path.join('.')] ??= issue.message;
  return { state: { fieldErrors, message: 'Please correct the marked fields.', values: value as Record<string, unknown> } };
}

/** A domain error (422 with field errors, 404...) as form state; anything else is rethrown. */
export function formError(err: unknown, values?: Record<string, unknown>): FormState {
  if (!(err instanceof ApiError) || err.status >= 500) throw err;
  const fieldErrors: Record<string, string> = {};
  for (const e of err.extra.errors ?? []) fieldErrors[e.path] ??= e.message;
  return { fieldErrors, message: err.detail, values };
}

/** The submitted text of a field, for defaultValue after a refused submit. */
export function submitted(state: FormState | undefined, name: string): string | undefined {
  const v = state?.values?.[name];
  return typeof v === 'string' ? v : undefined;
}

/** Where to go after signing in: a path of the site at `origin` (sameOriginPath), else the dashboard. */
export function safeCallback(value: unknown, origin: string): string {
  return sameOriginPath(value, origin) ?? '/dashboard';
}

/**
 * Where a new account lands, signed in: where the visitor was going when sign-up interrupted
 * them (`next`, a same-site path: an invite link), else the dashboard's welcome, naming the
 * chosen plan's id, if any.
 */
export function welcomeLocation(planId?: string, next?: string | null): string {
  return next ?? `/dashboard?${new URLSearchParams({ welcome: '1', ...(planId && { plan: planId }) })}`;
}

/** Where a sign-up that did not sign in goes (the email had an account): the sign-in page, then `next` or the dashboard's welcome; with the chosen plan's id, if any. */
export function signedUpLocation(planId?: string, next?: string | null): string {
  const query = new URLSearchParams({ signedUp: '1', ...(planId && { plan: planId }), callbackUrl: next ?? '/dashboard?welcome=1' });
  return `/signin?${query}`;
}

/**
 * A sign-in or sign-up page's address that keeps where the visitor is going (`callbackUrl`,
 * already a same-site path) across the link between the two; the dashboard needs no mention.
 */
export function keepingCallback(page: '/signin' | '/signup', callbackUrl: string): string {
  return callbackUrl === '/dashboard' ? page : `${page}?${new URLSearchParams({ callbackUrl })}`;
}
