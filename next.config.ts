import type { NextConfig } from 'next';

// Pages may be framed by no one and load nothing from elsewhere; the API's answers (badges and
// charts included) stay embeddable anywhere. Scripts and styles allow 'unsafe-inline': Next's
// server-rendered pages carry their data in inline scripts, and a per-request nonce would make
// every page dynamic. HSTS is added by the server when the request came over HTTPS
// (lib/server/front.ts).
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self' https:", // sign-in with an outside provider posts on to it
  "frame-ancestors 'none'",
].join('; ');

const nextConfig: NextConfig = {
  // .next/standalone: the server with only the files it needs (completed by scripts/bundle.mjs).
  output: 'standalone',
  // PGlite loads its WASM and data files from its own package directory at run time.
  serverExternalPackages: ['@electric-sql/pglite'],
  poweredByHeader: false,
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
        ],
      },
      {
        source: '/((?!main/api/).*)',
        headers: [
          { key: 'Content-Security-Policy', value: contentSecurityPolicy },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
};

export default nextConfig;
