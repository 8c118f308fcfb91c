// POST /api/wakatime/v1/users/current/heartbeats — one heartbeat from a WakaTime plugin; GET ?date= reads a day back
import { heartbeatRoute } from '@/lib/wakatime/routes';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = heartbeatRoute('userOne', '/api/wakatime/v1/users/[user]/heartbeats');
