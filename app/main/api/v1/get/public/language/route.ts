// GET /main/api/v1/get/public/language — public language distribution, per user or site-wide
import { publicRoute } from '@/lib/http/public';
import { chartResponse } from '@/lib/stats/public';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const get = publicRoute((request: Request) => chartResponse(request, 'language'));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/get/public/language', cors: true });
