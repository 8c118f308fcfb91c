// GET /api/wakatime/v1/editors — the editors Codetally names (lib/wakatime/reading/meta.ts)
import { route } from '@/lib/http/methods';
import { editorsGet } from '@/lib/wakatime/reading/meta';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: editorsGet }, { cors: true, pattern: '/api/wakatime/v1/editors' });
