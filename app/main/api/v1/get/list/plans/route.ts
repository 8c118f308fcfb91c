// GET /main/api/v1/get/list/plans — publicly listable plans for a pricing page (no checkout here)
import { getDb } from '@/lib/db/client';
import { publicJson, publicRoute } from '@/lib/http/public';
import { listPublicPlans } from '@/lib/plans';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const plansCache = { maxAge: 300, sMaxAge: 3600, staleWhileRevalidate: 86_400 };

const get = publicRoute(async (request: Request) =>
  publicJson(request, { plans: await listPublicPlans(await getDb()) }, plansCache),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/get/list/plans', cors: true });
