// GET /main/api/v1/admin/audit?handle= — every operator action, newest first (operators)
import { handleQuerySchema } from '@/lib/admin/schemas';
import { withOperator } from '@/lib/admin/operator-route';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseQuery } from '@/lib/http/query';
import { auditLog } from '@/lib/leaderboards/trust/audit';

export const dynamic = 'force-dynamic';

const get = withOperator(async ({ request, db }) => {
  const q = parseQuery(handleQuerySchema, new URL(request.url).searchParams);
  return json({ data: await auditLog(db, q.handle || null) });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/admin/audit' });
