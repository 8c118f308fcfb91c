import type { Metadata } from 'next';
import { ConfirmForm } from '../forgot-password/forms';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Confirm your email', robots: { index: false }, referrer: 'no-referrer' };

/**
 * The page of a confirmation link: a button, since opening a link changes nothing (mail scanners
 * open links too).
 */
export default async function ConfirmEmail({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  return (
    <>
      <h1>Confirm your email</h1>
      {typeof token === 'string' ? (
        <>
          <p className="lead">One click to finish signing up; then sign in with your email and password.</p>
          <ConfirmForm token={token} />
        </>
      ) : (
        <p>
          This address lacks its link. Open the link in the mail again, or <a href="/signin">sign in</a> to have a new one sent.
        </p>
      )}
    </>
  );
}
