// GET /api/wakatime/v1/users/current/all_time_since_today — every second the owner ever counted
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { allTimeHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', allTimeHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/all_time_since_today' });
