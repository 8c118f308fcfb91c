import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { signInOptions } from '@/lib/auth/providers';
import { getDb } from '@/lib/db/client';
import { mailConfigured } from '@/lib/mail/transport';
import { keepingCallback, safeCallback } from '@/lib/web/account/forms';
import { invitationIn } from '@/lib/web/account/invitation';
import { chosenPlan } from '@/lib/web/public/pricing';
import { currentUser, requestOrigin } from '@/lib/web/account/session';
import { signInWithProvider } from './actions';
import { SignInForm } from './forms';
import { PlanNotice } from '../signup/plan-notice';
import { InvitationNotice } from '../signup/invitation-notice';
import { OperatorReset } from '../forgot-password/operator';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign in', description: 'Sign in to Codetally to manage tokens, sharing and badges.' };

export default async function SignIn({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const search = await searchParams;
  const callbackUrl = safeCallback(search.callbackUrl, await requestOrigin());
  if (await currentUser()) redirect(callbackUrl);
  const options = signInOptions();
  // The plan chosen on the pricing page, carried over from signing up.
  const plan = search.signedUp ? await chosenPlan(await getDb(), search.plan) : null;
  // An invite link that asked for a sign-in: named here, and kept by "Create an account".
  const invitation = await invitationIn(await getDb(), callbackUrl);
  return (
    <>
      <h1>Sign in</h1>
      {invitation && <InvitationNotice invitation={invitation} after="Sign in to see it and join, or create an account: the invitation waits for you through sign-up and the confirmation mail." />}
      {search.signedUp && (
        <p className="notice" role="status">
          Signing up did not sign you in: that email may already have an account. Sign in with the email and its password.
        </p>
      )}
      {plan && <PlanNotice plan={plan} />}
      {search.reset && (
        <p className="notice" role="status">
          Your new password is set, and every device was signed out. Sign in with it.
        </p>
      )}
      {search.confirmed && (
        <p className="notice" role="status">
          Your email is confirmed. Sign in with it and your password.
        </p>
      )}
      {search.error && <p className="form-error">Sign-in did not work ({search.error}). Try again.</p>}
      {options.oauth.length > 0 && (
        <form action={signInWithProvider}>
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          {options.oauth.map((o) => (
            <p key={o.id}>
              <button type="submit" name="provider" value={o.id} className="secondary">
                Continue with {o.name}
              </button>
            </p>
          ))}
        </form>
      )}
      {options.password && <SignInForm callbackUrl={callbackUrl} />}
      {!options.password && options.oauth.length === 0 && <p>No way of signing in is configured on this installation. See docs/running.md in the source, under Configuration.</p>}
      {options.password && (
        <p>
          New here? <a href={keepingCallback('/signup', callbackUrl)}>Create an account</a>.
        </p>
      )}
      {options.password &&
        (mailConfigured() ? (
          <p>
            <a href="/forgot-password">Forgot your password?</a>
          </p>
        ) : (
          <OperatorReset />
        ))}
    </>
  );
}
