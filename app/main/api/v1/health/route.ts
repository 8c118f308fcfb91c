// GET /main/api/v1/health — liveness plus a database round trip, for load balancers and operators
import { checkHealth } from '@/lib/health';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
async function get(): Promise<Response> {
  const health = await checkHealth();
  return Response.json(health, {
    status: health.db === 'ok' ? 200 : 503,
    headers: { 'cache-control': 'no-store', ...(health.db === 'ok' ? {} : { 'retry-after': '5' }) },
  });
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/health' });
