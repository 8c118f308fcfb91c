import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { signInOptions } from '@/lib/auth/providers';
import { currentUser } from '@/lib/web/session';
import { SignUpForm } from '../signin/forms';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Create an account', description: 'Sign up for Codetally. Everything you send starts private.' };

export default async function SignUp() {
  if (await currentUser()) redirect('/dashboard');
  const options = signInOptions();
  return (
    <>
      <h1>Create an account</h1>
      <p className="lead">Everything starts private: nothing about you is public until you turn it on in the dashboard.</p>
      {options.password ? (
        <SignUpForm />
      ) : (
        <p>
          This installation signs people up through {options.oauth.map((o) => o.name).join(' or ') || 'no provider yet'}: <a href="/signin">sign in</a>.
        </p>
      )}
      <p>
        Already have an account? <a href="/signin">Sign in</a>.
      </p>
    </>
  );
}
