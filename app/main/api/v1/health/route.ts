// GET /main/api/v1/health — liveness plus a database round trip, for load balancers and operators
import { checkHealth } from '@/lib/health';

export const dynamic = 'force-dynamic';
export async function GET(): Promise<Response> {
  const health = await checkHealth();
  return Response.json(health, {
    status: health.db === 'ok' ? 200 : 503,
    headers: { 'cache-control': 'no-store', ...(health.db === 'ok' ? {} : { 'retry-after': '5' }) },
  });
}
