'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

// While an import runs, the Import page reads its progress again every few seconds (the page's
// server render); without JavaScript, reloading the page does the same.

const EVERY_MS = 2_000;

export function RefreshWhileRunning() {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), EVERY_MS);
    return () => clearInterval(timer);
  }, [router]);
  return null;
}
