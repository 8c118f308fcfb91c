// POST /api/wakatime/v1/heartbeats — one heartbeat, at the path older clients (an api_url naming
// the heartbeats URL itself) send to; the same as users/current/heartbeats
import { heartbeatRoute } from '@/lib/wakatime/routes';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = heartbeatRoute('one', '/api/wakatime/v1/heartbeats');
