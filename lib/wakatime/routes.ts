import { route } from '../http/methods';
import { withWakatimeKey } from './api-key';
import { heartbeatHandler } from './handlers';
import { statsGet } from './public-stats';

// The routes served at more than one path, defined once: the route files at every path plugins
// and README generators ask give them to Next.

export const heartbeatRoutes = {
  one: route({ POST: withWakatimeKey('sync', heartbeatHandler('one'), { counted: true }) }),
  bulk: route({ POST: withWakatimeKey('sync', heartbeatHandler('bulk'), { counted: true }) }),
};

/** GET users/{user}/stats[/{range}]: the key owner's figures, or without a key the public ones (./public-stats.ts). */
export const statsRoute = route({ GET: statsGet }, { cors: true });
