import { route } from '../http/methods';
import { withWakatimeKey } from './api-key';
import { statusBarScopes } from '../auth/tokens';
import { dayHeartbeatsHandler, heartbeatHandler, statusBarHandler } from './handlers';
import { statsGet } from './reading/public-stats';

// The routes served at more than one path, defined once: the route files at every path plugins
// and README generators ask give them to Next, each under its own pattern (`route`'s, for the metrics).

const handlers = {
  one: { POST: withWakatimeKey('sync', heartbeatHandler('one'), { counted: true }) },
  bulk: { POST: withWakatimeKey('sync', heartbeatHandler('bulk'), { counted: true }) },
  // users/{user}/heartbeats also reads a day back (GET ?date=, scope stats).
  userOne: {
    POST: withWakatimeKey('sync', heartbeatHandler('one'), { counted: true }),
    GET: withWakatimeKey('stats', dayHeartbeatsHandler),
  },
};

/** A heartbeat route file's exports: `shape`'s handler, at the route file's `pattern`. */
export const heartbeatRoute = (shape: keyof typeof handlers, pattern: string) => route(handlers[shape], { pattern });

/** GET users/{user}/stats[/{range}]: the key owner's figures, or without a key (or with another user's) the public ones (./reading/public-stats.ts). */
export const statsRoute = (pattern: string) => route({ GET: statsGet }, { cors: true, pattern });

/**
 * GET users/{user}/statusbar/today, and status_bar/today (the path WakaTime documents): today's
 * figures for the editor's status bar, with `stats` or `sync` (the key a plugin sends with shows its time).
 */
export const statusBarRoute = (pattern: string) => route({ GET: withWakatimeKey(statusBarScopes, statusBarHandler) }, { pattern });
