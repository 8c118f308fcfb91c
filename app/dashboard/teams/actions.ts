'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { inviteByMail } from '@/lib/teams/invitations';
import { createTeamSchema, invitationSchema, inviteCodeSchema, joinTeamSchema, roleSchema, shareSchema } from '@/lib/teams/schemas';
import { createTeam, deleteTeam, joinTeam, removeMember, rotateInviteCode, setRole, setShare } from '@/lib/teams/teams';
import { noticeOf } from '@/lib/web/account/notices';
import { joinPath } from '@/lib/web/account/invitation';
import { requireUser } from '@/lib/web/account/session';

// The team pages' forms: the session re-read, the API's own schemas, the same lib functions. A
// refusal comes back to the page as `?error=<code>`, whose fixed text the page shows above its
// forms (lib/web/account/notices.ts).

const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v : undefined;
};

/** Runs a change; a refusal (validation, role, last owner) goes back to `page` as a message. */
async function attempt<T>(page: string, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (err) {
    const notice = noticeOf(err);
    if (notice === null) throw err;
    redirect(`${page}${page.includes('?') ? '&' : '?'}error=${notice}`);
  }
}

export async function createTeamAction(form: FormData): Promise<void> {
  const user = await requireUser('/dashboard/teams');
  const team = await attempt('/dashboard/teams', async () => createTeam(await getDb(), user.id, createTeamSchema.parse({ name: field(form, 'name') }).name));
  redirect(`/dashboard/teams/${team.id}`);
}

export async function joinTeamAction(form: FormData): Promise<void> {
  // A refusal goes back to the invitation (its page says why: full, expired), not a bare list.
  const code = field(form, 'code')?.trim().slice(0, 100);
  const page = code ? joinPath('team', code) : '/dashboard/teams';
  const user = await requireUser(page);
  const team = await attempt(page, async () => joinTeam(await getDb(), user.id, joinTeamSchema.parse({ code: field(form, 'code') }).code));
  redirect(`/dashboard/teams/${team.id}`);
}

const teamPage = (form: FormData) => `/dashboard/teams/${encodeURIComponent(field(form, 'team') ?? '')}`;

export async function shareAction(form: FormData): Promise<void> {
  const page = teamPage(form);
  const user = await requireUser(page);
  await attempt(page, async () => setShare(await getDb(), user.id, field(form, 'team') ?? '', shareSchema.parse({ share: field(form, 'share') }).share));
  revalidatePath(page);
}

export async function rotateCodeAction(form: FormData): Promise<void> {
  const page = teamPage(form);
  const user = await requireUser(page);
  const days = field(form, 'expires_in_days')?.trim();
  await attempt(page, async () => {
    const { expires_in_days } = inviteCodeSchema.parse({ expires_in_days: days ? Number(days) : null });
    return rotateInviteCode(await getDb(), user.id, field(form, 'team') ?? '', expires_in_days ?? null);
  });
  revalidatePath(page);
}

export async function roleAction(form: FormData): Promise<void> {
  const page = teamPage(form);
  const user = await requireUser(page);
  await attempt(page, async () => setRole(await getDb(), user.id, field(form, 'team') ?? '', field(form, 'handle') ?? '', roleSchema.parse({ role: field(form, 'role') }).role));
  revalidatePath(page);
}

export async function removeMemberAction(form: FormData): Promise<void> {
  const page = teamPage(form);
  const user = await requireUser(page);
  await attempt(page, async () => removeMember(await getDb(), user.id, field(form, 'team') ?? '', field(form, 'handle') ?? ''));
  // Leaving ends one's view of the team.
  if (field(form, 'handle')?.toLowerCase() === user.handle.toLowerCase()) redirect('/dashboard/teams');
  revalidatePath(page);
}

export async function deleteTeamAction(form: FormData): Promise<void> {
  const page = teamPage(form);
  const user = await requireUser(page);
  await attempt(page, async () => deleteTeam(await getDb(), user.id, field(form, 'team') ?? ''));
  redirect('/dashboard/teams');
}

export async function inviteAction(form: FormData): Promise<void> {
  const page = teamPage(form);
  const user = await requireUser(page);
  await attempt(page, async () => inviteByMail(await getDb(), user.id, field(form, 'team') ?? '', invitationSchema.parse({ email: field(form, 'email') }).email));
  redirect(`${page}?sent=1`);
}
