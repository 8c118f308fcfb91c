'use server';

import { showKeyAgain } from '@/lib/accounts/tokens';
import { getDb } from '@/lib/db/client';
import type { FormState } from '@/lib/web/account/forms';
import { requireUser } from '@/lib/web/account/session';

// "Show key": one of the owner's editor keys again, for another machine (lib/auth/sealed-keys.ts).
// Only the session's own user, re-read here, and only a live key of theirs kept to be shown again;
// the key is in this action's answer alone (Next answers a server action with no-store), never
// in a log, a page's HTML or a URL.

export async function showKeyAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  const shown = await showKeyAgain(await getDb(), user.id, String(form.get('id') ?? ''));
  if (!shown) return { message: 'This key cannot be shown again (revoked, or kept from before the site\'s key changed): make a new one below.' };
  return { ok: true, result: { token: shown.token } };
}
