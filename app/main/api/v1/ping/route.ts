// GET /main/api/v1/ping — liveness without touching the database (load balancers; the read benchmark's baseline)
export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return Response.json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
}
