// GET /api/wakatime/v1/leaders — the public leaderboard in WakaTime's shape (a key adds current_user)
import { route } from '@/lib/http/methods';
import { leadersGet } from '@/lib/wakatime/reading/leaders';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: leadersGet }, { cors: true, pattern: '/api/wakatime/v1/leaders' });
