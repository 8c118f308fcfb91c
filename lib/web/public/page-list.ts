// The public pages: the same for every visitor, served from Next's cache, with the
// Cache-Control next.config.ts gives them. They hydrate like any page of the app (decision 0020):
// what makes them light is what they leave out of the tree React hydrates. The charts are drawn
// on the server (decision 0015), there is no client component on them, and what the shell does in
// a browser is one inline script (app/components/shell-script.ts).

/** The public pages, as next.config.ts matches paths. */
export const publicPages = ['/', '/leaderboard', '/pricing', '/docs', '/docs/:path*', '/u/:handle', '/u/:handle/opengraph-image', '/u/:handle/year/:year'];
