// GET /main/api/v1/admin/flags — the signals raised (operators): who, which, on what day, the figure
import { listFlags } from '@/lib/admin/console';
import { withOperator } from '@/lib/admin/operator-route';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { scanSignals } from '@/lib/leaderboards/trust/signals';

export const dynamic = 'force-dynamic';

const get = withOperator(async ({ db }) => {
  await scanSignals(db); // what arrived since the last minute's scan
  const flags = await listFlags(db);
  return json({ data: flags.map(({ handle, signal, day, detail, first_seen_at }) => ({ handle, signal, day, detail, first_seen_at })) });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/admin/flags' });
