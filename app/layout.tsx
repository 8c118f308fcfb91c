import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { currentUser, requestOrigin } from '@/lib/web/session';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  return {
    // Social images and canonical links are absolute: at the site's origin, never the listen address.
    metadataBase: new URL(await requestOrigin()),
    title: { default: 'Codetally — coding activity, privately', template: '%s · Codetally' },
    description: 'Coding time from your editors and desktop, with privacy enforced by the server: charts, a leaderboard and README badges.',
  };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  return (
    <html lang="en">
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
            {user ? <a href="/dashboard">Dashboard</a> : <a href="/signin">Sign in</a>}
          </nav>
        </header>
        <main id="content">{children}</main>
        <footer className="site">
          Codetally counts time, never content. <a href="/docs">API and plugin guide</a> · <a href="/main/api/v1/openapi.json">openapi.json</a>
        </footer>
      </body>
    </html>
  );
}
