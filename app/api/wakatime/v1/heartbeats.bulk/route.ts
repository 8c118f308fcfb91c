// POST /api/wakatime/v1/heartbeats.bulk — the bulk route at the path older clients send to; the
// same as users/current/heartbeats.bulk
import { heartbeatRoute } from '@/lib/wakatime/routes';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = heartbeatRoute('bulk', '/api/wakatime/v1/heartbeats.bulk');
