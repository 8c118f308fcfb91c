'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/problem';
import { setProjectHidden } from '@/lib/projects/hidden';
import { splitMerge } from '@/lib/projects/merges';
import { projectParam } from '@/lib/projects/read';
import { renameProject } from '@/lib/projects/rename';
import { hideProjectSchema, renameProjectSchema, splitProjectSchema } from '@/lib/projects/schemas';
import { mergeQuestion, type ProjectNotice } from '@/lib/web/account/projects';
import { requireUser } from '@/lib/web/account/session';

// The project pages' forms: the same schemas and lib functions as POST /me/projects/{name}/rename,
// /split and PUT /me/projects/{name}/hidden. Next refuses server actions posted from another site.
// The outcome comes back to the project's page as a notice code (the forms work without JavaScript).

const pageOf = (name: string, notice?: ProjectNotice) => `/dashboard/projects/${encodeURIComponent(name)}${notice ? `?notice=${notice}` : ''}`;

/** A refusal's notice on the page: the API's code where the page has words for it. */
function refused(name: string, err: unknown): never {
  if (err instanceof ApiError && (err.code === 'not_found' || err.code === 'merge_changed')) redirect(pageOf(name, err.code));
  if ((err as { issues?: unknown[] }).issues?.length) redirect(pageOf(name, 'invalid_to'));
  throw err;
}

export async function renameProjectAction(form: FormData): Promise<void> {
  const user = await requireUser('/dashboard/projects');
  const name = String(form.get('name') ?? '');
  let renamed: { project: string; merged: boolean } | null = null;
  let ask: string | null = null;
  try {
    const { to } = renameProjectSchema.parse({ to: form.get('to') ?? '' });
    // A name that already has time merges: the page asks first, naming both and their time.
    if (form.get('confirm') !== 'merge' && (await mergeQuestion(user, name, to))) ask = to;
    else renamed = await renameProject(await getDb(), user.id, projectParam(name), to);
  } catch (err) {
    refused(name, err);
  }
  if (ask !== null) redirect(`${pageOf(name)}?merge=${encodeURIComponent(ask)}#p-rename`);
  revalidatePath('/dashboard', 'layout');
  redirect(pageOf(renamed!.project, renamed!.merged ? 'merged' : 'renamed'));
}

export async function splitProjectAction(form: FormData): Promise<void> {
  const user = await requireUser('/dashboard/projects');
  const into = String(form.get('into') ?? '');
  let project = '';
  try {
    ({ project } = await splitMerge(await getDb(), user.id, projectParam(into), splitProjectSchema.parse({ project: form.get('project') ?? '' }).project));
  } catch (err) {
    refused(into, err);
  }
  revalidatePath('/dashboard', 'layout');
  redirect(pageOf(project, 'split'));
}

export async function setProjectHiddenAction(form: FormData): Promise<void> {
  const user = await requireUser('/dashboard/projects');
  const name = String(form.get('name') ?? '');
  const { hidden } = hideProjectSchema.parse({ hidden: form.get('hidden') === 'true' });
  try {
    await setProjectHidden(await getDb(), user.id, projectParam(name), hidden);
  } catch (err) {
    refused(name, err);
  }
  revalidatePath('/dashboard', 'layout');
  redirect(pageOf(name, hidden ? 'hidden' : 'shown'));
}
