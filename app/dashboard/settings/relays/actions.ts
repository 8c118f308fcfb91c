'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { formError, formText, parseForm, type FormState } from '@/lib/web/account/forms';
import { requireUser } from '@/lib/web/account/session';
import { createRelay, deleteRelay, setRelayPaused } from '@/lib/wakatime/relaying/relays';
import { createRelaySchema } from '@/lib/wakatime/relaying/schemas';

// The relays page's forms: the session re-read, the API's own schema, the same lib functions.

const PAGE = '/dashboard/settings/relays';


export async function createRelayAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser(PAGE);
  // The key is never sent back to the form: a refused form asks for it again.
  const values = { api_url: formText(form, 'api_url'), name: formText(form, 'name') };
  const parsed = parseForm(createRelaySchema, { ...values, api_key: formText(form, 'api_key') });
  if ('state' in parsed) return { ...parsed.state, values };
  try {
    await createRelay(await getDb(), user.id, parsed.data);
  } catch (err) {
    return formError(err, values);
  }
  revalidatePath(PAGE);
  return { ok: true, message: 'Relay added: your next heartbeats go there too.' };
}

export async function deleteRelayAction(form: FormData): Promise<void> {
  const user = await requireUser(PAGE);
  // A stale id (a relay already deleted) changes nothing.
  await deleteRelay(await getDb(), user.id, String(form.get('id'))).catch(formError);
  revalidatePath(PAGE);
}

export async function pauseOrResumeRelayAction(form: FormData): Promise<void> {
  const user = await requireUser(PAGE);
  await setRelayPaused(await getDb(), user.id, String(form.get('id')), form.get('paused') === 'true').catch(formError);
  revalidatePath(PAGE);
}
