import type { z } from 'zod';
import { accountsAnswerSchema, accountsQuerySchema, auditAnswerSchema, flagsAnswerSchema, handleQuerySchema, hiddenSchema, hideAnswerSchema, hideSchema } from '../admin/schemas';
import { queryParameters } from '../http/query';
import { ref } from './components';
import { always, jsonBody, problems } from './operations';

// Leaderboards people can trust, in openapi.json: the operators' flags, hides, audit log and
// account search. Operators: the ADMIN_TOKEN holder, or an operator's session (ADMIN_EMAILS,
// `npm run admin -- grant-operator`); to anyone else these routes do not exist (404).

export const trustRoots: z.ZodType[] = [hideSchema, hiddenSchema, hideAnswerSchema, flagsAnswerSchema, auditAnswerSchema, accountsAnswerSchema];

const security = [{ admin: [] }, { session: [] }];
const refused = {
  unauthorized: 'wrong admin token.',
  rate_limited: 'too many wrong admin tokens from this address, or the session is over its read budget; honour `Retry-After`.',
};
const notOperator = 'not an operator (or ADMIN_TOKEN unset and no operator session): the route does not exist for the caller.';
const handleParameter = { name: 'handle', in: 'path', required: true, schema: { type: 'string' }, description: "The user's handle, in any case." };
const ok = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema: ref(schema) } } });

/** GET /admin/users?q=: merged into the path's POST (document.ts). */
export const findAccountsOperation = {
  summary: 'Find accounts (operators)',
  description:
    'At most 50 accounts whose handle or sign-in address contains `q` (any case), newest first; the newest 50 without `q`. Each with its plan, when it was made, its last heartbeat, how many signals it raised and its hide, if any.',
  security,
  parameters: queryParameters(accountsQuerySchema),
  responses: {
    '200': ok('The accounts found.', accountsAnswerSchema),
    ...problems({ ...refused, invalid_query: '`q` over 100 characters.', not_found: notOperator, ...always }),
  },
};

export function trustPaths() {
  return {
    '/admin/flags': {
      get: {
        summary: 'The signals raised (operators)',
        description:
          'Newest first, at most 200. Signals come from what is already kept, never from addresses, fingerprints or content: `hours_per_day` (more than 20 coded hours in one of the user\'s days), `heartbeats_per_day` (more than 30 000 heartbeats in a UTC day), `machines_per_hour` (time from more than 3 machines in one hour), `exact_interval` (heartbeats from one machine at one exact interval for more than 8 hours). Every server process scans whoever wrote since the last scan once a minute; this route scans first. A flag holds a handle, a day and a figure only.',
        security,
        responses: { '200': ok('The flags.', flagsAnswerSchema), ...problems({ ...refused, not_found: notOperator, ...always }) },
      },
    },
    '/admin/users/{handle}/hide': {
      post: {
        summary: 'Hide an account from public boards (operators)',
        description:
          'The user leaves the public leaderboard, `/leaders` and every site-wide figure at once, on every process, until `until` or DELETE; their own figures, profile and private boards stay. Their dashboard and `GET /me` (`leaderboard_hidden`) say why and until when. Hiding a hidden account replaces its reason and end. Written to the audit log.',
        security,
        parameters: [handleParameter],
        requestBody: { required: true, content: { 'application/json': { schema: ref(hideSchema) } } },
        responses: {
          '200': ok('The account is hidden.', hideAnswerSchema),
          ...problems({ ...jsonBody, ...refused, forbidden: 'a session request from another site.', invalid_payload: 'naming `reason` or `until` (not in the future).', not_found: `${notOperator} Or no user has this handle.`, ...always }),
        },
      },
      delete: {
        summary: 'Show a hidden account again (operators)',
        description: 'Ends the hide at once (a user not hidden: nothing changes). Written to the audit log when it ended a hide.',
        security,
        parameters: [handleParameter],
        responses: {
          '204': { description: 'The account is not hidden.' },
          ...problems({ ...refused, forbidden: 'a session request from another site.', not_found: `${notOperator} Or no user has this handle.`, ...always }),
        },
      },
    },
    '/admin/audit': {
      get: {
        summary: 'The audit log (operators)',
        description:
          'Every operator action, newest first, at most 200; of one handle with `handle`. `operator` is the operator\'s handle, `admin-token`, `admin-cli` or `automatic`. Handles, reasons and dates only: never an address.',
        security,
        parameters: queryParameters(handleQuerySchema),
        responses: { '200': ok('The entries.', auditAnswerSchema), ...problems({ ...refused, invalid_query: '`handle` over 64 characters.', not_found: notOperator, ...always }) },
      },
    },
  };
}
