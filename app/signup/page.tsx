import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { signInOptions } from '@/lib/auth/providers';
import { getDb } from '@/lib/db/client';
import { chosenPlan } from '@/lib/web/public/pricing';
import { currentUser, requestOrigin } from '@/lib/web/account/session';
import { keepingCallback, safeCallback } from '@/lib/web/account/forms';
import { invitationIn } from '@/lib/web/account/invitation';
import { SignUpForm } from '../signin/forms';
import { PlanNotice } from './plan-notice';
import { InvitationNotice } from './invitation-notice';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Create an account', description: 'Sign up for Codetally. Everything you send starts private.' };

export default async function SignUp({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  // Where the visitor was going (an invite link, from the sign-in page): a path of this site only.
  const callbackUrl = safeCallback(search.callbackUrl, await requestOrigin());
  if (await currentUser()) redirect(callbackUrl);
  const options = signInOptions();
  // The plan chosen on the pricing page (/signup?plan=<id>); anything else is no choice.
  const plan = await chosenPlan(await getDb(), search.plan);
  const invitation = await invitationIn(await getDb(), callbackUrl);
  // After a sign-up on a site that sends mail (app/signin/actions.ts): the same for a new address and a taken one.
  if (search.sent)
    return (
      <>
        <h1>Check your mail</h1>
        <p className="lead" role="status">
          We sent a mail to the address you gave. Open the link in it to confirm the address, then sign in. No mail after a few minutes? Look in
          the spam folder, or <a href={keepingCallback('/signin', callbackUrl)}>sign in</a> to have the link sent again.
        </p>
        {invitation && <InvitationNotice invitation={invitation} after="The link in the mail brings you back to it once the address is confirmed." />}
      </>
    );
  return (
    <>
      <h1>Create an account</h1>
      <p className="lead">Everything starts private: nothing about you is public until you turn it on in the dashboard.</p>
      {plan && <PlanNotice plan={plan} role="status" />}
      {invitation && <InvitationNotice invitation={invitation} after="Create your account: the invitation waits for you through sign-up and the confirmation mail." />}
      {options.password ? (
        <SignUpForm plan={plan?.id} callbackUrl={callbackUrl === '/dashboard' ? undefined : callbackUrl} />
      ) : (
        <p>
          This installation signs people up through {options.oauth.map((o) => o.name).join(' or ') || 'no provider yet'}: <a href={keepingCallback('/signin', callbackUrl)}>sign in</a>.
        </p>
      )}
      <p>
        Already have an account? <a href={keepingCallback('/signin', callbackUrl)}>Sign in</a>.
      </p>
    </>
  );
}
