import { z } from 'zod';
import { createdUserSchema, createUserSchema, userSchema } from './accounts/schemas';
import { accountSchema, createTokenSchema, updateAccountSchema } from './accounts/me';
import { tokenSchema, issuedTokenSchema } from './accounts/tokens';
import { badgeSchema, createBadgeSchema } from './badges/schemas';
import { planListSchema } from './plans';
import { chartParameters, hitmapChartSchema, leaderboardSchema, languageChartSchema, timeChartSchema, weeklyChartSchema } from './stats/schemas';
import { ackSchema, desktopBatchSchema, desktopBucketSchema, ideBatchSchema, ideBucketSchema, problemSchema } from './ingest/schemas';

// openapi.json is generated from the same zod schemas that validate requests.

type Operation = Record<string, unknown>;

const ref = (schema: z.ZodType) => {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('every schema in openapi.json needs a meta id');
  return { $ref: `#/components/schemas/${id}` };
};

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref(problemSchema) } },
});

const rateHeaders = {
  RateLimit: { description: 'Remaining requests and seconds until the window resets: `"sync";r=<n>;t=<s>`.', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The write quota: `"sync";q=<per minute>;w=60`.', schema: { type: 'string' } },
};

const idempotencyHeader = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', maxLength: 255 },
  description:
    'Optional. Within 24 hours the same key with the same body replays the first answer (header `Idempotent-Replayed: true`) and stores nothing again; with another body: 422 `idempotency_key_reused`; while the first request runs: 409 `idempotency_in_progress`. Only successful answers are recorded.',
};

function writeOperation(summary: string, body: z.ZodType, status: '200' | '201', description: string): Operation {
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
      '400': problem('`malformed_json`: not JSON, not an object, or no `activities` array.'),
      '401': problem('`unauthorized`: missing, malformed, unknown or revoked token (with `WWW-Authenticate: Bearer`).'),
      '403': problem('`forbidden`: the token lacks the `sync` scope.'),
      '409': problem('`idempotency_in_progress`: a request with the same key is still running; retry.'),
      '413': problem('`payload_too_large`: body over 1 MiB or more than 1000 activities.'),
      '415': problem('`unsupported_media_type`: the body is not `application/json`.'),
      '422': problem('`invalid_payload` (nothing valid; `errors` lists each bucket\'s problems) or `idempotency_key_reused`.'),
      '429': problem('`rate_limited`: over the per-token write rate; honour `Retry-After`.'),
      '503': problem('`unavailable`: the database did not answer; nothing was written; honour `Retry-After`.'),
    },
  };
}

function publicGet(summary: string, description: string, body: z.ZodType, parameters: unknown[] = []): Operation {
  return {
    summary,
    parameters,
    description: `${description} Public: no token. Answers carry \`Access-Control-Allow-Origin: *\`, \`Cache-Control: public, s-maxage, stale-while-revalidate\` and a weak \`ETag\`; a matching \`If-None-Match\` gets 304.`,
    responses: {
      '200': { description: 'OK', headers: { ETag: { schema: { type: 'string' } } }, content: { 'application/json': { schema: ref(body) } } },
      '304': { description: 'Not modified: the If-None-Match ETag still matches.' },
      '400': problem('`invalid_query`: a bad query parameter, named in `errors`.'),
      '404': problem('`not_found`: unknown user, or one whose profile is not public.'),
      '503': problem('`unavailable`: the database did not answer.'),
    },
  };
}

const ok = (schema: z.ZodType) => ({ description: 'OK', content: { 'application/json': { schema: ref(schema) } } });

function accountOperation(summary: string, description: string, responses: Record<string, unknown>, body?: z.ZodType): Operation {
  return {
    summary,
    description: `${description} With the dashboard session or a token with the \`account\` scope; answers are \`Cache-Control: private, no-store\`.`,
    security: [{ session: [] }, { bearer: ['account'] }],
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(body) } } } } : {}),
    responses: {
      ...responses,
      '401': problem('`unauthorized`: no session and no token, or a bad token.'),
      '403': problem('`forbidden`: the token lacks `account`, or a session change came from another site.'),
    },
  };
}

const chartRules =
  'With `user`: that user\'s figures if their profile is public (404 otherwise, the same as for an unknown user); unshared languages or editors come back as empty lists; "today" is the user\'s timezone. Without `user`: site-wide figures (UTC) over users in community statistics; entries resting on fewer than PUBLIC_MIN_USERS users are left out (over several dates an entry counts the users of its busiest date, a lower bound of its distinct users). No figure counts more than 3600 s for one user in one date-hour. 400 `invalid_query` names the bad parameter.';

const bucketRules =
  'Buckets are validated one by one: valid ones are stored, invalid ones are reported in `rejected` (per-item `errors[].code`: `required`, `invalid_type`, `too_small`, `too_big`, `invalid_format`, `invalid_date`, `date_out_of_range`, `control_character`, `content_not_allowed`). A bucket carrying a field named content, body, text, diff, patch, clipboard, source, code or snippet (any case) is rejected: the service never receives file contents. `null` counts as absent for optional fields. The request is atomic.';

export function openApiDocument(): Record<string, unknown> {
  // Listing the schemas here registers them before the registry is read.
  void [ideBucketSchema, desktopBucketSchema, createUserSchema, createdUserSchema, planListSchema, timeChartSchema, badgeSchema, createBadgeSchema, accountSchema, updateAccountSchema, createTokenSchema, userSchema, tokenSchema, issuedTokenSchema];
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    uri: (id) => `#/components/schemas/${id}`,
    io: 'input',
    unrepresentable: 'any',
  }) as { schemas: Record<string, Record<string, unknown>> };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Codetally API',
      version: '1.0.0',
      description:
        'Aggregated coding activity from editor plugins and a desktop agent, and public reads of what users chose to share. All paths are under /main/api/v1. Errors are RFC 9457 problem details (`application/problem+json`) with a stable `code`; clients retry 5xx, 409 and 429 (honouring `Retry-After`) and network failures with back-off, and drop what another 4xx rejects. Write rate: `SYNC_RATE_LIMIT_PER_MINUTE` requests a minute per token (default 120) in fixed one-minute windows.',
    },
    servers: [{ url: '/main/api/v1' }],
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A Codetally token (`ct_...`), scopes sync, badges, account.' },
        admin: { type: 'http', scheme: 'bearer', description: 'The operator token ADMIN_TOKEN.' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'authjs.session-token',
          description: 'The dashboard\'s sign-in session (`__Secure-authjs.session-token` over HTTPS). A change made with it must come from this site (`Sec-Fetch-Site: same-origin` or a matching `Origin`), else 403.',
        },
      },
    },
    paths: {
      '/sync/activities': {
        post: writeOperation(
          'Store a batch of IDE buckets',
          ideBatchSchema,
          '200',
          `1 to 1000 buckets. Valid buckets with the same (date, hour, language, project_name, ide_name) are summed and added to what is stored. ${bucketRules}`,
        ),
      },
      '/sync/activities/desktop': {
        post: writeOperation(
          'Store a batch of desktop buckets',
          desktopBatchSchema,
          '200',
          `1 to 1000 buckets, grouped by (date, hour, platform, application). ${bucketRules}`,
        ),
      },
      '/activities': {
        post: writeOperation('Store one IDE bucket', ideBucketSchema, '201', `The body is one bucket. ${bucketRules}`),
      },
      '/activities/desktop': {
        post: writeOperation('Store one desktop bucket', desktopBucketSchema, '201', `The body is one bucket. ${bucketRules}`),
      },
      '/admin/users': {
        post: {
          summary: 'Provision a user and a first token',
          description: 'Answers 404 when ADMIN_TOKEN is not configured. Handles are unique regardless of case.',
          security: [{ admin: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: ref(createUserSchema) } } },
          responses: {
            '201': { description: 'The user and a token with scopes sync and badges, shown once.', content: { 'application/json': { schema: ref(createdUserSchema) } } },
            '401': problem('Wrong admin token.'),
            '404': problem('ADMIN_TOKEN is not set.'),
            '422': problem('`invalid_payload`: a field is invalid or the handle is taken (`handle_taken`).'),
          },
        },
      },
      '/me': {
        get: accountOperation('My account', 'The account with its settings, its email + password login (if any) and linked sign-in providers.', { '200': ok(accountSchema) }),
        patch: accountOperation(
          'Change my account',
          'Any of handle, display_name, timezone and the sharing settings; fields left out keep their value.',
          { '200': ok(userSchema), '422': problem('`invalid_payload`, naming the field; `handle_taken`.') },
          updateAccountSchema,
        ),
        delete: accountOperation('Delete my account', 'Removes the user and every row of theirs (tokens, activity, rollups, badges, sign-in). A session cookie is cleared.', {
          '204': { description: 'Deleted.' },
        }),
      },
      '/me/export': {
        get: accountOperation('Export all my data', 'One JSON document (a download): account, tokens (never their values), badges, every IDE and desktop bucket.', {
          '200': { description: 'JSON, `Content-Disposition: attachment`.' },
        }),
      },
      '/me/tokens': {
        get: accountOperation('List my tokens', 'Prefix, scopes, last use (written at most once a minute) and revocation; never the token.', {
          '200': { description: '`{tokens: [Token]}`', content: { 'application/json': { schema: { type: 'object', properties: { tokens: { type: 'array', items: ref(tokenSchema) } } } } } },
        }),
        post: accountOperation(
          'Create a token',
          'The token is in the answer once and only its hash is kept. Scopes default to sync and badges (what a plugin needs).',
          { '201': ok(issuedTokenSchema), '422': problem('`invalid_payload`, naming the field.') },
          createTokenSchema,
        ),
      },
      '/me/tokens/{id}': {
        delete: {
          ...accountOperation('Revoke a token', 'By id (or its shown prefix). A revoked token answers 401 from then on.', {
            '204': { description: 'Revoked.' },
            '404': problem('No live token of mine with that id.'),
          }),
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        },
      },
      '/get/public/time': {
        get: publicGet('Time aggregates', `${chartRules} Default range 7d.`, timeChartSchema, chartParameters),
      },
      '/get/public/language': {
        get: publicGet('Language distribution', `${chartRules} Default range 7d.`, languageChartSchema, chartParameters),
      },
      '/get/public/hitmaps': {
        get: publicGet('Activity hitmap', `${chartRules} Default range 365d; level 0-4 by the busiest day.`, hitmapChartSchema, chartParameters),
      },
      '/get/public/weekly': {
        get: publicGet('Weekly trend', `${chartRules} ISO weeks starting Monday, oldest first; the last is the current week so far.`, weeklyChartSchema, [
          chartParameters[0],
          { name: 'weeks', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 104, default: 12 } },
        ]),
      },
      '/leaderboard/api/get/public': {
        get: {
          ...publicGet(
            'Leaderboard snapshot',
            'Users who opted in, ranked by capped coding time over the range (7d or 30d, UTC dates), or by one language\'s time with `language` (then only users who share languages appear). Ties share a rank (1, 2, 2, 4). The snapshot may be up to LEADERBOARD_MAX_AGE seconds old; `generated_at` says when it was made. `languages` lists an entry\'s top languages only when its owner shares languages.',
            leaderboardSchema,
            [
              { name: 'range', in: 'query', required: false, schema: { type: 'string', enum: ['7d', '30d'], default: '7d' } },
              { name: 'language', in: 'query', required: false, schema: { type: 'string', maxLength: 64 } },
              { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
              { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
            ],
          ),
        },
      },
      '/badges': {
        post: {
          summary: 'Create a badge',
          description: 'Creating a badge is the owner\'s consent to publish exactly that figure (whatever the profile settings). Embed the returned `url` (or `markdown` / `html`); identifiers are never guessed. At most 50 badges per user.',
          security: [{ bearer: ['badges'] }],
          requestBody: { required: true, content: { 'application/json': { schema: ref(createBadgeSchema) } } },
          responses: {
            '201': { description: 'The badge and its embed snippets.', content: { 'application/json': { schema: ref(badgeSchema) } } },
            '401': problem('`unauthorized`.'),
            '403': problem('`forbidden`: the token lacks the `badges` scope.'),
            '422': problem('`invalid_payload`, naming the field.'),
          },
        },
        get: {
          summary: 'List my badges',
          security: [{ bearer: ['badges'] }],
          responses: { '200': { description: '`{badges: [Badge]}`' }, '401': problem('`unauthorized`.') },
        },
      },
      '/badges/{id}/refresh': {
        post: {
          summary: 'Recompute a badge and replace its cached image',
          security: [{ bearer: ['badges'] }],
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: { '200': { description: 'The badge.', content: { 'application/json': { schema: ref(badgeSchema) } } }, '404': problem('Not one of my badges.') },
        },
      },
      '/badges/{id}': {
        delete: {
          summary: 'Delete a badge; its URL answers 404 from then on',
          security: [{ bearer: ['badges'] }],
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: { '204': { description: 'Deleted.' }, '404': problem('Not one of my badges.') },
        },
      },
      '/public/{site}/svg/{userUUID}': {
        get: {
          summary: 'A badge as SVG',
          description: '`{site}` names where the badge is embedded (github, gitlab, ...) and does not change it. Without `badge`, the user\'s first badge. An unknown user, badge or style never breaks an embed: unknown badges answer 404 with a small valid SVG reading "badge not found"; an unknown style falls back to the badge\'s own. Cached (Cache-Control, ETag); a refresh, a delete or new data changes the image on the origin at once.',
          parameters: [
            { name: 'site', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'userUUID', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
            { name: 'badge', in: 'query', required: false, schema: { type: 'string', format: 'uuid' } },
            { name: 'style', in: 'query', required: false, schema: { type: 'string', enum: ['flat', 'flat-square', 'plastic', 'for-the-badge', 'social'] } },
          ],
          responses: { '200': { description: 'image/svg+xml' }, '304': { description: 'Not modified.' }, '404': { description: 'image/svg+xml reading "badge not found".' } },
        },
      },
      '/public/{site}/shields/{userUUID}': {
        get: {
          summary: 'A badge as shields.io endpoint JSON',
          description: '`{schemaVersion: 1, label, message, color, cacheSeconds}`; 404 with `isError: true` when there is no such badge.',
          parameters: [
            { name: 'site', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'userUUID', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
            { name: 'badge', in: 'query', required: false, schema: { type: 'string', format: 'uuid' } },
          ],
          responses: { '200': { description: 'shields.io endpoint JSON' }, '404': { description: 'shields.io endpoint JSON with isError.' } },
        },
      },
      '/get/list/plans': {
        get: publicGet(
          'Publicly listable plans for a pricing page',
          'In display order. `price.amount` in minor units (cents), `currency` ISO 4217, `interval` month, year or null (free). Checkout and payment confirmation are not public routes.',
          planListSchema,
        ),
      },
      '/health': {
        get: {
          summary: 'Health, including a database round trip',
          responses: {
            '200': { description: '`{"status":"ok","db":"ok"}`' },
            '503': { description: 'The database does not answer.' },
          },
        },
      },
      '/ping': { get: { summary: 'Liveness without a database round trip', responses: { '200': { description: '`{"status":"ok"}`' } } } },
      '/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1' } } } },
    },
  };
}
