import type { z } from 'zod';
import { anyOf, type ScopeRule } from '../auth/tokens';
import { errorCatalog, type ErrorCode } from '../http/errors';
import { problemSchema } from '../http/problem';
import { ackSchema } from '../ingest/schemas';
import { wakaErrorSchema } from '../wakatime/schemas';
import { ref } from './components';

// The kinds of operation of openapi.json, each with what it may answer: a write of buckets, a
// public read, an account route; and the problem answers of an operation by status.

export type Operation = Record<string, unknown>;

/**
 * An operation's problem answers, grouped under the status the catalog gives each code. A note
 * says what the code means on this operation; an empty one takes the catalog's meaning.
 */
export function problems(notes: Partial<Record<ErrorCode, string>>, shape: 'problem' | 'wakatime' = 'problem'): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of Object.keys(notes) as ErrorCode[]) {
    const { status } = errorCatalog[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => {
      const description = codes.map((code) => `\`${code}\`: ${notes[code] || errorCatalog[code].meaning}`).join(' ');
      // The WakaTime-compatible routes answer the same errors in WakaTime's shape.
      if (shape === 'wakatime') return [String(status), { description, content: { 'application/json': { schema: ref(wakaErrorSchema) } } }];
      const schema = { allOf: [ref(problemSchema), { properties: { code: { enum: codes } } }] };
      return [String(status), { description, content: { 'application/problem+json': { schema } } }];
    }),
  );
}

/** What every route may answer: another method, and a database that does not answer. */
export const always = {
  method_not_allowed: 'another method; `Allow` lists this route\'s.',
  unavailable: 'the database did not answer in time; nothing was written; honour `Retry-After`.',
  internal: '',
};

/** What every route that reads a JSON body may answer about it. */
export const jsonBody = { malformed_json: '', payload_too_large: 'the body is over 1 MiB.', unsupported_media_type: '' };

export const rateHeaders = {
  RateLimit: { description: 'The budget that runs out first, its remaining requests and seconds until its window resets: `"sync";r=<n>;t=<s>` or `"sync-user";r=<n>;t=<s>`.', schema: { type: 'string' } },
  'RateLimit-Policy': {
    description: 'The write quotas, per token and per account: `"sync";q=<per minute>;w=60, "sync-user";q=<per minute>;w=60`.',
    schema: { type: 'string' },
  },
};

/**
 * What a route counted against the read budgets may answer past them: every route a token or the
 * dashboard session opens, except the activity writes (lib/http/rate-limit.ts).
 */
export const readRateNote =
  'over the read rate (every request but activity writes) of the token (`read`: READ_RATE_LIMIT_PER_MINUTE) or of its account, all tokens and sessions together (`read-user`); honour `Retry-After`. Answers counted carry `RateLimit` (`"read";r=<n>;t=<s>` or `"read-user";r=<n>;t=<s>`) and `RateLimit-Policy` (`"read";q=<per minute>;w=60, "read-user";q=<per minute>;w=60`; a session\'s, `"read-user"` only).';

/** `notes` with the read rate's 429: an operation's own meaning of `rate_limited`, if any, first. */
export const withReadRate = (notes: Partial<Record<ErrorCode, string>>): Partial<Record<ErrorCode, string>> => ({
  ...notes,
  rate_limited: notes.rate_limited ? `${notes.rate_limited} Or ${readRateNote}` : readRateNote,
});

const idempotencyHeader = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', maxLength: 255 },
  description:
    'Optional. Within 24 hours the same key with the same body replays the first answer (header `Idempotent-Replayed: true`) and stores nothing again; with another body: 422 `idempotency_key_reused`; while the first request runs: 409 `idempotency_in_progress`. Only successful answers are recorded.',
};

export function writeOperation(summary: string, body: z.ZodType, status: '200' | '201', description: string): Operation {
  return {
    summary,
    description,
    security: [{ bearer: ['sync'] }],
    parameters: [idempotencyHeader],
    requestBody: { required: true, content: { 'application/json': { schema: ref(body) } } },
    responses: {
      [status]: {
        description: 'Acknowledgement: valid buckets were stored; invalid ones are listed in `rejected` with reasons.',
        headers: { ...rateHeaders, 'Idempotent-Replayed': { schema: { type: 'string', enum: ['true'] } } },
        content: { 'application/json': { schema: ref(ackSchema) } },
      },
      ...problems({
        malformed_json: 'not JSON, not an object, or no `activities` array.',
        unauthorized: 'missing, malformed, unknown or revoked token (with `WWW-Authenticate: Bearer`).',
        forbidden: 'the token lacks the `sync` scope.',
        idempotency_in_progress: 'a request with the same key is still running; retry.',
        payload_too_large: 'body over 1 MiB or more than 1000 activities.',
        unsupported_media_type: 'the body is not `application/json`.',
        invalid_payload: 'nothing valid; `errors` lists each bucket\'s problems.',
        idempotency_key_reused: '',
        rate_limited: 'over the write rate of the token (`sync`) or of its account, all tokens together (`sync-user`); honour `Retry-After`.',
        ...always,
      }),
    },
  };
}

/** What a public read about a user may answer besides its figures. */
export const publicRead = {
  invalid_query: 'a bad query parameter, named in `errors`.',
  not_found: 'unknown user, or one whose profile is not public.',
};

export function publicGet(summary: string, description: string, body: z.ZodType, parameters: unknown[] = [], notes: Partial<Record<ErrorCode, string>> = publicRead): Operation {
  return {
    summary,
    parameters,
    description: `${description} Public: no token. Answers carry \`Access-Control-Allow-Origin: *\`, \`Cache-Control: public, s-maxage, stale-while-revalidate\` and a weak \`ETag\`; a matching \`If-None-Match\` gets 304.`,
    responses: {
      '200': { description: 'OK', headers: { ETag: { schema: { type: 'string' } } }, content: { 'application/json': { schema: ref(body) } } },
      '304': { description: 'Not modified: the If-None-Match ETag still matches.' },
      ...problems({ ...notes, ...always }),
    },
  };
}

export const ok = (schema: z.ZodType) => ({ description: 'OK', content: { 'application/json': { schema: ref(schema) } } });
export const svg = (description: string) => ({ description, content: { 'image/svg+xml': { schema: { type: 'string' } } } });

/**
 * An operation taken with the dashboard session or a token with one of `scope`'s scopes; its
 * answers private, never cached. `lead` opens the sentence that says so ("With" by default).
 */
export function sessionOperation(
  summary: string,
  description: string,
  responses: Record<string, unknown>,
  notes: Partial<Record<ErrorCode, string>> = {},
  extra: { body?: z.ZodType; parameters?: unknown[]; scope?: ScopeRule; lead?: string } = {},
): Operation {
  const scopes = anyOf(extra.scope ?? 'account');
  const named = scopes.map((s) => `\`${s}\``);
  return {
    summary,
    description: `${description} ${extra.lead ?? 'With'} the dashboard session or a token with the ${named.join(' or ')} scope; answers are \`Cache-Control: private, no-store\`.`,
    security: [{ session: [] }, ...scopes.map((s) => ({ bearer: [s] }))],
    ...(extra.parameters ? { parameters: extra.parameters } : {}),
    ...(extra.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(extra.body) } } } } : {}),
    responses: {
      ...responses,
      ...problems({
        unauthorized: 'no session and no token, or a bad token.',
        forbidden: `${named.length === 1 ? `the token lacks ${named[0]}` : `the token has neither ${named.join(' nor ')}`}, or a session change came from another site.`,
        ...always,
        ...withReadRate(notes),
      }),
    },
  };
}

/** An operation for the dashboard session or a token with the `account` scope. */
export const accountOperation = (summary: string, description: string, responses: Record<string, unknown>, notes: Partial<Record<ErrorCode, string>> = {}, body?: z.ZodType): Operation =>
  sessionOperation(summary, description, responses, notes, { body });
