// GET /main/api/v1/get/public/hitmaps — public activity hitmap (days and weekday x hour), per user or site-wide
import { publicRoute } from '@/lib/http/public';
import { chartResponse } from '@/lib/stats/public';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const get = publicRoute((request: Request) => chartResponse(request, 'hitmaps'));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/get/public/hitmaps', cors: true });
