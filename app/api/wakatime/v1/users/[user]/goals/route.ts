// GET /api/wakatime/v1/users/current/goals — my goals in WakaTime's shape
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { goalsHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', goalsHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/goals' });
