// Where the WakaTime-compatible API answers: under its own base, and under WakaTime's own path
// layout (`/api/v1`), which README generators and clients written for wakatime.com assume
// (`api_domain`, `API_BASE_URL` + `/v1`, `api_url = https://<site>/api/v1`). One set of route
// files serves both: next.config.ts rewrites the second to the first before Next looks for a
// route, so the proxy, the auth wrapper, rate limits and body limits are the same for each.

export const WAKATIME_BASE = '/api/wakatime/v1';
export const WAKATIME_ALIAS = '/api/v1';

/** The rewrite next.config.ts applies (path-to-regexp; the query goes along). */
export const wakatimeAliasRewrite = { source: `${WAKATIME_ALIAS}/:path*`, destination: `${WAKATIME_BASE}/:path*` };
