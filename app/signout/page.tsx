import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignedInPage } from '../components/account-link';
import { signOut } from '../signin/actions';
import { currentUser } from '@/lib/web/account/session';

// Where the header's "Sign out" leads: one button, a form that works without JavaScript. The
// header is the same on every page (cached pages included), so it links here rather than
// holding a form of its own.
export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign out', description: 'Sign out of Codetally in this browser.', robots: { index: false } };

export default async function SignOut() {
  const user = await currentUser();
  if (!user) redirect('/');
  return (
    <>
      <SignedInPage />
      <h1>Sign out</h1>
      <p>
        Signed in as @{user.handle}. Signing out ends this browser&apos;s session; your editors keep sending with their keys.
      </p>
      <form action={signOut}>
        <button type="submit">Sign out</button>
      </form>
      <p>
        <a href="/dashboard">Back to the dashboard</a>
      </p>
    </>
  );
}
