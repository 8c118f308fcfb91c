'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { createGoal, deleteGoal } from '@/lib/figures/goals';
import { createGoalSchema } from '@/lib/figures/schemas';
import { formError, parseForm, type FormState } from '@/lib/web/account/forms';
import { requireUser } from '@/lib/web/account/session';

// The goals page's forms: the session re-read, the API's own schema, the same lib functions.

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
};

export async function createGoalAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser('/dashboard/goals');
  const values = { period: text(form, 'period'), hours: text(form, 'hours'), minutes: text(form, 'minutes'), language: text(form, 'language'), project: text(form, 'project'), title: text(form, 'title') };
  // Hours and minutes, either left empty as none; both empty is no time, which the schema refuses.
  const time = values.hours === undefined && values.minutes === undefined ? NaN : Number(values.hours ?? 0) * 3600 + Number(values.minutes ?? 0) * 60;
  const parsed = parseForm(createGoalSchema, { period: values.period, seconds: Math.round(time), language: values.language, project: values.project, title: values.title });
  if ('state' in parsed) {
    // The form asks for hours and minutes; the schema names seconds (its error shows under Minutes).
    const { seconds, ...rest } = parsed.state.fieldErrors ?? {};
    return { ...parsed.state, fieldErrors: seconds ? { ...rest, minutes: seconds.replace(/(\d+) seconds/, (_m, s) => `${Number(s) / 60} minute${Number(s) === 60 ? '' : 's'}`) } : rest, values };
  }
  try {
    await createGoal(await getDb(), user.id, parsed.data);
  } catch (err) {
    return formError(err, values);
  }
  revalidatePath('/dashboard/goals');
  return { ok: true, message: 'Goal set.' };
}

export async function deleteGoalAction(form: FormData): Promise<void> {
  const user = await requireUser('/dashboard/goals');
  // A stale id (a goal already dropped) changes nothing.
  await deleteGoal(await getDb(), user.id, String(form.get('id'))).catch(formError);
  revalidatePath('/dashboard/goals');
}
