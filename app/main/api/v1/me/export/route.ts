// GET /main/api/v1/me/export — everything kept about me, as one JSON download written as it is read
import { withAccount } from '@/lib/auth/account';
import { exportAccount } from '@/lib/accounts/export';
import { jsonContentType } from '@/lib/http/body';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';

const get = withAccount(
  async ({ db, user }) =>
    new Response(await exportAccount(db, user.id), {
      headers: { 'content-type': jsonContentType, 'content-disposition': `attachment; filename="codetally-${user.handle}.json"`, 'cache-control': 'no-store' },
    }),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/me/export' });
