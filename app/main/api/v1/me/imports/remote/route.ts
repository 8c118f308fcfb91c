// POST /main/api/v1/me/imports/remote — import my history by key from WakaTime or a compatible server (202, run in the background)
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { remoteImportSchema, startRemoteImport } from '@/lib/wakatime/importing/remote';

export const dynamic = 'force-dynamic';

const post = withAccount(async ({ request, db, user }) => {
  const input = parseBody(remoteImportSchema, (await readJsonBody(request)).value);
  const started = await startRemoteImport(db, user.id, input);
  return json(started, { status: 202, headers: { location: `/main/api/v1/me/imports/${started.id}` } });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/me/imports/remote' });
