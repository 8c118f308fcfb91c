'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { formError, formText, parseForm, type FormState } from '@/lib/web/account/forms';
import { requireUser } from '@/lib/web/account/session';
import { remoteImportSchema, startRemoteImport } from '@/lib/wakatime/importing/remote';

// The Import page's forms of an import by key: the session re-read, the API's own schema, the same
// lib function as POST /me/imports/remote. The key is never sent back into the page (a refused form
// shows the other fields again, the key field empty).


export async function startRemoteImportAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser('/dashboard/settings/import');
  const from = formText(form, 'from');
  const values = { from, api_url: formText(form, 'api_url'), download_url: formText(form, 'download_url') };
  const input =
    from === 'compatible'
      ? { from, api_url: values.api_url ?? '', api_key: formText(form, 'api_key') ?? '' }
      : { from, api_key: formText(form, 'api_key') ?? '', ...(values.download_url ? { download_url: values.download_url } : {}) };
  const parsed = parseForm(remoteImportSchema, input);
  if ('state' in parsed) return { ...parsed.state, values };
  try {
    await startRemoteImport(await getDb(), user.id, parsed.data);
  } catch (err) {
    return formError(err, values);
  }
  revalidatePath('/dashboard/settings/import');
  redirect('/dashboard/settings/import#import-progress');
}
