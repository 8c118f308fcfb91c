// POST /api/wakatime/v1/users/current/heartbeats.bulk — up to 1000 heartbeats, one answer each
import { heartbeatRoute } from '@/lib/wakatime/routes';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = heartbeatRoute('bulk', '/api/wakatime/v1/users/[user]/heartbeats.bulk');
