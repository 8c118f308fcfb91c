// PATCH /main/api/v1/me/relays/{id} — pause or resume one of my relays; DELETE — drop it and what it had waiting
// The session or a token with `account`.
import { withAccount } from '@/lib/auth/account';
import { json, readJsonBody } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseBody } from '@/lib/http/validate';
import { deleteRelay, oneRelay, setRelayPaused } from '@/lib/wakatime/relaying/relays';
import { updateRelaySchema } from '@/lib/wakatime/relaying/schemas';

export const dynamic = 'force-dynamic';

const patch = withAccount<{ id: string }>(async ({ request, db, user, params }) => {
  const input = parseBody(updateRelaySchema, (await readJsonBody(request)).value);
  await setRelayPaused(db, user.id, params.id, input.paused);
  return json(await oneRelay(db, user.id, params.id));
});

const remove = withAccount<{ id: string }>(async ({ db, user, params }) => {
  await deleteRelay(db, user.id, params.id);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ PATCH: patch, DELETE: remove }, { pattern: '/main/api/v1/me/relays/[id]' });
