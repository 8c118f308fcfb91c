import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendConfirmationAgain } from '@/app/forgot-password/actions';
import { QUIET_MINUTES, signUpByMail } from '@/lib/accounts/confirmation';
import { resetConfig } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { linkIn, startMailbox, type Mailbox } from '../helpers/smtp';

// "Send the link again" (the sign-in page, after a refusal for an unconfirmed address) carries
// where the sign-in was going (an invite link), as sign-up does: the new link lands there once
// the address is confirmed. Anything but a path of this site is dropped.

// The form's action, called as the browser's post calls it: the request's headers, and the mail
// it leaves behind the answer (`after`) awaited here.
const pending: Promise<unknown>[] = [];
vi.mock('next/headers', () => ({
  headers: async () => new Headers({ host: 'codetally.test', 'x-forwarded-proto': 'https', 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250)}` }),
  cookies: async () => ({ get: () => undefined, getAll: () => [], has: () => false }),
}));
vi.mock('next/server', async (original) => ({ ...(await original<typeof import('next/server')>()), after: (task: Promise<unknown>) => void pending.push(task) }));

const site = 'https://codetally.test';
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
  Object.assign(process.env, { SMTP_URL: mailbox.url, MAIL_FROM: 'Codetally <codetally@example.test>', SITE_URL: site, AUTH_PASSWORD: 'on' });
  resetConfig();
});
afterAll(async () => {
  for (const name of ['SMTP_URL', 'MAIL_FROM', 'SITE_URL']) delete process.env[name];
  resetConfig();
  await mailbox.close();
});

async function sendAgain(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const state = await sendConfirmationAgain({}, form);
  await Promise.all(pending.splice(0));
  return state;
}

describe('"Send the link again"', () => {
  it('carries the invitation the sign-in was on its way to, and nothing from another site', async () => {
    const handle = `s_${Math.random().toString(36).slice(2, 8)}`;
    const email = `${handle}@example.test`;
    const invite = '/dashboard/teams/join?code=abc123';
    await (await signUpByMail(await getDb(), { handle, email, password: 'correct horse battery' }, '203.0.113.9', invite)).delivered;
    await mailbox.next(email, 0);
    const older = async () => (await getDb()).execute(sql`UPDATE mail_tokens SET created_at = created_at - make_interval(mins => ${QUIET_MINUTES})`);

    await older();
    expect((await sendAgain({ email, next: invite })).ok).toBe(true);
    expect(new URL(linkIn(await mailbox.next(email, 1), `${site}/confirm-email`)).searchParams.get('next')).toBe(invite);

    await older();
    expect((await sendAgain({ email, next: 'https://evil.example/phish' })).ok).toBe(true);
    expect(new URL(linkIn(await mailbox.next(email, 2), `${site}/confirm-email`)).searchParams.has('next')).toBe(false);
  });
});
