'use server';

import { redirect } from 'next/navigation';
import { hideSchema } from '@/lib/admin/schemas';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/problem';
import { hideUser, showUser } from '@/lib/leaderboards/trust/hides';
import { formText } from '@/lib/web/account/forms';
import { requireOperator } from '@/lib/web/account/operator';

// The console's forms: the operator re-checked, the routes' own schema and lib functions, the
// outcome told back on /admin by a code of a fixed list (never text from the address).

const text = (form: FormData, name: string) => formText(form, name) ?? '';

export async function hideAction(form: FormData): Promise<void> {
  const operator = await requireOperator();
  const handle = text(form, 'handle').trim();
  // A date from the form ends the hide at the start of that day, UTC.
  const day = text(form, 'until');
  const parsed = hideSchema.safeParse({ reason: text(form, 'reason'), until: /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00Z` : null });
  if (!parsed.success) redirect('/admin?notice=bad_hide');
  let notice = 'hidden';
  try {
    await hideUser(await getDb(), { handle, reason: parsed.data.reason, until: parsed.data.until }, operator);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'not_found')) throw err;
    notice = 'no_user';
  }
  redirect(`/admin?notice=${notice}`);
}

export async function showAction(form: FormData): Promise<void> {
  const operator = await requireOperator();
  let notice = 'shown';
  try {
    await showUser(await getDb(), text(form, 'handle'), operator);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'not_found')) throw err;
    notice = 'no_user';
  }
  redirect(`/admin?notice=${notice}`);
}
