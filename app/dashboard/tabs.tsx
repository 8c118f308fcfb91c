'use client';

import { usePathname, useSearchParams } from 'next/navigation';

// The signed-in area's persistent navigation: the views of one's figures and the settings, as a
// row of tabs (scrolling sideways on a phone), the current one marked for screen readers too. Every
// tab carries the range in the address (range, or from and to), a view that draws none too: the
// next view that draws one opens on the dates the last one showed, after a visit to Goals or
// Settings as well (a page without a range reads none of them). Every ranged view opens on the
// same default when there is none (DASHBOARD_RANGE).

export interface Tab {
  href: string;
  label: string;
  /** Only this address is the tab (the area's first page, whose address begins every other). */
  exact?: boolean;
}

export const dashboardTabs: Tab[] = [
  { href: '/dashboard', label: 'Overview', exact: true },
  { href: '/dashboard/timeline', label: 'Timeline' },
  { href: '/dashboard/insights', label: 'Insights' },
  { href: '/dashboard/breakdowns', label: 'Breakdowns' },
  { href: '/dashboard/projects', label: 'Projects' },
  { href: '/dashboard/goals', label: 'Goals' },
  { href: '/dashboard/teams', label: 'Teams' },
  { href: '/dashboard/leaderboards', label: 'Leaderboards' },
  { href: '/dashboard/settings', label: 'Settings' },
];

export const settingsTabs: Tab[] = [
  { href: '/dashboard/settings', label: 'Keys', exact: true },
  { href: '/dashboard/settings/sending', label: 'Sending' },
  { href: '/dashboard/settings/sharing', label: 'Sharing' },
  { href: '/dashboard/settings/badges', label: 'Badges and cards' },
  { href: '/dashboard/settings/import', label: 'Import' },
  { href: '/dashboard/settings/relays', label: 'Relays' },
  { href: '/dashboard/settings/account', label: 'Account' },
];

const RANGE_PARAMS = ['range', 'from', 'to'];

export function Tabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  const path = usePathname();
  const search = useSearchParams();
  const range = new URLSearchParams();
  for (const name of RANGE_PARAMS) {
    const value = search.get(name);
    if (value) range.set(name, value);
  }
  const query = range.toString();
  const carried = query ? `?${query}` : '';
  return (
    <nav aria-label={label} className="tabs">
      <ul>
        {tabs.map((t) => {
          const current = path === t.href || (!t.exact && path.startsWith(`${t.href}/`));
          return (
            <li key={t.href}>
              <a href={`${t.href}${carried}`} aria-current={current ? 'page' : undefined}>
                {t.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
