import type { Metadata } from 'next';
import { accountData } from '@/lib/web/account/dashboard';
import { requireUser } from '@/lib/web/account/session';
import { PlanUsage } from '../../plan-usage';
import { DeleteAccount, PasswordForm } from '../../widgets';

// Settings, Account: the password, the plan and what it allows, one's data (export, deletion).

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Account · Settings', description: 'Your password, plan and data.', robots: { index: false } };

export default async function AccountPage() {
  const user = await requireUser('/dashboard/settings/account');
  const account = await accountData(user);
  return (
    <>
      {account.email && (
        <>
          <h2 id="password">Password</h2>
          <PasswordForm />
        </>
      )}

      <h2 id="plan">Your plan</h2>
      <PlanUsage plan={account.plan} />

      <h2 id="data">Your data</h2>
      <p>
        <a className="button secondary" href="/main/api/v1/me/export" download>
          Export all my data (JSON)
        </a>
      </p>
      <DeleteAccount handle={account.handle} />
    </>
  );
}
