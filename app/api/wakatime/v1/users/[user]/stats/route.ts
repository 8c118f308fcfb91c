// GET /api/wakatime/v1/users/{user}/stats — the same as stats/last_7_days (what github-readme-stats'
// WakaTime card asks for, without a key)
import { statsRoute } from '@/lib/wakatime/routes';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = statsRoute('/api/wakatime/v1/users/[user]/stats');
