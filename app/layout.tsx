import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
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
            <Link className="brand" href="/">
              Codetally
            </Link>
            <Link href="/leaderboard">Leaderboard</Link>
            <Link href="/pricing">Pricing</Link>
            <Link href="/docs">Docs</Link>
            {user ? <Link href="/dashboard">Dashboard</Link> : <Link href="/signin">Sign in</Link>}
          </nav>
        </header>
        <main id="content">{children}</main>
        <footer className="site">
          Codetally counts time, never content. <Link href="/docs">API and plugin guide</Link> · <a href="/main/api/v1/openapi.json">openapi.json</a>
        </footer>
      </body>
    </html>
  );
}
