// GET /api/wakatime/v1/meta — WakaTime's meta route (lib/wakatime/reading/meta.ts)
import { route } from '@/lib/http/methods';
import { metaGet } from '@/lib/wakatime/reading/meta';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: metaGet }, { cors: true, pattern: '/api/wakatime/v1/meta' });
