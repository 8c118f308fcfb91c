'use client';

import { usePathname, useSearchParams } from 'next/navigation';

// The signed-in area's persistent navigation: the views of one's figures and the settings, as a
// row of tabs (scrolling sideways on a phone), the current one marked for screen readers too. A
// view that draws a range keeps the one shown (range, or from and to) when it is left for another.

export interface Tab {
  href: string;
  label: string;
  /** The view draws a range chosen as on the dashboard: a link to it carries the current one. */
  ranged?: boolean;
  /** Only this address is the tab (the area's first page, whose address begins every other). */
  exact?: boolean;
}

export const dashboardTabs: Tab[] = [
  { href: '/dashboard', label: 'Overview', ranged: true, exact: true },
  { href: '/dashboard/timeline', label: 'Timeline' },
  { href: '/dashboard/insights', label: 'Insights', ranged: true },
  { href: '/dashboard/breakdowns', label: 'Breakdowns', ranged: true },
  { href: '/dashboard/projects', label: 'Projects', ranged: true },
  { href: '/dashboard/goals', label: 'Goals' },
  { href: '/dashboard/teams', label: 'Teams' },
  { href: '/dashboard/leaderboards', label: 'Leaderboards' },
  { href: '/dashboard/settings', label: 'Settings' },
];

export const settingsTabs: Tab[] = [
  { href: '/dashboard/settings', label: 'Keys', exact: true },
  { href: '/dashboard/settings/sharing', label: 'Sharing' },
  { href: '/dashboard/settings/badges', label: 'Badges and cards' },
  { href: '/dashboard/settings/import', label: 'Import' },
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
              <a href={t.ranged ? `${t.href}${carried}` : t.href} aria-current={current ? 'page' : undefined}>
                {t.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
