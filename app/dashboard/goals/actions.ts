'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { createGoal, deleteGoal, updateGoal } from '@/lib/figures/goals';
import { createGoalSchema, updateGoalSchema } from '@/lib/figures/schemas';
import { formError, formText, parseForm, type FormState } from '@/lib/web/account/forms';
import { requireUser } from '@/lib/web/account/session';

// The goals page's forms: the session re-read, the API's own schemas, the same lib functions.


/** What a goal form sent (shown again after a refusal) and the goal it asks for, in the API's fields. */
function goalForm(form: FormData) {
  const values = { period: formText(form, 'period'), hours: formText(form, 'hours'), minutes: formText(form, 'minutes'), language: formText(form, 'language'), project: formText(form, 'project'), title: formText(form, 'title'), ignore_weekends: form.get('ignore_weekends') === 'on' };
  // Hours and minutes, either left empty as none; both empty is no time, which the schema refuses.
  const time = values.hours === undefined && values.minutes === undefined ? NaN : Number(values.hours ?? 0) * 3600 + Number(values.minutes ?? 0) * 60;
  return { values, goal: { period: values.period, seconds: Math.round(time), language: values.language, project: values.project, title: values.title, ignore_weekends: values.ignore_weekends } };
}

/** A refused form's errors: the form asks for hours and minutes, the schema names seconds (its error shows under Minutes). */
function refused(state: FormState, values: FormState['values']): FormState {
  const { seconds, ...rest } = state.fieldErrors ?? {};
  return { ...state, fieldErrors: seconds ? { ...rest, minutes: seconds.replace(/(\d+) seconds/, (_m, s) => `${Number(s) / 60} minute${Number(s) === 60 ? '' : 's'}`) } : rest, values };
}

export async function createGoalAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser('/dashboard/goals');
  const { values, goal } = goalForm(form);
  const parsed = parseForm(createGoalSchema, goal);
  if ('state' in parsed) return refused(parsed.state, values);
  try {
    await createGoal(await getDb(), user.id, parsed.data);
  } catch (err) {
    return refused(formError(err, values), values);
  }
  revalidatePath('/dashboard/goals');
  return { ok: true, message: 'Goal set.' };
}

/** Edits a goal: every field as the form shows it, an empty language, project or title clearing it. */
export async function updateGoalAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser('/dashboard/goals');
  const { values, goal } = goalForm(form);
  const parsed = parseForm(updateGoalSchema, { ...goal, language: goal.language ?? null, project: goal.project ?? null, title: goal.title ?? null });
  if ('state' in parsed) return refused(parsed.state, values);
  try {
    await updateGoal(await getDb(), user.id, String(form.get('id')), parsed.data);
  } catch (err) {
    return refused(formError(err, values), values);
  }
  revalidatePath('/dashboard/goals');
  return { ok: true, message: 'Goal saved.' };
}

export async function deleteGoalAction(form: FormData): Promise<void> {
  const user = await requireUser('/dashboard/goals');
  // A stale id (a goal already dropped) changes nothing.
  await deleteGoal(await getDb(), user.id, String(form.get('id'))).catch(formError);
  revalidatePath('/dashboard/goals');
}
