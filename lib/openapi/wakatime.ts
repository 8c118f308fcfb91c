import type { z } from 'zod';
import { anyOf, statusBarScopes, type ScopeRule } from '../auth/tokens';
import type { ErrorCode } from '../http/errors';
import { heartbeatSchema } from '../wakatime/sending/heartbeat-input';
import { WAKAPI_BASE, WAKATIME_ALIAS, WAKATIME_BASE } from '../wakatime/paths';
import { MAX_DAY_RUNS, sliceFields } from '../wakatime/reading/day-reads';
import { DAY_PAGE } from '../wakatime/reading/day-beats';
import { DEFAULT_STATS_RANGE, statsRanges } from '../wakatime/reading/reads';
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
  statsSchema,
  statusBarSchema,
  summariesSchema,
  wakaUserSchema,
  wakaTeamsSchema,
  wakaOrgsSchema,
  wakaDashboardsSchema,
  wakaMembersSchema,
} from '../wakatime/schemas';
import { ref } from './components';
import { always, jsonBody, ok, problems, rateHeaders, readRateNote, type Operation } from './operations';

// The operations of the WakaTime-compatible API in openapi.json (lib/wakatime/).

export const wakatimeServers = [
  { url: WAKATIME_BASE },
  { url: WAKATIME_ALIAS, description: 'The same routes at WakaTime\'s own path layout (`api_url = https://<site>/api/v1`), for clients and README generators written for wakatime.com.' },
];
/** The servers of a path under `users/` or of the heartbeat routes: Wakapi's base too. */
const wakapiServers = [
  ...wakatimeServers,
  {
    url: WAKAPI_BASE,
    description: 'The same routes at Wakapi\'s base (`api_url = https://<site>/api`), for plugins configured for a Wakapi server: `users/...` and the heartbeat routes (`/api/heartbeat` too, and `/api/compat/wakatime/v1/...` for every route).',
  },
];
const wakatimeUser = {
  name: 'user',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: '`current`, or the key owner\'s own handle or id (another user: 403).',
};
/** Each way of sending a key, with each scope that opens the route (any one is enough). */
const wakatimeKeys = (scope: ScopeRule) => ['wakatimeBasic', 'bearer', 'wakatimeQuery'].flatMap((scheme) => anyOf(scope).map((one) => ({ [scheme]: [one] })));

/** An operation of the WakaTime-compatible API (its errors in WakaTime's shape). */
function wakatimeOperation(
  summary: string,
  description: string,
  scope: ScopeRule,
  responses: Record<string, unknown>,
  notes: Partial<Record<ErrorCode, string>> = {},
  extra: { body?: Record<string, unknown>; parameters?: unknown[]; withUser?: boolean } = {},
): Operation {
  const errors = {
    unauthorized: 'no key, or a key that is unknown, revoked or not a Codetally key.',
    forbidden: `the key lacks the ${anyOf(scope).map((one) => `\`${one}\``).join(' or ')} scope${extra.withUser === false ? '' : ', or the path names another user'}.`,
    // The heartbeat routes count against the write rate instead, and say so.
    rate_limited: readRateNote,
    ...notes,
    ...always,
  };
  return {
    summary,
    description: `${description} The key goes as Basic authentication (the key as user name), a Bearer token (the key, or as Wakapi's users send it the key in base64), or \`?api_key=\`.`,
    security: wakatimeKeys(scope),
    parameters: [...(extra.withUser === false ? [] : [wakatimeUser]), ...(extra.parameters ?? [])],
    ...(extra.body ? { requestBody: { required: true, content: { 'application/json': { schema: extra.body } } } } : {}),
    responses: { ...responses, ...problems(errors, 'wakatime') },
  };
}

const heartbeatRules =
  'Time follows WakaTime\'s rule: the gap to the next heartbeat counts when at most 15 minutes, credited to the earlier one, in the hours it covers in the user\'s timezone; late, repeated or reordered heartbeats count as if sent once and in order, however late (back to 2000-01-01: wakatime-cli\'s AI sync sends agents\' history; one older than 14 days is kept 14 days after it came, and its key for good, so that it never counts twice). More than an hour ahead, or before 2000: refused per item. `ai_line_changes` and `human_line_changes` are summed in the heartbeat\'s own hour, and so is what an AI agent reports: `ai_input_tokens` and `ai_output_tokens` (integers from 0, at most 100000000), `ai_prompt_length` (from 0, at most 10000000; a value above 0 counts as a prompt), `ai_session` (a string of at most 255 characters: each session counts once, where first seen, its id kept only as a digest) and the model named first in the User-Agent (`opus/4-5 claude-code/…` is `opus-4-5`; `model/<name>` too), per day; a heartbeat sent again adds none of it twice, and a value out of bounds is the heartbeat\'s 400 naming the field; X-Machine-Name (else `hostname`) names the machine. The body is read as JSON whatever its Content-Type (WakaTime\'s browser extension sends text/plain), and once more when it is a JSON string holding the JSON (vscode.dev\'s extension); `time` may be a number or a string holding one. The editor and OS come from `user_agent`, else `plugin`, else the User-Agent, the editor under its canonical name as WakaTime shows it (`neovim/0.9.5 vim-wakatime/11.1.1` is Neovim). `category` is one of WakaTime\'s (`coding`, `ai coding`, `building`, `code reviewing`, `debugging`, ...; any case); another is coding. An AI agent\'s heartbeat (category `ai coding`, or the agent\'s word before `wakatime/` in the User-Agent, as wakatime-cli prepends it) is coding time whatever its type. `project` absent or empty: `alternate_project`. `<<LAST_PROJECT>>` and `<<LAST_LANGUAGE>>` (and `<<LAST_BRANCH>>`) stand for the value of the previous heartbeat of the request, or for the first one of the user\'s latest stored heartbeat; never kept as names. Never kept: the entity (a keyed digest for 14 days tells repeats apart; for `type: app` the entity is the application\'s name, kept as desktop time), branch, dependencies, line and cursor numbers. Counts against the write rate limit.';

const bulkBody = { type: 'array', maxItems: 1000, items: ref(heartbeatSchema) };

function heartbeatPost(shape: 'one' | 'bulk', withUser: boolean): Operation {
  const one = shape === 'one';
  const { unsupported_media_type: _anyMediaType, ...anyJsonBody } = jsonBody;
  return wakatimeOperation(
    one ? 'Send one heartbeat (WakaTime)' : 'Send up to 1000 heartbeats (WakaTime)',
    `${one ? 'One heartbeat; 400 when it is refused. An array is taken as at the bulk route, and answered as there (Wakapi\'s `/api/heartbeat` takes both).' : 'An array of up to 1000 heartbeats; each gets its own answer, in order.'} ${heartbeatRules}`,
    'sync',
    {
      '201': {
        description: 'Stored',
        headers: rateHeaders,
        content: { 'application/json': { schema: one ? { oneOf: [ref(heartbeatAnswerSchema), ref(bulkAnswerSchema)] } : ref(bulkAnswerSchema) } },
      },
    },
    {
      ...anyJsonBody,
      ...(one ? { invalid_payload: '' } : {}),
      malformed_json: one ? 'not JSON.' : 'not JSON, or not an array.',
      payload_too_large: one ? 'the body is over 1 MiB.' : 'over 1 MiB or more than 1000 heartbeats.',
      rate_limited: 'over the write rate; honour `Retry-After`.',
    },
    { body: one ? { oneOf: [ref(heartbeatSchema), bulkBody] } : bulkBody, withUser },
  );
}

export const wakatimeRead = (summary: string, description: string, schema: z.ZodType, notes: Partial<Record<ErrorCode, string>> = {}, parameters: unknown[] = [], scope: ScopeRule = 'stats') =>
  wakatimeOperation(summary, `${description} The key owner\'s own figures, private ones included; \`Cache-Control: private, no-store\`.`, scope, { '200': ok(schema) }, notes, {
    parameters,
  });

/** The security of a route anyone may read, a `stats` key adding the owner's own answer. */
const keyOptional = [{}, ...wakatimeKeys('stats')];
/** `{user}` of such a route. */
const publicOrOwnUser = { ...wakatimeUser, description: 'Without a key: a handle (any case) or a user id. With a key: `current`, or the key owner\'s own handle or id (another user: answered as without a key).' };

/** A public route of WakaTime's meta (no key): `schema` answered, from any origin. */
const publicMeta = (summary: string, description: string, schema: z.ZodType): Operation => ({
  summary,
  description: `${description} No key; \`Access-Control-Allow-Origin: *\`, cacheable for five minutes.`,
  security: [{}],
  responses: { '200': ok(schema), ...problems(always, 'wakatime') },
});

/** GET leaders: the public leaderboard; a key adds where its owner stands. */
function leadersOperation(): Operation {
  const operation = wakatimeOperation(
    'The public leaderboard (WakaTime)',
    'The public leaderboard\'s members and rules (the last 7 UTC dates, its snapshot), 100 a page, ranked by total or by `language` (any case; only users who share languages). Readable without a key, from any origin; with a key (scope `stats`), `current_user` says where its owner stands by total. An empty `?api_key=` is no key.',
    'stats',
    { '200': ok(leadersSchema) },
    { invalid_query: '`page` not a whole number from 1, or `language` not a name.' },
    { withUser: false, parameters: [query('language', 'Rank by this language.'), query('page', 'The page, from 1.')] },
  );
  return { ...operation, security: keyOptional };
}

/** GET users/{user}: the key's owner, or without a key a public profile. */
function userOperation(): Operation {
  const operation = wakatimeOperation(
    'A user (WakaTime; public without a key)',
    'With a key (scope `stats`): its owner, timezone and sign-up time included, `Cache-Control: private, no-store`. Without one, or with a valid key of someone else than `{user}`, `{user}` names a user by handle (any case) or id: what their public profile shows (no timezone, no dates), from any origin; a private or unknown user is 404 alike.',
    'stats',
    { '200': ok(wakaUserSchema) },
    { not_found: 'the account no longer exists; without a key, an unknown user or one whose profile is not public.' },
    { withUser: false },
  );
  return { ...operation, parameters: [publicOrOwnUser], security: keyOptional };
}

/** stats/{range}: one of WakaTime's names, a year or a month (lib/wakatime/reading/reads.ts: calendarRange). */
const statsRangeParam = {
  name: 'range',
  in: 'path',
  required: true,
  schema: { oneOf: [{ type: 'string', enum: [...statsRanges] }, { type: 'string', pattern: '^\\d{4}(-(0[1-9]|1[0-2]))?$' }] },
  description: `${statsRanges.join(', ')}; or a year (\`2026\`) or a month (\`2026-12\`) in the user's timezone (\`start\` and \`end\` its first and last instants, the days counted up to today), from 2000.`,
};

/** GET users/{user}/stats[/{range}]: the owner's figures with a key, a public profile's shared ones without (lib/wakatime/reading/public-stats.ts). */
function statsOperation(ranged: boolean): Operation {
  const operation = wakatimeOperation(
    ranged ? 'Figures of a range (WakaTime; public without a key)' : 'Figures of the last 7 days (WakaTime; public without a key)',
    `${ranged ? 'The range\'s figures together.' : `The same as \`stats/${DEFAULT_STATS_RANGE}\`: what github-readme-stats' WakaTime card asks for.`} With a key (scope \`stats\`; \`{user}\` is \`current\` or the key owner's handle or id): the owner's own figures, every list whole, \`Cache-Control: private, no-store\`. Without a key, or with a valid key of someone else than \`{user}\` (a README tool's key is often its owner's), \`{user}\` names a user by handle (any case) or id: their public figures, for README cards (\`api_domain\`) and profile generators. A private or unknown user is 404 alike (\`current\` without a key: 401). \`project\` and \`language\` filter the owner's own figures (as summaries' \`project\`); a public answer is never filtered: 400 naming the parameter. The totals show whenever the profile is public; \`languages\` only with share_languages; \`editors\`, \`operating_systems\` and \`categories\` only with share_editors (an editor or system no client named counts in Other; without share_ai so does an AI agent's own plugin, such as Claude Code, and AI Coding counts as Coding); the AI figures (\`ai_additions\`, \`ai_deletions\`, \`human_additions\`, \`human_deletions\`, \`ai_input_tokens\`, \`ai_output_tokens\`, \`ai_sessions\`, \`ai_prompt_events_total\`, \`ai_prompt_length_sum\`, \`ai_model_breakdown\`, in \`grand_total\` and flat on \`data\`) only with share_ai, else absent; \`projects\` never; an unshared list is empty and its \`is_*_visible\` flag false; no \`timezone\`. Public answers carry \`Access-Control-Allow-Origin: *\`, \`Cache-Control: public, max-age=60, s-maxage=60, stale-while-revalidate=60\` and a weak \`ETag\` (304 to a matching \`If-None-Match\`), and follow each write of the owner at once on the server. Every hour counts at most 3600 s.`,
    'stats',
    {
      '200': { description: 'OK', headers: { ETag: { description: 'Public answers only.', schema: { type: 'string' } } }, content: { 'application/json': { schema: ref(statsSchema) } } },
      '304': { description: 'Not modified (public answers): the If-None-Match ETag still matches.' },
    },
    {
      unauthorized: 'a key that is unknown, revoked or not a Codetally key, or `current` without a key.',
      not_found: `${ranged ? 'an unknown range, or ' : ''}with the owner's key: \`project\` names no project GET projects lists; without a key: an unknown user, or one whose profile is not public.`,
      invalid_query: '`project` or `language` empty, over 1000 characters or not well-formed text; or either on a public answer.',
    },
    {
      withUser: false,
      parameters: [
        ...(ranged ? [statsRangeParam] : []),
        query('project', 'With the owner\'s key: only this project\'s figures (its name as the project list gives it; a hidden project or none of that name: 404).'),
        query('language', 'With the owner\'s key: only this language\'s figures (its name in any case).'),
      ],
    },
  );
  return { ...operation, parameters: [publicOrOwnUser, ...(operation.parameters as unknown[])], security: keyOptional };
}

const projectParam = { name: 'project', in: 'path', required: true, schema: { type: 'string' }, description: 'The project\'s name (URL-encoded).' };

const query = (name: string, description: string) => ({ name, in: 'query', required: false, schema: { type: 'string' }, description });

/** The servers of a WakaTime-compatible path: Wakapi's base too for `users/...` and the heartbeat routes (lib/wakatime/paths.ts). */
const serversOf = (path: string) => (/^\/(users\/|heartbeats)/.test(path) ? wakapiServers : wakatimeServers);

/** WakaTime-compatible paths, each under its servers. */
export const wakatimeAt = (paths: Record<string, Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(paths).map(([path, ops]) => [path, { servers: serversOf(path), ...ops }]));

/** The WakaTime-compatible routes, each under its own servers (/api/wakatime/v1 first). */
export function wakatimePaths(): Record<string, unknown> {
  return wakatimeAt({
    '/leaders': { get: leadersOperation() },
    '/meta': { get: publicMeta('Meta (WakaTime)', 'WakaTime\'s meta shape; no list of the service\'s addresses is kept, so `ips` is empty.', metaSchema) },
    '/editors': { get: publicMeta('Editors (WakaTime)', 'Every editor Codetally names (the names time is shown under).', namedListSchema) },
    '/program_languages': { get: publicMeta('Languages (WakaTime)', 'The languages on the public leaderboard (of listed users who share languages).', namedListSchema) },
    '/users/{user}/heartbeats': {
      post: heartbeatPost('one', true),
      get: wakatimeRead(
        'One day\'s heartbeats (WakaTime)',
        `The heartbeats of \`date\` (the owner's timezone; default today), oldest first (by time, then type and entity, as their ids sort), for the 14 days heartbeats are kept (an older day: an empty list). \`entity\` is the stored digest, never a path. At most \`limit\` a page (${DAY_PAGE} unless asked for fewer: a day of a few thousand heartbeats is one page, as WakaTime answers it); when the day holds more, \`next_after\` is the last one's id, and the same request with \`after\` set to it gives the next page, until \`next_after\` is null. Each heartbeat comes once across the pages, however many arrive meanwhile.`,
        dayHeartbeatsSchema,
        { invalid_query: `\`date\` is not a date, \`limit\` not a whole number from 1 to ${DAY_PAGE}, or \`after\` not a heartbeat's id.` },
        [query('date', 'YYYY-MM-DD; default today.'), query('limit', `The most heartbeats answered, 1 to ${DAY_PAGE}; default ${DAY_PAGE}.`), query('after', 'Answer the heartbeats after this one: a previous page\'s `next_after` (a heartbeat\'s id).')],
      ),
    },
    '/users/{user}/heartbeats.bulk': { post: heartbeatPost('bulk', true) },
    '/heartbeats': { post: heartbeatPost('one', false) },
    '/heartbeats.bulk': { post: heartbeatPost('bulk', false) },
    '/users/{user}/statusbar/today': {
      get: wakatimeRead(
        'Today, for the status bar (WakaTime)',
        'The total, categories, languages, editors, projects and systems of today in the user\'s timezone. A key with `sync` reads it too: a plugin shows today\'s time with the key it sends with (the other reads need `stats`).',
        statusBarSchema,
        {},
        [],
        statusBarScopes,
      ),
    },
    '/users/{user}/status_bar/today': {
      get: wakatimeRead(
        'Today, for the status bar (WakaTime\'s documented path)',
        'The total, categories, languages, editors, projects and systems of today in the user\'s timezone. A key with `sync` reads it too: a plugin shows today\'s time with the key it sends with (the other reads need `stats`).',
        statusBarSchema,
        {},
        [],
        statusBarScopes,
      ),
    },
    '/users/{user}/summaries': {
      get: wakatimeRead('Figures per date (WakaTime)', 'One entry per date of the range (at most 366 days), with the cumulative total (also as `cummulative_total`, WakaTime\'s old spelling) and the daily average. Each date\'s `range.text` is WakaTime\'s date text, `Fri Dec 4th 2026`, today and yesterday included. Each date\'s `grand_total` carries the AI figures: `ai_additions`, `ai_deletions`, `human_additions`, `human_deletions`, `ai_input_tokens`, `ai_output_tokens`, `ai_sessions` (sessions begun), `ai_prompt_events_total`, `ai_prompt_length_sum` and `ai_model_breakdown` (`[{name, lines, input_tokens, output_tokens}]`, empty with `project=`).', summariesSchema, { invalid_query: 'bad dates, a span over 366 days, an unknown range, or a project name that is not well-formed text.', not_found: '`project` names no project GET projects lists: none of that name, or a hidden one (as projects/{project}).' }, [
        query('start', 'First date, YYYY-MM-DD; or one of `range`\'s names (`today`, as oh-my-posh sends it), standing for that range\'s first date.'),
        query('end', 'Last date, YYYY-MM-DD; or one of `range`\'s names, standing for that range\'s last date.'),
        query('range', 'Instead of start and end: Today, Yesterday, Last 7 Days, Last 7 Days from Yesterday, Last 14 Days, Last 30 Days, This Week, Last Week, This Month, Last Month.'),
        query('project', 'Only this project\'s figures (its name as the project list gives it; a hidden project or none of that name: 404).'),
      ]),
    },
    '/users/{user}/stats': { get: statsOperation(false) },
    '/users/{user}/stats/{range}': { get: statsOperation(true) },
    '/users/{user}/all_time_since_today': { get: wakatimeRead('Every second counted (WakaTime)', 'From the first date with data to today.', allTimeSchema) },
    '/users/{user}/projects': {
      get: wakatimeRead('Projects (WakaTime)', 'The most recently used first, 100 a page; hidden projects are not listed.', projectsSchema, { invalid_query: '`q` too long or not well-formed text, or `page` not a whole number from 1.' }, [
        query('q', 'Keep projects whose name contains this (any case).'),
        query('page', 'The page, from 1.'),
      ]),
    },
    '/users/{user}/durations': {
      get: wakatimeRead(
        'One day\'s runs of coding time (WakaTime)',
        `Each heartbeat's credit (up to the next heartbeat, at most 15 minutes) joined into runs per project and \`slice_by\` value, for the 14 days heartbeats are kept (an older day: an empty list). A hidden project is null. At most ${MAX_DAY_RUNS} runs (one every 9 seconds of the day): a day that switches more often than that answers its first ${MAX_DAY_RUNS} with \`truncated: true\`.`,
        durationsSchema,
        { invalid_query: '`date` is not a date, or `slice_by` is not one of the list.' },
        [query('date', 'YYYY-MM-DD; default today.'), query('project', 'Only this project\'s runs.'), query('slice_by', `One of ${sliceFields.join(', ')}; default project.`)],
      ),
    },
    '/users/{user}/projects/{project}': {
      get: wakatimeRead('A project (WakaTime)', 'One project as the list gives it; a hidden one is not found.', oneProjectSchema, { not_found: 'no project of that name (or a hidden one).' }, [projectParam]),
    },
    '/users/{user}/projects/{project}/commits': {
      get: wakatimeRead('A project\'s commits (WakaTime)', 'WakaTime\'s shape with an empty `commits` list: no repository is linked here.', commitsSchema, { not_found: 'no project of that name (or a hidden one).' }, [projectParam]),
    },
    '/users/{user}/machine_names': {
      get: wakatimeRead('Machines (WakaTime)', 'Every machine the owner has time on over all history, the most recently seen first: the name sent as X-Machine-Name (else the hostname), never shown publicly unless share_machines is on.', machineNamesSchema),
    },
    '/users/{user}/user_agents': {
      get: wakatimeRead('User-Agents (WakaTime)', 'The User-Agents the owner\'s heartbeats came with, the most recently seen first.', userAgentsSchema),
    },
    '/users/{user}': { get: userOperation() },
    '/users/{user}/plugins/errors': {
      post: wakatimeOperation(
        'A plugin\'s error report (WakaTime)',
        'What wakatime-cli sends when a plugin fails: answered `201 {}` as WakaTime answers it, counted in the metrics (`codetally_plugin_errors_total`), nothing of it read or kept. A key with `sync` or `stats`.',
        statusBarScopes,
        { '201': { description: 'Taken (and dropped)', content: { 'application/json': { schema: { type: 'object', additionalProperties: false } } } } },
      ),
    },
    ...teamPaths(),
  });
}

/** WakaTime's team and organization routes, from Codetally's teams (lib/wakatime/reading/teams.ts). */
function teamPaths(): Record<string, Record<string, unknown>> {
  const id = (name: string, description: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description });
  const team = id('team', 'The team\'s id (GET users/current/teams).');
  const org = id('org', 'The team\'s id (GET users/current/orgs).');
  const dashboard = id('dashboard', 'The organization\'s one dashboard: the same id as {org}.');
  const member = id('member', 'A member\'s user id (the members list\'s `id`) or handle.');
  const outsider = 'not a member of the team (the same answer as an unknown team)';
  const consent =
    'Another member\'s figures as they share them with the team: share `none`, 403; `total`, each date\'s total time with every list empty; `languages`, the totals and languages. Projects, editors, categories, systems, machines and line changes are never shown to a team (`project=`: 403). The caller\'s own figures are whole.';
  const summaryParams = [
    query('start', 'First date, YYYY-MM-DD: a UTC date, as on the team page (the member\'s time on that local date; their timezone is not shown); the caller\'s own, in their own timezone.'),
    query('end', 'Last date, YYYY-MM-DD.'),
    query('range', 'Instead of start and end, as GET summaries. None of the three: the last 7 days (wakatime-client asks a dashboard member\'s summaries with no dates).'),
  ];
  const summariesRead = (where: string) =>
    wakatimeRead(
      `A ${where} member's figures per date (WakaTime)`,
      consent,
      summariesSchema,
      { not_found: `${outsider}, or no such member${where === 'dashboard' ? ', or a dashboard id that is not the organization\'s' : ''}.`, forbidden: 'the key lacks the `stats` scope, or the path names another user; or the member shares nothing with the team, or `project=` was asked of another member.', invalid_query: 'bad dates, or a span over 366 days.' },
      [...(where === 'dashboard' ? [org, dashboard] : [team]), member, ...summaryParams],
    );
  const dashboards = wakatimeRead('An organization\'s dashboards (WakaTime)', 'One: the team itself, under the team\'s id.', wakaDashboardsSchema, { not_found: `${outsider}.` }, [org]);
  return {
    '/users/{user}/teams': { get: wakatimeRead('Teams (WakaTime)', 'The Codetally teams the owner belongs to. Nothing of a team is public.', wakaTeamsSchema) },
    '/users/{user}/teams/{team}/members': {
      get: wakatimeRead('A team\'s members (WakaTime)', 'The roster, for members only: handle, name, role and what each shares with the team; no e-mail address.', wakaMembersSchema, { not_found: `${outsider}.` }, [team]),
    },
    '/users/{user}/teams/{team}/members/{member}/summaries': { get: summariesRead('team') },
    '/users/{user}/orgs': { get: wakatimeRead('Organizations (WakaTime)', 'The same teams as GET teams, each as an organization with one dashboard under its own id.', wakaOrgsSchema) },
    '/users/{user}/orgs/{org}/dashboards': { get: dashboards },
    '/users/{user}/orgs/{org}': { get: { ...dashboards, summary: 'An organization\'s dashboards (WakaTime; the path wakatime-client asks)' } },
    '/users/{user}/orgs/{org}/dashboards/{dashboard}/members': {
      get: wakatimeRead('A dashboard\'s members (WakaTime)', 'The team\'s roster, as GET teams/{team}/members.', wakaMembersSchema, { not_found: `${outsider}, or a dashboard id that is not the organization's.` }, [org, dashboard]),
    },
    '/users/{user}/orgs/{org}/dashboards/{dashboard}/members/{member}/summaries': { get: summariesRead('dashboard') },
    '/users/{user}/orgs/{org}/dashboards/{dashboard}/members/{member}/durations': {
      get: wakatimeRead(
        'A dashboard member\'s runs of coding time (WakaTime)',
        'The caller\'s own, as GET durations; when in the day another member codes is not shared with a team (403).',
        durationsSchema,
        { not_found: `${outsider}, no such member, or a dashboard id that is not the organization's.`, forbidden: 'the key lacks the `stats` scope, or the path names another user; or {member} is another member than the caller.', invalid_query: '`date` is not a date, or `slice_by` is not one of the list.' },
        [org, dashboard, member, query('date', 'YYYY-MM-DD; default today.'), query('slice_by', `One of ${sliceFields.join(', ')}; default project.`)],
      ),
    },
  };
}
