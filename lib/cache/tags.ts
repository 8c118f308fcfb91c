// The names a cached page or route is tagged with, and what makes each one change. The cache
// clock (clock.ts) decides from them whether a cached answer may still be served.
//
// - a user's id: the user's activity, settings, handle or badges changed (every write and every
//   settings change is announced on the change feed, lib/db/changes.ts);
// - `handle:<lower-case handle or id>`: the handle was taken, freed or made public (a cached 404
//   profile must go); only handles and ids are tags (tags travel in a header: ASCII only);
// - `day:<IANA timezone>`: the date turned in that timezone ("the last 30 days" moved);
// - `community`, `plans`: site-wide figures and the plan list, which may lag by
//   PUBLIC_CACHE_SECONDS (API.md, "Freshness");
// - `leaderboard`: a listing changed (announced), or the snapshot is older than LEADERBOARD_MAX_AGE;
// - `profiles`: which profiles are public may have changed (a profile made public or private, a
//   handle changed, an account made public or deleted): the sitemap lists them.

export const handleTag = (handle: string) => `handle:${handle.toLowerCase()}`;
export const dayTag = (timeZone: string) => `day:${timeZone}`;
export const COMMUNITY_TAG = 'community';
export const PLANS_TAG = 'plans';
export const LEADERBOARD_TAG = 'leaderboard';
export const PROFILES_TAG = 'profiles';
