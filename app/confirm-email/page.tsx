import type { Metadata } from 'next';
import { confirmLinkWorks } from '@/lib/accounts/confirmation';
import { getDb } from '@/lib/db/client';
import { ConfirmForm } from '../forgot-password/forms';
import { sameOriginPath } from '@/lib/http/url';
import { requestOrigin } from '@/lib/web/account/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Confirm your email', robots: { index: false }, referrer: 'no-referrer' };

/**
 * The page of a confirmation link: opening it changes nothing (mail scanners open links too); the
 * form confirms with the password chosen at sign-up, so the link confirms only credentials its
 * mailbox's holder knows (lib/accounts/confirmation.ts).
 */
export default async function ConfirmEmail({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token, next } = await searchParams;
  // Where the sign-up was going (an invite link), carried by the mailed link: a path of this site only.
  const then = sameOriginPath(next, await requestOrigin()) ?? undefined;
  const works = typeof token === 'string' && (await confirmLinkWorks(await getDb(), token));
  return (
    <>
      <h1>Confirm your email</h1>
      {works ? (
        <>
          <p className="lead">Enter the password you chose when you signed up: that confirms the address and signs you in.</p>
          <ConfirmForm token={token} next={then} />
          <p className="muted">
            Did not sign up to Codetally? Ignore the mail: nothing is confirmed without the password of the sign-up. Signed up but forgot the
            password? <a href="/forgot-password">Reset it</a>: the link we mail confirms the address too.
          </p>
        </>
      ) : (
        <p>
          This link does not work any more: it was used, it expired (links work for 24 hours), or the address was signed up again since (the
          newest mail has the link that works). <a href="/signin">Sign in</a> to have a new one sent.
        </p>
      )}
    </>
  );
}
