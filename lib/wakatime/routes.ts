import { route } from '../http/methods';
import { withWakatimeKey } from './api-key';
import { heartbeatHandler } from './handlers';

// The heartbeat routes, defined once: the route files at every path plugins send to give them to Next.

export const heartbeatRoutes = {
  one: route({ POST: withWakatimeKey('sync', heartbeatHandler('one'), { counted: true }) }),
  bulk: route({ POST: withWakatimeKey('sync', heartbeatHandler('bulk'), { counted: true }) }),
};
