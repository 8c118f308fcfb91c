'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { projectBadgeSchema, setProjectBadge } from '@/lib/badges/wakapi-projects';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/problem';
import { projectParam } from '@/lib/projects/read';
import { requireUser } from '@/lib/web/account/session';

// The project page's "Public badge" form: the same schema and lib function as PUT
// /me/projects/{name}/badge. A project with no time comes back with the page's not-found notice.

export async function setProjectBadgeAction(form: FormData): Promise<void> {
  const user = await requireUser('/dashboard/projects');
  const name = String(form.get('name') ?? '');
  const page = `/dashboard/projects/${encodeURIComponent(name)}`;
  const { public: on } = projectBadgeSchema.parse({ public: form.get('public') === 'true' });
  try {
    await setProjectBadge(await getDb(), user.id, projectParam(name), on);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') redirect(`${page}?notice=not_found`);
    throw err;
  }
  revalidatePath(page);
  redirect(`${page}#p-badge`);
}
