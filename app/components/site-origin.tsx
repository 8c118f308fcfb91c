'use client';
import { useSyncExternalStore } from 'react';

// Text that names the site's address, on a page served from the cache (the same for everyone):
// rendered with the configured origin (SITE_URL), then with the address this browser used.

const never = () => () => {};

/** `text` with every `{origin}` replaced by the site's origin. */
export function WithOrigin({ text, configured }: { text: string; configured: string }) {
  const origin = useSyncExternalStore(never, () => window.location.origin, () => configured);
  return <>{text.replaceAll('{origin}', origin)}</>;
}
