import type { z } from 'zod';
import { createdUserSchema, createUserSchema, userSchema } from '../accounts/schemas';
import { accountSchema, createTokenSchema, updateAccountSchema } from '../accounts/me';
import { issuedTokenSchema, tokenListSchema, tokenSchema } from '../accounts/tokens';
import { healthSchema } from '../health';
import { badgeListSchema, badgeQuerySchema, badgeSchema, createBadgeSchema, shieldsSchema } from '../badges/schemas';
import { chartImageQuerySchema, chartImages } from '../charts/schemas';
import { queryParameters } from '../http/query';
import { scopes, scopeTexts } from '../auth/tokens';
import { leaderboardQuerySchema } from '../stats/leaderboard/query';
import { planListSchema } from '../plans';
import { chartQueries, hitmapChartSchema, leaderboardSchema, languageChartSchema, timeChartSchema, weeklyChartSchema } from '../stats/schemas';
import { ackSchema, desktopBatchSchema, desktopBucketSchema, ideBatchSchema, ideBucketSchema } from '../ingest/schemas';
import { problemSchema } from '../http/problem';
import { heartbeatSchema } from '../wakatime/sending/heartbeat-input';
import { importListSchema, importSchema, wakatimeDumpSchema } from '../wakatime/importing/import-status';
import { unsubscribedSchema, unsubscribeQuerySchema } from '../mail/unsubscribe';
import {
  allTimeSchema,
  bulkAnswerSchema,
  heartbeatAnswerSchema,
  projectsSchema,
  machineNamesSchema,
  oneProjectSchema,
  commitsSchema,
  metaSchema,
  namedListSchema,
  leadersSchema,
  dayHeartbeatsSchema,
  durationsSchema,
  userAgentsSchema,
  wakaTeamsSchema,
  wakaOrgsSchema,
  wakaDashboardsSchema,
  wakaMembersSchema,
  statsSchema,
  statusBarSchema,
  summariesSchema,
  wakaErrorSchema,
  wakaUserSchema,
} from '../wakatime/schemas';
import { componentSchemas, idOf, namedSchemas, ref } from './components';
import { accountOperation, always, jsonBody, ok, problems, publicGet, publicRead, readRateNote, svg, writeOperation } from './operations';
import { wakatimePaths } from './wakatime';
import { figuresPaths, figuresRoots, wakatimeGoalPaths } from './figures';
import { planLimitNote, planPaths, planRoots } from './plans';
import { findAccountsOperation, trustPaths, trustRoots } from './trust';
import { projectPaths, projectRoots } from './projects';
import { remoteImportPaths, remoteImportRoots } from './remote-imports';
import { wakapiBadgePaths, wakapiBadgeRoots } from './wakapi-badges';
import { leaderboardPaths, leaderboardRoots } from './leaderboards';
import { teamPaths, teamRoots } from './teams';
import { relayPaths, relayRoots } from './relays';

// openapi.json is generated from the same zod schemas that validate requests.

const chartRules =
  'With `user`: that user\'s figures if their profile is public (404 otherwise, the same as for an unknown user, or for a reference that cannot be a handle or id); unshared languages or editors come back as empty lists; "today" is the user\'s timezone. Without `user`: site-wide figures (UTC) over users in community statistics, summed from cells (a date, or a date and a language, editor or hour): a cell counts only if at least PUBLIC_MIN_USERS users are behind it on that date, and what is published of it is its figure plus noise (Laplace, scale PUBLIC_NOISE_SECONDS, growing with each release of the cell), rounded to whole minutes and drawn once per release, so the same question always gets the same answer. A cell is released again at most once per PUBLIC_CACHE_SECONDS when its figure changed. `suppressed` is true when no day of the range may be shown. No figure counts more than 3600 s for one user in one date-hour. 400 `invalid_query` names the bad parameter; dates run from 0001-01-01.';

const bucketRules =
  'Buckets are validated one by one: valid ones are stored, invalid ones are reported in `rejected` (per-item `errors[].code`: `required`, `invalid_type`, `too_small`, `too_big`, `invalid_format`, `invalid_date`, `date_out_of_range`, `control_character`, `unpaired_surrogate`, `format_character`, `content_not_allowed`). Text must be well-formed Unicode without control characters (C0, DEL, C1); names that are stored and shown (language, project_name, ide_name, platform, program_name, a desktop filename) also refuse invisible and text-direction characters (zero-width spaces, bidi overrides and isolates; ZWJ and ZWNJ are allowed). A bucket carrying a field named content, body, text, diff, patch, clipboard, source, code or snippet (any case) is rejected: the service never receives file contents. `null` counts as absent for optional fields. The request is atomic.';

/** The schemas the document is built from; every named schema they reach is a component. */
const documentRoots = (): z.ZodType[] => [
  ideBatchSchema, desktopBatchSchema, ideBucketSchema, desktopBucketSchema, ackSchema,
  problemSchema, createUserSchema, createdUserSchema, planListSchema, timeChartSchema,
  languageChartSchema, hitmapChartSchema, weeklyChartSchema, leaderboardSchema, badgeSchema,
  createBadgeSchema, accountSchema, updateAccountSchema, createTokenSchema, userSchema,
  tokenSchema, issuedTokenSchema, tokenListSchema, badgeListSchema, shieldsSchema, healthSchema,
  heartbeatSchema, wakaErrorSchema, heartbeatAnswerSchema, bulkAnswerSchema, statusBarSchema, summariesSchema,
  statsSchema, allTimeSchema, wakaUserSchema, projectsSchema, machineNamesSchema, oneProjectSchema, commitsSchema, metaSchema, namedListSchema, leadersSchema, userAgentsSchema, dayHeartbeatsSchema, durationsSchema, wakaTeamsSchema, wakaOrgsSchema, wakaDashboardsSchema, wakaMembersSchema, wakatimeDumpSchema, importSchema, importListSchema,
  unsubscribedSchema,
  ...figuresRoots,
  ...planRoots,
  ...trustRoots,
  ...projectRoots(),
  ...remoteImportRoots(),
  ...wakapiBadgeRoots(),
  ...leaderboardRoots,
  ...teamRoots(),
  ...relayRoots(),
];

/** The zod schema of each component, by its id: tests check answers against them. */
export function documentedSchemas(): Map<string, z.ZodType> {
  return new Map(namedSchemas(documentRoots()).map((schema) => [idOf(schema)!, schema]));
}

export function openApiDocument(): Record<string, unknown> {
  const schemas = componentSchemas(documentRoots());

  return {
    openapi: '3.1.0',
    info: {
      title: 'Codetally API',
      version: '1.0.0',
      description:
        'Aggregated coding activity from editor plugins and a desktop agent, and public reads of what users chose to share. All paths are under /main/api/v1, except the WakaTime-compatible ones under /api/wakatime/v1, and the same at WakaTime\'s own layout, /api/v1 (each path names its servers), which answer errors in WakaTime\'s shape, `{"error": ...}`. Errors are RFC 9457 problem details (`application/problem+json`) with a stable `code`; clients retry 5xx, 409 and 429 (honouring `Retry-After`) and network failures with back-off, and drop what another 4xx rejects. Every route answers a method it does not take with 405 `method_not_allowed` and an `Allow` header, and `OPTIONS` with the methods it takes. Write rate: `SYNC_RATE_LIMIT_PER_MINUTE` requests a minute per token (default 120) and `SYNC_USER_RATE_LIMIT_PER_MINUTE` per account over all its tokens (default twice that), in fixed one-minute windows. Every other request made with a token (reads above all) counts against the read rate, in counters of its own: `READ_RATE_LIMIT_PER_MINUTE` per token (default 600) and `READ_USER_RATE_LIMIT_PER_MINUTE` per account over all its tokens and dashboard sessions (default twice that); past either, 429 `rate_limited` with `Retry-After`. A user holds at most 20 live tokens. A request must arrive whole within HTTP_REQUEST_TIMEOUT_SECONDS (30), except a data dump upload (POST /me/imports), which may take longer while it never stalls that long.',
    },
    servers: [{ url: '/main/api/v1' }],
    components: {
      schemas,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: `A Codetally token (\`ct_...\`, or a key in the uuid format). Its scopes: ${scopes.map((s) => `\`${s}\`, ${scopeTexts[s]}`).join('; ')}.`,
        },
        wakatimeBasic: { type: 'http', scheme: 'basic', description: 'WakaTime-compatible routes: the key as the user name (base64(key) or base64(key:)), as wakatime-cli sends it.' },
        wakatimeQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'WakaTime-compatible routes: the key as `?api_key=`.' },
        admin: { type: 'http', scheme: 'bearer', description: 'The operator token ADMIN_TOKEN.' },
        metrics: { type: 'http', scheme: 'bearer', description: 'The metrics token METRICS_TOKEN (GET /metrics only).' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'authjs.session-token',
          description: 'The dashboard\'s sign-in session (`__Secure-authjs.session-token` over HTTPS). A change made with it must come from this site (`Sec-Fetch-Site: same-origin` or a matching `Origin`), else 403.',
        },
      },
    },
    paths: {
      ...wakatimePaths(),
      ...wakatimeGoalPaths(),
      ...figuresPaths(),
      ...projectPaths(),
      ...remoteImportPaths(),
      ...wakapiBadgePaths(),
      ...leaderboardPaths(),
      ...teamPaths(),
      ...relayPaths(),
      ...planPaths(),
      ...trustPaths(),
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
        get: findAccountsOperation,
        post: {
          summary: 'Provision a user and a first token',
          description:
            'Answers 404 when ADMIN_TOKEN is not configured. Handles are unique regardless of case. Wrong admin tokens are limited per client address (10 in 15 minutes), past which even the right one gets 429 with Retry-After.',
          security: [{ admin: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: ref(createUserSchema) } } },
          responses: {
            '201': { description: 'The user and a token with scopes sync and badges, shown once.', content: { 'application/json': { schema: ref(createdUserSchema) } } },
            ...problems({
              ...jsonBody,
              unauthorized: 'wrong admin token.',
              not_found: 'ADMIN_TOKEN is not set.',
              rate_limited: 'too many wrong admin tokens from this address; honour `Retry-After`.',
              invalid_payload: 'a field is invalid or the handle is taken (`handle_taken`).',
              ...always,
            }),
          },
        },
      },
      '/me': {
        get: accountOperation('My account', 'The account with its settings, its email + password login (if any), linked sign-in providers, and its plan: the limits and what is used of each.', { '200': ok(accountSchema) }),
        patch: accountOperation(
          'Change my account',
          'Any of handle, display_name, timezone and the sharing settings; fields left out keep their value.',
          { '200': ok(userSchema) },
          { ...jsonBody, invalid_payload: 'naming the field; `handle_taken`.' },
          updateAccountSchema,
        ),
        delete: accountOperation('Delete my account', 'Removes the user and every row of theirs (tokens, activity, rollups, badges, sign-in). A session cookie is cleared.', {
          '204': { description: 'Deleted.' },
        }),
      },
      '/me/export': {
        get: accountOperation('Export all my data', 'One JSON document (a download, written as it is read: its size has no bound but the account\'s): account, tokens (never their values), badges, goals, my team memberships (team, role, what I share; not the other members), every IDE and desktop bucket, the heartbeats of the last 14 days (without their files), the imports, `user_agents` (the User-Agents my heartbeats came with, as kept: `value`, `editor`, `os`, `created_at`, `last_seen_at`) `project_merges` (the merges of one of my projects into another that can still be split: `project`, `into`, `merged_at`) and `ai_models` (what each AI model did per day: `date`, `model`, `lines`, `input_tokens`, `output_tokens`); an IDE bucket with line changes or an AI report carries `ai_additions`, `ai_deletions`, `human_additions`, `human_deletions`, `ai_sessions`, `ai_input_tokens`, `ai_output_tokens`, `ai_prompt_events` and `ai_prompt_length_sum`. Not one snapshot: a row written while it is read may or may not be in it, none twice.', {
          '200': { description: 'JSON, `Content-Disposition: attachment`.', content: { 'application/json': { schema: { type: 'object' } } } },
        }),
      },
      '/me/tokens': {
        get: accountOperation('List my tokens', 'Prefix, scopes, last use (written at most once a minute) and revocation; never the token.', {
          '200': ok(tokenListSchema),
        }),
        post: accountOperation(
          'Create a token',
          'The token is in the answer once and only its hash is kept. Scopes default to sync and badges (what a plugin needs). A user holds at most as many live tokens as the plan\'s `api_tokens` (never more than 20; 403 `plan_limit` beyond: revoke one first, or move to a plan that allows more). A name one of my live tokens already has (ignoring case) is given a number, `laptop (2)`, `laptop (3)`...: `info.name` is the name the token got.',
          { '201': ok(issuedTokenSchema) },
          { ...jsonBody, invalid_payload: 'naming the field.', plan_limit: planLimitNote('api_tokens') },
          createTokenSchema,
        ),
      },
      '/me/tokens/{id}': {
        delete: {
          ...accountOperation('Revoke a token', 'By id (or its shown prefix). A revoked token answers 401 from then on.', {
            '204': { description: 'Revoked.' },
          }, { not_found: 'no live token of mine with that id.' }),
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        },
      },
      '/me/imports': {
        get: accountOperation('My imports', 'The latest 20, newest first.', { '200': ok(importListSchema) }),
        post: {
          ...accountOperation(
            'Import a WakaTime data dump',
            `The heartbeats export of wakatime.com (Settings, Export), streamed: the upload is stored as it arrives (at most IMPORT_MAX_BYTES, 4 GiB unless configured otherwise) and answered 202 once whole; it is then read in the background (\`GET /me/imports/{id}\` shows how far). The heartbeat routes' rules apply except their 14-day limit: each gap of at most 15 minutes counts, credited to the earlier heartbeat; nothing of a file but its language and project is kept. Never counted twice: heartbeats of the last 14 days are merged with those the plugins sent; older days are counted once per UTC day, as the import that holds most of that day has them, whatever was imported before (the same dump again, an earlier or later export); older heartbeats from the first one the plugins sent on were counted when they were sent. The dump's days must be in date order, as WakaTime writes them. An upload may take longer than HTTP_REQUEST_TIMEOUT_SECONDS as long as it never stalls that long. An import ends \`failed\`, saying why, when its file is not a data dump, nests deeper than 32 levels, has a key of over 256 bytes, a heartbeat of over 1 MiB, a UTC day of over 500 000 heartbeats or naming over 2 000 different combinations of type, language, project, editor, operating system and application, or when the server died while reading it three times (a stop of the server puts it back in the queue). WakaTime's exports name each heartbeat's editor and operating system only by \`user_agent_id\`: with the optional \`X-WakaTime-Api-Key\` header, the server reads the user's User-Agents and machine names from WakaTime (\`GET /users/current/user_agents\` and \`/users/current/machine_names\` at WAKATIME_API_URL) once the import slot is claimed and the upload's first bytes may begin a dump (nothing a check could refuse first asks WakaTime anything; at most 10 look-ups an hour per user), and the import credits each heartbeat to the editor and system its id stands for (an id the dump's own \`user_agents\` lists keeps that entry), and to the machine its \`machine_name_id\` stands for (the dump's own \`machine_names\` first); without it, such heartbeats show as Unknown.`,
            { '202': { ...ok(importSchema), description: 'Accepted: stored, to be read. `Location` is its status.', headers: { Location: { schema: { type: 'string' } } } } },
            {
              unsupported_media_type: 'the body is not `application/json`.',
              payload_too_large: 'the dump is over IMPORT_MAX_BYTES (4 GiB unless configured otherwise).',
              malformed_json: 'the upload was cut short.',
              invalid_payload: 'the body is empty or not a JSON document.',
              request_timeout: 'nothing of the upload arrived for HTTP_REQUEST_TIMEOUT_SECONDS.',
              invalid_header: '`X-WakaTime-Api-Key` is not a WakaTime API key (`waka_` and a UUID, or a UUID), or WakaTime refused it (401 or 403); nothing was kept.',
              import_in_progress: 'another import of mine is still being received or read (one at a time; one unfinished for over a day gives way).',
              wakatime_unavailable: 'with `X-WakaTime-Api-Key`: WakaTime could not be reached, did not answer within 10 seconds, answered an error (5xx or another status), or answered something that is not the list of User-Agents or of machine names (or over 4 MiB); nothing was kept. Retry later, or import without the header.',
              rate_limited: 'with `X-WakaTime-Api-Key`: the user asked WakaTime for their User-Agents 10 times in the last hour (answered or not); nothing was asked nor kept. Honour `Retry-After`, or import without the header.',
              import_space_full: 'the uploads waiting to be read on this server would pass IMPORT_SPOOL_MAX_BYTES, or its disk is full; honour `Retry-After`.',
              unavailable: 'the database did not answer in time; honour `Retry-After`.',
            },
            wakatimeDumpSchema,
          ),
          parameters: [
            {
              name: 'X-WakaTime-Api-Key',
              in: 'header',
              required: false,
              schema: { type: 'string', pattern: '^(?:[Ww][Aa][Kk][Aa]_)?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$' },
              description:
                "Optional: the user's WakaTime API key (wakatime.com, Settings, API Key), used once, after the import slot is claimed and the upload's first bytes checked, to read which editors and operating systems the dump's heartbeats came from (WakaTime's exports name them only by `user_agent_id`): at most 5 pages and 10 000 User-Agents, given up at 10 seconds whatever the connection does, at most 10 look-ups an hour per user. Never stored nor logged; only each User-Agent's id, value, editor and os are kept with the import until it has been read. Empty: as if absent. Not a key, or refused by WakaTime: 400 `invalid_header`; WakaTime unreachable, failing or answering something else: 502 `wakatime_unavailable`.",
            },
          ],
        },
      },
      '/me/imports/{id}': {
        get: {
          ...accountOperation('How far an import has got', 'Bytes and heartbeats read, heartbeats skipped (and why the import failed, if it did). Poll it until `done`.', { '200': ok(importSchema) }, {
            not_found: 'no import of mine with that id.',
          }),
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        },
      },
      '/get/public/time': {
        get: publicGet('Time aggregates', chartRules, timeChartSchema, queryParameters(chartQueries.time)),
      },
      '/get/public/language': {
        get: publicGet('Language distribution', chartRules, languageChartSchema, queryParameters(chartQueries.language)),
      },
      '/get/public/hitmaps': {
        get: publicGet('Activity hitmap', `${chartRules} Level 0-4 by the busiest day.`, hitmapChartSchema, queryParameters(chartQueries.hitmaps)),
      },
      '/get/public/weekly': {
        get: publicGet('Weekly trend', `${chartRules} ISO weeks starting Monday, oldest first; the last is the current week so far.`, weeklyChartSchema, queryParameters(chartQueries.weekly)),
      },
      '/leaderboard/api/get/public': {
        get: {
          ...publicGet(
            'Leaderboard snapshot',
            'Users who opted in, ranked by capped coding time over the range (7d or 30d, UTC dates), or by one language\'s time with `language` (then only users who share languages appear). Ties share a rank (1, 2, 2, 4) and are listed in a fixed order (by user id) on every page. Ranks and totals are those of the snapshot, which may be up to LEADERBOARD_MAX_AGE seconds old; `generated_at` says when it was made. A user who leaves the leaderboard (or, for a language, stops sharing languages) is left out at once, and their place in the ranking stays empty until the next snapshot. `languages` lists an entry\'s top languages only when its owner shares languages.',
            leaderboardSchema,
            queryParameters(leaderboardQuerySchema),
            { invalid_query: publicRead.invalid_query },
          ),
        },
      },
      '/badges': {
        post: {
          summary: 'Create a badge',
          description:
            'Creating a badge is the owner\'s consent to publish exactly that figure (whatever the profile settings): a token with the `badges` scope carries that consent for a total or a daily average, and for a language\'s figure only while its owner shares languages (403 `forbidden` with `languages_not_shared` otherwise: the owner makes such a badge from the dashboard). Metric `ai` (AI-assisted coding time: an AI agent\'s, or the AI Coding category) only while its owner shares AI-assisted coding (`share_ai`), however it is made (403 `forbidden` with `ai_not_shared`); such a badge answers as not found while the setting is off. Embed the returned `url` (or `markdown` / `html`), built from SITE_URL or the Host the request used; identifiers are never guessed. At most as many badges as the plan\'s `badges` (never more than 50; 403 `plan_limit` beyond). A badge shows no day older than the plan\'s window of history (`history_days`): `all` starts there. Shared caches keep a badge at most a minute (plus a minute stale), so a deleted one disappears from them within two.',
          security: [{ bearer: ['badges'] }],
          requestBody: { required: true, content: { 'application/json': { schema: ref(createBadgeSchema) } } },
          responses: {
            '201': { description: 'The badge and its embed snippets.', content: { 'application/json': { schema: ref(badgeSchema) } } },
            ...problems({
              ...jsonBody,
              unauthorized: '',
              forbidden: 'the token lacks the `badges` scope, or asks for a language badge of an owner who keeps languages private (`languages_not_shared`), or for an `ai` badge while `share_ai` is off (`ai_not_shared`).',
              invalid_payload: 'naming the field.',
              plan_limit: planLimitNote('badges'),
              rate_limited: readRateNote,
              ...always,
            }),
          },
        },
        get: {
          summary: 'List my badges',
          security: [{ bearer: ['badges'] }],
          responses: { '200': ok(badgeListSchema), ...problems({ unauthorized: '', forbidden: 'the token lacks the `badges` scope.', rate_limited: readRateNote, ...always }) },
        },
      },
      '/badges/{id}/refresh': {
        post: {
          summary: 'Recompute a badge and replace its cached image',
          security: [{ bearer: ['badges'] }],
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: {
            '200': { description: 'The badge.', content: { 'application/json': { schema: ref(badgeSchema) } } },
            ...problems({ unauthorized: '', forbidden: 'the token lacks the `badges` scope.', not_found: 'not one of my badges.', rate_limited: readRateNote, ...always }),
          },
        },
      },
      '/badges/{id}': {
        delete: {
          summary: 'Delete a badge; its URL answers 404 from then on',
          security: [{ bearer: ['badges'] }],
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: {
            '204': { description: 'Deleted.' },
            ...problems({ unauthorized: '', forbidden: 'the token lacks the `badges` scope.', not_found: 'not one of my badges.', rate_limited: readRateNote, ...always }),
          },
        },
      },
      '/public/{site}/svg/{userUUID}': {
        get: {
          summary: 'A badge as SVG',
          description: '`{site}` names where the badge is embedded (github, gitlab, ...) and does not change it. Without `badge`, the user\'s first badge. An unknown user, badge or style never breaks an embed: unknown badges answer 404 with a small valid SVG reading "badge not found"; an unknown style falls back to the badge\'s own. Cached (Cache-Control, ETag); a refresh, a delete or new data changes the image on the origin at once.',
          parameters: [
            { name: 'site', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'userUUID', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
            ...queryParameters(badgeQuerySchema),
          ],
          responses: {
            '200': svg('The badge.'),
            '304': { description: 'Not modified.' },
            '404': svg('A small badge reading "badge not found".'),
            ...problems({ method_not_allowed: '' }),
          },
        },
      },
      '/public/{site}/shields/{userUUID}': {
        get: {
          summary: 'A badge as shields.io endpoint JSON',
          description: '`{schemaVersion: 1, label, message, color, cacheSeconds}`; 404 with `isError: true` when there is no such badge.',
          parameters: [
            { name: 'site', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'userUUID', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
            ...queryParameters(badgeQuerySchema.pick({ badge: true })),
          ],
          responses: {
            '200': ok(shieldsSchema),
            '304': { description: 'Not modified.' },
            '404': { ...ok(shieldsSchema), description: 'No such badge: `isError` is true.' },
            ...problems({ method_not_allowed: '' }),
          },
        },
      },
      '/public/charts/{userUUID}/{chart}': {
        get: {
          summary: 'A chart as an SVG image, to embed',
          description:
            '`{chart}` is `languages.svg` (bars of the languages with most time, the rest as "All others"), `activity.svg` (the last 365 days, a square per day), `hours.svg` (when in the week over the last 365 days, a square per weekday and hour) or `weekly.svg` (the last 12 ISO weeks, the current one so far). Behind the sharing gate: a private or unknown user, or a `{chart}` naming no chart, is a 404 problem without an image; a user who does not share languages gets a 200 image saying so. Each image has a `<title>` and a `<desc>` stating its figures in words, and carries its own colours. Public: no token; `Access-Control-Allow-Origin: *`, `Cache-Control: public, max-age=60, s-maxage=60, stale-while-revalidate=60` and a weak `ETag` (a matching `If-None-Match` gets 304); new data, a settings change or the owner\'s day turning changes the image on the origin at once.',
          parameters: [
            {
              name: 'userUUID',
              in: 'path',
              required: true,
              description:
                "A user's id, or `community`: the site-wide figures the home page shows (everyone who shares community statistics, each language behind at least `PUBLIC_MIN_USERS` people, the rest as \"All others\"; too few people sharing: an image saying so). Site-wide images follow the data at most `PUBLIC_CACHE_SECONDS` late.",
              schema: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'string', enum: ['community'] }] },
            },
            { name: 'chart', in: 'path', required: true, schema: { type: 'string', enum: chartImages.map((c) => `${c}.svg`) } },
            ...queryParameters(chartImageQuerySchema),
          ],
          responses: {
            '200': { ...svg('The chart.'), headers: { ETag: { schema: { type: 'string' } } } },
            '304': { description: 'Not modified: the If-None-Match ETag still matches.' },
            ...problems({ invalid_query: '`range` or `theme` is not one of its values, named in `errors`.', not_found: 'unknown user, one whose profile is not public, or no such chart.', ...always }),
          },
        },
      },
      '/get/list/plans': {
        get: publicGet(
          'Publicly listable plans for a pricing page',
          'In display order. `price.amount` in minor units (cents), `currency` ISO 4217, `interval` month, year or null (free). Checkout and payment confirmation are not public routes. Plans are the operator\'s choice: an install that sells none (no `PLANS=on`, the default) lists one record in the same shape, what every account there has: `id` `self-hosted`, `price.amount` 0 with `interval` null, `limits` the caps that protect the server (`history_days` null: all of the history), and `GET /me` names that plan. With `PLANS=on` the stored listed plans, whose limits apply.',
          planListSchema,
          [],
          {},
        ),
      },
      '/health': {
        get: {
          summary: 'Health, including a database round trip',
          description: 'With `DATABASE_REPLICA_URL`, `replicas` says how each replica is: `ok` while it answers and lags at most `REPLICA_MAX_LAG_SECONDS` (public reads go to the primary otherwise), and `lag_seconds`.',
          responses: {
            '200': ok(healthSchema),
            '503': { ...ok(healthSchema), description: 'The database does not answer: `{"status":"degraded","db":"unavailable"}`.' },
            ...problems({ method_not_allowed: '' }),
          },
        },
      },
      '/unsubscribe': {
        post: {
          summary: 'Unsubscribe from the weekly report, in one click',
          description:
            'The `List-Unsubscribe` URL of every weekly report mail is `/unsubscribe?token=…` at the site (a POST there comes here), with `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058): a POST turns the setting `weekly_report` off for the user the token names, without a session. Posting it again changes nothing. The body, form-encoded, is what RFC 8058 has mail clients send (`List-Unsubscribe=One-Click`) and is not needed; with `then=page` (the page\'s button) the answer is 303 to the page. A GET of `/unsubscribe` is a page with a button, and changes nothing.',
          parameters: queryParameters(unsubscribeQuerySchema),
          responses: {
            '200': ok(unsubscribedSchema),
            '303': { description: 'With `then=page`: to `/unsubscribe?done=1`.' },
            ...problems({ invalid_query: 'no token, or not one this site made.', ...always }),
          },
        },
      },
      '/metrics': {
        servers: [{ url: '/', description: 'At the site root, where Prometheus looks by default.' }],
        get: {
          summary: "This process's metrics, for Prometheus",
          description:
            "Only with `METRICS_TOKEN` set (unset: 404, as any unknown path), to a caller presenting it as `Authorization: Bearer`. Prometheus's text exposition format of this server process (each process keeps its own; scrape each): requests and their latency by route pattern, method and status class (`codetally_http_request_duration_seconds`), database statements, their wait for a connection, the pool's connections and failures by SQLSTATE class, ingest and heartbeat rates, the import queue's depth, cache hits and misses by cache, and prom-client's process and Node.js metrics. Labels hold only closed sets (route patterns, methods, status classes, cache names): never a user, token, project, language or a path with an id in it. Answers while the database does not.",
          security: [{ metrics: [] }],
          responses: {
            '200': { description: 'The metrics.', content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } } },
            ...problems({ unauthorized: 'no token, or not METRICS_TOKEN (`WWW-Authenticate` says so).', not_found: 'METRICS_TOKEN is not set.', method_not_allowed: '', internal: '' }),
          },
        },
      },
      '/ping': {
        get: {
          summary: 'Liveness without a database round trip',
          responses: {
            '200': { description: '`{"status":"ok"}`', content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ok' } } } } } },
            ...problems({ method_not_allowed: '' }),
          },
        },
      },
      '/openapi.json': {
        get: {
          summary: 'This document',
          responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } }, ...problems({ method_not_allowed: '' }) },
        },
      },
    },
  };
}
