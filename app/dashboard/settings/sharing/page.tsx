import type { Metadata } from 'next';
import { mailConfigured } from '@/lib/mail/transport';
import { accountData } from '@/lib/web/account/dashboard';
import { requireUser } from '@/lib/web/account/session';
import { SettingsForm } from '../../widgets';

// Settings, Sharing: the profile, what it and the leaderboard show, the time zone, the weekly report.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sharing · Settings', description: 'What your public profile, badges and the leaderboard may show.', robots: { index: false } };

export default async function SharingPage() {
  const user = await requireUser('/dashboard/settings/sharing');
  const account = await accountData(user);
  const profile = `/u/${encodeURIComponent(account.handle)}`;
  return (
    <>
      <h2 id="sharing">Sharing</h2>
      <p>
        Everything is private until you turn it on. Your public profile: <a href={profile}>{profile}</a>
        {account.settings.profile_public ? '' : ' (answers “not found” while private)'}.
      </p>
      <SettingsForm account={account} mail={mailConfigured()} />
      <datalist id="timezones">
        {Intl.supportedValuesOf('timeZone').map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </>
  );
}
