import type { Metadata } from 'next';
import { resetLinkWorks } from '@/lib/accounts/password-reset';
import { getDb } from '@/lib/db/client';
import { NewPasswordForm } from '../forgot-password/forms';

export const dynamic = 'force-dynamic';
// The address carries the link's token: no other site is told it.
export const metadata: Metadata = { title: 'Choose a new password', robots: { index: false }, referrer: 'no-referrer' };

/** The page of a reset link: it shows the form while the link works and uses it only when the form is sent. */
export default async function ResetPassword({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const works = typeof token === 'string' && (await resetLinkWorks(await getDb(), token));
  return (
    <>
      <h1>Choose a new password</h1>
      {works ? (
        <NewPasswordForm token={token} />
      ) : (
        <p>
          This link does not work any more: it was used, it expired (links work for 30 minutes), or a newer one was sent.{' '}
          <a href="/forgot-password">Ask for a new link</a>.
        </p>
      )}
    </>
  );
}
