// GET /main/api/v1/get/public/hitmaps — public activity hitmap (days and weekday x hour), per user or site-wide
import { preflight, publicRoute } from '@/lib/http/cache';
import { chartResponse } from '@/lib/stats/public';

export const dynamic = 'force-dynamic';
export const GET = publicRoute((request: Request) => chartResponse(request, 'hitmaps'));
export const OPTIONS = async () => preflight();
