import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { AccountLink } from '@/app/components/account-link';
import { ThemeSwitch, themeScript } from '@/app/components/theme-switch';
import { configuredOrigin } from '@/lib/http/origin';
import './globals.css';

export function generateMetadata(): Metadata {
  return {
    // Social images and canonical links are absolute: at SITE_URL (pages are cached for everyone).
    metadataBase: new URL(configuredOrigin()),
    title: { default: 'Codetally — coding activity, privately', template: '%s · Codetally' },
    description: 'Coding time from your editors and desktop, with privacy enforced by the server: charts, a leaderboard and README badges.',
  };
}

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#0f1218' },
  ],
};

// Links without prefetching: prefetching every page of the navigation on every visit cost a
// phone more script time than it saves (public pages are cached HTML anyway).
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>
        <a className="skip" href="#content">
          Skip to content
        </a>
        <header className="site">
          <nav aria-label="Main">
            <Link prefetch={false} className="brand" href="/">
              Codetally
            </Link>
            <Link prefetch={false} href="/leaderboard">Leaderboard</Link>
            <Link prefetch={false} href="/pricing">Pricing</Link>
            <Link prefetch={false} href="/docs">Docs</Link>
            <AccountLink />
          </nav>
        </header>
        <main id="content">{children}</main>
        <footer className="site">
          Codetally counts time, never content. <Link prefetch={false} href="/docs">API and plugin guide</Link> · <a href="/main/api/v1/openapi.json">openapi.json</a>
          <ThemeSwitch />
        </footer>
      </body>
    </html>
  );
}
