// POST /api/wakatime/v1/users/current/heartbeats — one heartbeat from a WakaTime plugin
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/door';
import { heartbeatHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const post = withWakatimeKey('sync', heartbeatHandler('one'), { counted: true });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post });
