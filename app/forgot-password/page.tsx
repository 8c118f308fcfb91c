import type { Metadata } from 'next';
import { mailConfigured } from '@/lib/mail/transport';
import { ForgotPasswordForm } from './forms';
import { OperatorReset } from './operator';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Forgot your password?', description: 'Choose a new password for your Codetally account.', robots: { index: false } };

export default function ForgotPassword() {
  const mail = mailConfigured();
  return (
    <>
      <h1>Forgot your password?</h1>
      {mail ? (
        <>
          <p className="lead">Enter the email you sign in with: we mail you a link to choose a new password.</p>
          <ForgotPasswordForm />
        </>
      ) : (
        <OperatorReset />
      )}
      <p>
        Remembered it? <a href="/signin">Sign in</a>.
      </p>
    </>
  );
}
