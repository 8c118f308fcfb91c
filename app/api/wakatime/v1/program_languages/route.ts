// GET /api/wakatime/v1/program_languages — the languages on the public leaderboard (lib/wakatime/reading/meta.ts)
import { route } from '@/lib/http/methods';
import { languagesGet } from '@/lib/wakatime/reading/meta';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: languagesGet }, { cors: true, pattern: '/api/wakatime/v1/program_languages' });
