import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { AccountLink } from '@/app/components/account-link';
import { shellScript } from '@/app/components/shell-script';
import { ThemeSwitch } from '@/app/components/theme-switch';
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

// Plain links (a cached page's load costs a phone less than the router's prefetches), and what
// the shell does in a browser is one inline script (app/components/shell-script.ts): no client
// component on the public pages (decision 0020).
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script data-shell dangerouslySetInnerHTML={{ __html: shellScript }} />
      </head>
      <body>
        <a className="skip" href="#content">
          Skip to content
        </a>
        <header className="site">
          <nav aria-label="Main">
            <a className="brand" href="/">
              Codetally
            </a>
            <a href="/leaderboard">Leaderboard</a>
            <a href="/pricing">Pricing</a>
            <a href="/docs">Docs</a>
            <AccountLink />
          </nav>
        </header>
        <main id="content">{children}</main>
        <footer className="site">
          Codetally counts time, never content. <a href="/docs">Documentation</a> · <a href="/docs/api">API reference</a> · <a href="/main/api/v1/openapi.json">openapi.json</a>
          <ThemeSwitch />
        </footer>
      </body>
    </html>
  );
}
