'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { createTokenSchema, deleteAccount, getAccount, updateAccount, updateAccountSchema } from '@/lib/accounts/me';
import { changePassword, changePasswordSchema } from '@/lib/accounts/sign-in';
import { issueToken, revokeToken } from '@/lib/accounts/tokens';
import { isEditorKey } from '@/lib/auth/sealed-keys';
import { createBadgeSchema } from '@/lib/badges/schemas';
import { createBadge, deleteBadge, refreshBadge } from '@/lib/badges/store';
import { getDb } from '@/lib/db/client';
import { assertMayPublish } from '@/lib/sharing/gate';
import { latestActivity } from '@/lib/stats/own';
import { authAction } from '@/lib/web/account/auth-actions';
import { formError, formText, parseForm, type FormState } from '@/lib/web/account/forms';
import { requireUser, visitorAddress, visitorAgent } from '@/lib/web/account/session';

// The dashboard's forms. Next refuses server actions posted from another site; each one also
// re-reads the session, validates with the API's own schema and calls the same lib function.

const settingFlags = ['profile_public', 'share_languages', 'share_editors', 'share_apps', 'share_ai', 'share_machines', 'leaderboard', 'community_stats', 'weekly_report'] as const;

export async function saveSettings(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  const input = {
    display_name: formText(form, 'display_name'),
    timezone: formText(form, 'timezone'),
    settings: Object.fromEntries(settingFlags.map((f) => [f, form.get(f) === 'on'])),
  };
  const values = { display_name: input.display_name, timezone: input.timezone, ...input.settings };
  const parsed = parseForm(updateAccountSchema, input);
  if ('state' in parsed) return { ...parsed.state, values };
  try {
    await updateAccount(await getDb(), user.id, parsed.data);
  } catch (err) {
    return formError(err, values);
  }
  revalidatePath('/', 'layout');
  return { ok: true, message: 'Saved.' };
}

export async function createToken(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  const scopes = form.getAll('scopes').map(String);
  // A key for a WakaTime plugin is in the format wakatime-cli accepts; one for Codetally's client a ct_ token.
  const use = form.get('use') === 'client' ? 'client' : 'wakatime';
  const format = use === 'client' ? 'ct' : 'uuid';
  const parsed = parseForm(createTokenSchema, { name: formText(form, 'name') ?? '', scopes: scopes.length ? scopes : undefined, format });
  if ('state' in parsed) return parsed.state;
  let issued;
  try {
    issued = await issueToken(await getDb(), user.id, parsed.data, { via: 'dashboard', userAgent: await visitorAgent() });
  } catch (err) {
    return formError(err, { name: parsed.data.name });
  }
  const { token, info } = issued;
  revalidatePath('/dashboard', 'layout');
  // A name a live token already has was given a number (issueToken): say so.
  const renamed = info.name === parsed.data.name ? '' : ` (you already have a token named "${parsed.data.name}")`;
  // An editor key is kept to be shown again (lib/auth/sealed-keys.ts); any other token is shown this once.
  const again = isEditorKey(format, info.scopes);
  const shown = again ? 'Settings, Keys can show it again for another machine.' : 'Copy it now: it is not shown again.';
  return { ok: true, message: `Token "${info.name}" created${renamed}. ${shown}`, result: { token, use, again } };
}

/** One click: a key in the format WakaTime plugins accept (sync and stats); Settings, Keys shows it again (lib/auth/sealed-keys.ts). */
export async function connectEditor(_: FormState): Promise<FormState> {
  const user = await requireUser();
  try {
    const { token, info } = await issueToken(await getDb(), user.id, { name: 'WakaTime plugins', format: 'uuid' }, { via: 'dashboard', userAgent: await visitorAgent() });
    revalidatePath('/dashboard', 'layout');
    return { ok: true, message: `Key "${info.name}" created. Copy the settings: for another machine, Settings, Keys shows this key again.`, result: { token } };
  } catch (err) {
    return formError(err, {});
  }
}

/** What the user's plugins or agent sent last (null before the first): the set-up steps poll it. */
export async function latestActivityAction() {
  const user = await requireUser();
  return latestActivity(await getDb(), user.id);
}

/** A one-button action on one of the user's own tokens or badges, by id; a stale id changes nothing. */
async function onOwn(form: FormData, change: (db: Awaited<ReturnType<typeof getDb>>, userId: string, id: string) => Promise<unknown>) {
  const user = await requireUser();
  await change(await getDb(), user.id, String(form.get('id'))).catch(formError);
  revalidatePath('/dashboard', 'layout');
}

export async function revokeTokenAction(form: FormData): Promise<void> {
  await onOwn(form, revokeToken);
}

export async function createBadgeAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  const metric = formText(form, 'metric');
  const parsed = parseForm(createBadgeSchema, {
    metric,
    range: formText(form, 'range'),
    language: metric === 'language' ? formText(form, 'language') : undefined,
    label: formText(form, 'label'),
    color: formText(form, 'color'),
    style: formText(form, 'style'),
  });
  if ('state' in parsed) return parsed.state;
  try {
    await assertMayPublish(await getDb(), user.id, parsed.data);
    await createBadge(await getDb(), user.id, parsed.data);
  } catch (err) {
    return formError(err);
  }
  revalidatePath('/dashboard', 'layout');
  return { ok: true, message: 'Badge created: copy its Markdown or HTML below.' };
}

export async function refreshBadgeAction(form: FormData): Promise<void> {
  await onOwn(form, refreshBadge);
}

export async function deleteBadgeAction(form: FormData): Promise<void> {
  await onOwn(form, deleteBadge);
}

export async function changePasswordAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  const parsed = parseForm(changePasswordSchema, { current: String(form.get('current') ?? ''), password: String(form.get('password') ?? '') });
  if ('state' in parsed) return parsed.state;
  const db = await getDb();
  try {
    if (!(await changePassword(db, user.id, parsed.data, await visitorAddress()))) return { fieldErrors: { current: 'That is not your current password.' } };
  } catch (err) {
    return formError(err);
  }
  // Every session of the user ended, this one too: sign this browser in again with the new password.
  const { email } = await getAccount(db, user.id);
  await authAction('callback/credentials', { email: email!, password: parsed.data.password, callbackUrl: '/dashboard' });
  revalidatePath('/dashboard', 'layout');
  return { ok: true, message: 'Password changed. Every other session is signed out.' };
}

export async function deleteAccountAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  if (String(form.get('confirm') ?? '').trim().toLowerCase() !== user.handle.toLowerCase()) {
    return { fieldErrors: { confirm: `Type your handle, ${user.handle}, to confirm.` } };
  }
  await deleteAccount(await getDb(), user.id);
  await authAction('signout', { callbackUrl: '/' });
  redirect('/?deleted=1');
}
