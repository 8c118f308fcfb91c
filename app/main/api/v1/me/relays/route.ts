// GET /main/api/v1/me/relays — my relays and their state; POST — add one (at most 3; the key is checked, then stored sealed)
// The session or a token with `account`: a relay sends the owner's heartbeats on, its key never comes back.
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { createRelay, listRelays } from '@/lib/wakatime/relaying/relays';
import { createRelaySchema } from '@/lib/wakatime/relaying/schemas';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ db, user }) => json({ data: await listRelays(db, user.id) }, { headers: { 'cache-control': 'private, no-store' } }));

const post = withAccount(async ({ request, db, user }) => {
  const input = parseBody(createRelaySchema, (await readJsonBody(request)).value);
  const created = await createRelay(db, user.id, input);
  return json(created, { status: 201, headers: { location: `/main/api/v1/me/relays/${created.id}` } });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get, POST: post }, { pattern: '/main/api/v1/me/relays' });
