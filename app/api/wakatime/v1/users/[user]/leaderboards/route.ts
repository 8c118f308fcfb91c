// GET /api/wakatime/v1/users/current/leaderboards — my private leaderboards in WakaTime's shape
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { wakaBoardsHandler } from '@/lib/leaderboards/wakatime';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', wakaBoardsHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/leaderboards' });
