'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/problem';
import { setProjectHidden } from '@/lib/projects/hidden';
import { projectParam } from '@/lib/projects/read';
import { renameProject } from '@/lib/projects/rename';
import { hideProjectSchema, renameProjectSchema } from '@/lib/projects/schemas';
import { mergeQuestion } from '@/lib/web/account/projects';
import { requireUser } from '@/lib/web/account/session';

// The project pages' forms: the same schemas and lib functions as POST /me/projects/{name}/rename
// and PUT /me/projects/{name}/hidden. Next refuses server actions posted from another site. A
// refusal comes back to the project's page as a notice (the forms work without JavaScript).

const pageOf = (name: string, notice?: string) => `/dashboard/projects/${encodeURIComponent(name)}${notice ? `?notice=${encodeURIComponent(notice)}` : ''}`;

async function refused(name: string, err: unknown): Promise<never> {
  if (!(err instanceof ApiError) || err.status >= 500) throw err;
  redirect(pageOf(name, err.extra.errors?.[0]?.message ?? err.detail));
}

export async function renameProjectAction(form: FormData): Promise<void> {
  const user = await requireUser('/dashboard/projects');
  const name = String(form.get('name') ?? '');
  let renamed = '';
  let ask: string | null = null;
  try {
    const { to } = renameProjectSchema.parse({ to: form.get('to') ?? '' });
    // A name that already has time merges: the page asks first, naming both and their time.
    if (form.get('confirm') !== 'merge' && (await mergeQuestion(user, name, to))) ask = to;
    else renamed = (await renameProject(await getDb(), user.id, projectParam(name), to)).project;
  } catch (err) {
    const issue = (err as { issues?: { message: string }[] }).issues?.[0];
    if (issue) redirect(pageOf(name, issue.message));
    return refused(name, err);
  }
  if (ask !== null) redirect(`${pageOf(name)}?merge=${encodeURIComponent(ask)}#p-rename`);
  revalidatePath('/dashboard', 'layout');
  redirect(pageOf(renamed, `Renamed to ${renamed}.`));
}

export async function setProjectHiddenAction(form: FormData): Promise<void> {
  const user = await requireUser('/dashboard/projects');
  const name = String(form.get('name') ?? '');
  const { hidden } = hideProjectSchema.parse({ hidden: form.get('hidden') === 'true' });
  try {
    await setProjectHidden(await getDb(), user.id, projectParam(name), hidden);
  } catch (err) {
    return refused(name, err);
  }
  revalidatePath('/dashboard', 'layout');
  redirect(pageOf(name, hidden ? 'Hidden: only your project list names it now.' : 'Shown again.'));
}
