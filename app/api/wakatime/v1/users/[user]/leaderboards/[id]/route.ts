// GET /api/wakatime/v1/users/current/leaderboards/{id} — a private leaderboard's ranking in WakaTime's shape (members only)
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { wakaBoardHandler } from '@/lib/leaderboards/wakatime';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', wakaBoardHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/leaderboards/[id]' });
