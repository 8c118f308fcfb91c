// POST /api/wakatime/v1/heartbeats — one heartbeat, at the path older clients (an api_url naming
// the heartbeats URL itself) send to; the same as users/current/heartbeats
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/door';
import { heartbeatHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const post = withWakatimeKey('sync', heartbeatHandler('one'), { counted: true });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post });
