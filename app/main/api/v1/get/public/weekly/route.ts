// GET /main/api/v1/get/public/weekly — public weekly trend, per user or site-wide
import { preflight, publicRoute } from '@/lib/http/cache';
import { chartResponse } from '@/lib/stats/public';

export const dynamic = 'force-dynamic';
export const GET = publicRoute((request: Request) => chartResponse(request, 'weekly'));
export const OPTIONS = async () => preflight();
