// The error catalog: every `code` an answer that is not 2xx can carry, with its one status, its
// title, what it means and what a client does about it. ApiError takes its status from here, the
// /docs/errors page lists it, and openapi.json describes each operation's problems from it.

export interface ErrorEntry {
  status: number;
  title: string;
  meaning: string;
  action: string;
}

export const errorCatalog = {
  malformed_json: {
    status: 400,
    title: 'Malformed JSON',
    meaning: 'The body is not JSON (or not UTF-8, or was cut short), nests arrays and objects more than 64 levels deep, is not an object, or lacks the activities array.',
    action: 'Fix the client; do not retry.',
  },
  malformed_form: {
    status: 400,
    title: 'Malformed form',
    meaning: 'A form post to a page whose multipart/form-data body cannot be read (cut short, or not the boundary its header names).',
    action: 'Reload the page and send the form again.',
  },
  invalid_target: {
    status: 400,
    title: 'Invalid request target',
    meaning: 'The request line names a full URL (`GET http://host/path`, absolute form), which only a proxy takes.',
    action: 'Send the path alone, with the host in the Host header.',
  },
  invalid_query: {
    status: 400,
    title: 'Invalid query',
    meaning: 'A query parameter is wrong (unknown range, bad date, span too long); errors names it.',
    action: 'Fix the parameter.',
  },
  invalid_header: {
    status: 400,
    title: 'Invalid header',
    meaning: 'A request header is wrong: an import\'s X-WakaTime-Api-Key that is not a WakaTime API key (`waka_` and a UUID, or a UUID), or one WakaTime refuses; errors names it. Nothing was kept.',
    action: 'Fix the header, or send the request without it.',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    meaning: 'The token is missing, malformed, unknown or revoked (or there is no session).',
    action: 'Ask the user for a new token.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    meaning: 'The token lacks the scope the route needs, a session change came from another site, or a token asked for a language badge while its owner keeps languages private (languages_not_shared).',
    action: 'Use a token with the right scope, or make the change from the dashboard.',
  },
  plan_limit: {
    status: 403,
    title: 'Plan limit reached',
    meaning: 'Making this would pass a limit of the user\'s plan (api_tokens, badges, team_members, private_leaderboards) or a hard cap no plan lifts (those four, and teams: at most 20 owned); errors names the limit, detail the plan that allows more. Nothing was made, and nothing already made was removed.',
    action: 'Remove one first, or move to the plan the detail names.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    meaning: 'No such resource, or one its owner has not made public: the two look the same. Also a path that is not valid percent-encoded UTF-8.',
    action: 'Do not retry.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    meaning: 'The route exists but not with this method; the Allow header lists the methods it takes.',
    action: 'Fix the client.',
  },
  idempotency_in_progress: {
    status: 409,
    title: 'Idempotent request in progress',
    meaning: 'A request with the same Idempotency-Key is still running.',
    action: 'Retry after a moment.',
  },
  import_in_progress: {
    status: 409,
    title: 'Import in progress',
    meaning: 'An import of the account is still being received or read: one at a time.',
    action: 'Wait until it is done (GET /me/imports), then send the next.',
  },
  last_owner: {
    status: 409,
    title: 'Last owner',
    meaning: "A team's only owner cannot leave it or step down: the team would have no one to run it.",
    action: 'Make another member owner first (PATCH /teams/{id}/members/{handle}), or delete the team.',
  },
  merge_changed: {
    status: 409,
    title: 'Merge changed since',
    meaning: 'The time a merge moved can no longer be split back out of the project it went to: an import has replaced one of its days since.',
    action: 'Rename the time apart by hand, or keep the merge.',
  },
  invite_expired: {
    status: 409,
    title: 'Invite code expired',
    meaning: "The team's invite code has expired, so a mail could not carry a working one.",
    action: 'Make a new code (POST /teams/{id}/invite_code), then invite again.',
  },
  mail_disabled: {
    status: 501,
    title: 'Mail disabled',
    meaning: 'This installation sends no mail (SMTP_URL and MAIL_FROM are not set).',
    action: 'Share the invite code or link another way.',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    meaning: 'The request did not arrive whole within HTTP_REQUEST_TIMEOUT_SECONDS (an upload: nothing of it arrived for that long).',
    action: 'Send it again; check the connection.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    meaning: 'The body is over 1 MiB or has more than 1000 activities; a data dump, over IMPORT_MAX_BYTES.',
    action: 'Split the batch.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    meaning: 'The body is not application/json.',
    action: 'Send JSON with Content-Type: application/json.',
  },
  invalid_payload: {
    status: 422,
    title: 'Invalid payload',
    meaning: 'Nothing in the request was valid, or a limit is reached; errors lists each field and its rule (see the field codes below).',
    action: 'Fix or drop what errors names; do not retry the same body.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    meaning: 'The same Idempotency-Key came with a different body within 24 hours.',
    action: 'Use a new key for a new batch.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    meaning: 'Too many write requests this minute for the token or for its account (all tokens together), or too many sign-in, sign-up or admin-token attempts.',
    action: 'Wait Retry-After seconds; batch more.',
  },
  internal: {
    status: 500,
    title: 'Internal server error',
    meaning: 'Something failed on the server; nothing about it is in the answer.',
    action: 'Retry with back-off.',
  },
  wakatime_unavailable: {
    status: 502,
    title: 'WakaTime unavailable',
    meaning: 'WakaTime, asked on the request\'s behalf (an import\'s X-WakaTime-Api-Key: the editors its heartbeats came from), could not be reached, did not answer within 10 seconds, failed, or answered what its API does not. Nothing was kept.',
    action: 'Retry later, or import without X-WakaTime-Api-Key (editors a dump names only by id then show as Unknown).',
  },
  import_space_full: {
    status: 503,
    title: 'No room for imports',
    meaning: 'The uploads waiting to be read on this server would pass IMPORT_SPOOL_MAX_BYTES (or its disk is full); nothing of the upload was kept.',
    action: 'Send it again after Retry-After seconds, once the imports ahead are read.',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    meaning: 'The database did not answer in time (down, locked or overloaded), or a conflicting operation held the data; nothing was written.',
    action: 'Retry after Retry-After seconds.',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof errorCatalog;

export const errorCodes = Object.keys(errorCatalog) as ErrorCode[];

/**
 * The codes of `errors[]` entries (per field) beyond zod's own (`required`, `invalid_type`,
 * `too_small`, `too_big`, `invalid_format`, `invalid_value`, `unrecognized_keys`).
 */
export const fieldCodes = {
  invalid_date: 'Not a calendar date written YYYY-MM-DD.',
  date_out_of_range: 'A bucket date before the oldest accepted date or more than one day after today (UTC).',
  invalid_timezone: 'Not an IANA time-zone name.',
  control_character: 'Text holds a control character (C0, DEL or C1).',
  unpaired_surrogate: 'Text holds half of a UTF-16 surrogate pair: it is not well-formed Unicode.',
  format_character: 'A name holds an invisible or text-direction character (zero-width space, bidi override or isolate).',
  content_not_allowed: 'A bucket carries a field named content, body, text, diff, patch, clipboard, source, code or snippet: the service never receives file contents.',
  handle_taken: 'Another account has this handle (handles are unique regardless of case).',
  unknown_plan: 'No plan has this id (PATCH /admin/users/{handle}).',
  plan_limit: 'The user holds as many of these as their plan allows, or as no plan lifts (path names the limit: api_tokens, badges, team_members, private_leaderboards, teams; role when a member cannot own one more team).',
  too_many_goals: 'The user has 20 goals: delete one first.',
  too_many_relays: 'The user has 3 relays: delete one first.',
  address_not_allowed: 'An address this server may not reach: not public, and not among the hosts IMPORT_ALLOWED_HOSTS lists.',
  relay_unreachable: "The relay's address could not be reached, or its `users/current` did not answer as a WakaTime-compatible service.",
  key_refused: "The other service refused the key (401 or 403 to `users/current`).",
  not_a_key: 'Not an API key of the service named: a WakaTime key is waka_ and a UUID (or a UUID); any key holds no spaces or control characters (POST /me/imports/remote).',
  languages_not_shared: 'A token asked for a language badge while its owner keeps languages private.',
  ai_not_shared: 'A badge of AI-assisted coding was asked for while its owner keeps AI-assisted coding private (share_ai off).',
} as const;
