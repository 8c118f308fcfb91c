// GET /main/api/v1/me/imports — my latest imports; POST — import a WakaTime data dump (202, read in the background)
import { withAccount } from '@/lib/auth/account';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { listImports, receiveImport } from '@/lib/wakatime/importing/imports';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ db, user }) => json({ imports: await listImports(db, user.id) }));

const post = withAccount(async ({ request, db, user }) => {
  const accepted = await receiveImport(db, user.id, request);
  return json(accepted, { status: 202, headers: { location: `/main/api/v1/me/imports/${accepted.id}` } });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get, POST: post }, { pattern: '/main/api/v1/me/imports', upload: true });
