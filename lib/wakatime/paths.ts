// Where the WakaTime-compatible API answers: under its own base, under WakaTime's own path layout
// (`/api/v1`), which README generators and clients written for wakatime.com assume
// (`api_domain`, `API_BASE_URL` + `/v1`, `api_url = https://<site>/api/v1`), and under Wakapi's
// (`api_url = https://<site>/api`, which plugins pointed at a Wakapi server have: wakatime-cli
// posts to `/api/users/current/heartbeats.bulk`, older configurations to `/api/heartbeat`, and
// Wakapi's own layout of WakaTime's routes is `/api/compat/wakatime/v1`). One set of route files
// serves them all: next.config.ts rewrites the others to the first before Next looks for a route,
// so the proxy, the auth wrapper, rate limits and body limits are the same for each; the headers
// are the API's at every one of them (lib/http/api-paths.ts lists them all). Only paths
// no other route of the site has are rewritten: nothing else answers under `/api` but this API.

export const WAKATIME_BASE = '/api/wakatime/v1';
export const WAKATIME_ALIAS = '/api/v1';
/** Wakapi's base: only `users/...` and the heartbeat paths below it are WakaTime's routes. */
export const WAKAPI_BASE = '/api';

/** The rewrites next.config.ts applies (path-to-regexp; the query goes along). */
export const wakatimeAliasRewrites = [
  { source: `${WAKATIME_ALIAS}/:path*`, destination: `${WAKATIME_BASE}/:path*` },
  { source: `${WAKAPI_BASE}/compat/wakatime/v1/:path*`, destination: `${WAKATIME_BASE}/:path*` },
  { source: `${WAKAPI_BASE}/users/:path*`, destination: `${WAKATIME_BASE}/users/:path*` },
  // Wakapi's routes of one heartbeat or an array (the route of one takes an array as a bulk).
  { source: `${WAKAPI_BASE}/heartbeat`, destination: `${WAKATIME_BASE}/heartbeats` },
  { source: `${WAKAPI_BASE}/heartbeats`, destination: `${WAKATIME_BASE}/heartbeats` },
];
