// POST /api/wakatime/v1/users/current/heartbeats.bulk — up to 1000 heartbeats, one answer each
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/door';
import { heartbeatHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const post = withWakatimeKey('sync', heartbeatHandler('bulk'), { counted: true });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post });
