import { Suspense, type ReactNode } from 'react';
import { settingsTabs, Tabs } from '../tabs';

// Settings: keys, sharing, badges and README cards, import, and the account (password, plan, data).
export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <h1>Settings</h1>
      <Suspense>
        <Tabs label="Settings" tabs={settingsTabs} />
      </Suspense>
      {children}
    </>
  );
}
