'use client';
import Link from 'next/link';
import { useEffect, useState } from 'react';

// The signed-in part of the header, asked by the browser (Auth.js's /auth/session, which checks
// that the session was not ended): pages stay the same for everyone, so they can be cached.

export function AccountLink() {
  const [signedIn, setSignedIn] = useState(false);
  useEffect(() => {
    let live = true;
    fetch('/auth/session', { credentials: 'same-origin', cache: 'no-store' })
      .then((res) => (res.ok ? res.json() : null))
      .then((session: { user?: unknown } | null) => live && setSignedIn(Boolean(session?.user)))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  return signedIn ? <Link prefetch={false} href="/dashboard">Dashboard</Link> : <Link prefetch={false} href="/signin">Sign in</Link>;
}
