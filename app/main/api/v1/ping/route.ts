// GET /main/api/v1/ping — liveness without touching the database (load balancers; the read benchmark's baseline)
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';

async function get(): Promise<Response> {
  return Response.json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/ping' });
