// GET /api/wakatime/v1/users/{user}/stats/{last_7_days|last_30_days|last_6_months|last_year|all_time}
// — with a key the owner's own figures; without one a public profile's shared figures (README cards)
import { statsRoute } from '@/lib/wakatime/routes';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = statsRoute('/api/wakatime/v1/users/[user]/stats/[range]');
