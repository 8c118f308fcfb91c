// GET /main/api/v1/get/list/plans — publicly listable plans for a pricing page (no checkout here)
import { getDb } from '@/lib/db/client';
import { preflight, publicJson, publicRoute } from '@/lib/http/cache';
import { listPublicPlans } from '@/lib/plans';

export const dynamic = 'force-dynamic';
const plansCache = { maxAge: 300, sMaxAge: 3600, staleWhileRevalidate: 86_400 };

export const GET = publicRoute(async (request: Request) =>
  publicJson(request, { plans: await listPublicPlans(await getDb()) }, plansCache),
);
export const OPTIONS = async () => preflight();
