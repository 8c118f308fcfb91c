// GET /api/wakatime/v1/users/current — the key's owner; without a key, /users/{handle} is a public profile
import { route } from '@/lib/http/methods';
import { userGet } from '@/lib/wakatime/reading/public-stats';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: userGet }, { cors: true, pattern: '/api/wakatime/v1/users/[user]' });
