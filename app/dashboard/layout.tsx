import { Suspense, type ReactNode } from 'react';
import { SignedInPage } from '../components/account-link';
import { HiddenNotice } from './hidden-notice';
import { dashboardTabs, Tabs } from './tabs';

// The signed-in area: its tabs on every page of it (each page checks the session itself: a
// visitor without one is sent to sign in before anything is drawn).
export default function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <SignedInPage />
      <Suspense>
        <Tabs label="Dashboard" tabs={dashboardTabs} />
      </Suspense>
      <Suspense>
        <HiddenNotice />
      </Suspense>
      {children}
    </>
  );
}
