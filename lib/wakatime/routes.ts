import { route } from '../http/methods';
import { withWakatimeKey } from './door';
import { heartbeatHandler } from './handlers';

// The heartbeat routes, defined once: their route files give them to Next, and on a Node host the
// front server answers their POSTs itself (lib/server/direct.ts, decision 0017).

export const heartbeatRoutes = {
  one: route({ POST: withWakatimeKey('sync', heartbeatHandler('one'), { counted: true }) }),
  bulk: route({ POST: withWakatimeKey('sync', heartbeatHandler('bulk'), { counted: true }) }),
};

/**
 * What the front server answers itself: the heartbeat POSTs, by routed path (under
 * users/{user}/, and at the paths older clients send to, for `current`).
 */
export const heartbeatPosts = [
  { path: /^\/api\/wakatime\/v1\/(?:users\/(?<user>[^/]+)\/)?heartbeats$/, methods: { POST: heartbeatRoutes.one.POST } },
  { path: /^\/api\/wakatime\/v1\/(?:users\/(?<user>[^/]+)\/)?heartbeats\.bulk$/, methods: { POST: heartbeatRoutes.bulk.POST } },
];
