'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { createBoard, deleteBoard, joinBoard, leaveBoard, rotateInviteCode } from '@/lib/leaderboards/boards';
import { createBoardSchema, joinBoardSchema } from '@/lib/leaderboards/schemas';
import { formError, parseForm, type FormState } from '@/lib/web/account/forms';
import { requireUser } from '@/lib/web/account/session';

// The private leaderboards pages' forms: the session re-read, the API's own schemas, the same
// lib functions as the routes.

const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v : undefined;
};

export async function createBoardAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser('/dashboard/leaderboards');
  const values = { name: field(form, 'name') };
  const parsed = parseForm(createBoardSchema, values);
  if ('state' in parsed) return parsed.state;
  let id: string;
  try {
    id = (await createBoard(await getDb(), user.id, parsed.data)).id;
  } catch (err) {
    return formError(err, values);
  }
  redirect(`/dashboard/leaderboards/${id}`);
}

export async function joinBoardAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser('/dashboard/leaderboards');
  const values = { code: field(form, 'code') };
  const parsed = parseForm(joinBoardSchema, values);
  if ('state' in parsed) return parsed.state;
  let id: string;
  try {
    id = (await joinBoard(await getDb(), user.id, parsed.data.code)).id;
  } catch (err) {
    return formError(err, values);
  }
  redirect(`/dashboard/leaderboards/${id}`);
}

/** Leave, replace the code, delete: a stale or foreign id changes nothing and lands on the list. */
async function onBoard(form: FormData, act: (userId: string, id: string) => Promise<unknown>, then: (id: string) => string): Promise<never> {
  const user = await requireUser('/dashboard/leaderboards');
  const id = String(form.get('id'));
  const done = await act(user.id, id).then(() => true, (err) => (formError(err), false));
  revalidatePath('/dashboard/leaderboards');
  redirect(done ? then(id) : '/dashboard/leaderboards');
}

export async function leaveBoardAction(form: FormData): Promise<void> {
  const db = await getDb();
  await onBoard(form, (userId, id) => leaveBoard(db, userId, id), () => '/dashboard/leaderboards');
}

export async function rotateCodeAction(form: FormData): Promise<void> {
  const db = await getDb();
  await onBoard(form, (userId, id) => rotateInviteCode(db, userId, id), (id) => `/dashboard/leaderboards/${id}`);
}

export async function deleteBoardAction(form: FormData): Promise<void> {
  const db = await getDb();
  await onBoard(form, (userId, id) => deleteBoard(db, userId, id), () => '/dashboard/leaderboards');
}
