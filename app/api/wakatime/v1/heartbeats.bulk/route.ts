// POST /api/wakatime/v1/heartbeats.bulk — the bulk route at the path older clients send to; the
// same as users/current/heartbeats.bulk
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/door';
import { heartbeatHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const post = withWakatimeKey('sync', heartbeatHandler('bulk'), { counted: true });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post });
