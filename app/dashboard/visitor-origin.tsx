'use client';

import { useSyncExternalStore } from 'react';
import type { SiteAddress } from '@/lib/web/account/session';

// Links and snippets naming this site, as its visitor reaches it. Without SITE_URL the server
// knows the address only from the request's Host, and a page rendered after a form's redirect
// (signing up, making a team) is fetched by Next from its own address (localhost): the browser's
// address bar is the one to follow. With SITE_URL set (`follow` false) they name it, whatever
// address the visitor used.

const subscribe = () => () => {};

/** The origin to show: the visitor's once hydrated (when `follow`), the server's until then. */
export function useVisitorOrigin(site: SiteAddress): string {
  const visitor = useSyncExternalStore(
    subscribe,
    () => location.origin,
    () => null,
  );
  return site.follow && visitor !== null ? visitor : site.origin;
}

/** `text` with the server's origin and host replaced by the visitor's (none: `text`). */
export function useVisitorText(text: string, site: SiteAddress | undefined): string {
  const origin = useVisitorOrigin(site ?? { origin: '', follow: false });
  if (!site || origin === site.origin) return text;
  return text.replaceAll(site.origin, origin).replaceAll(new URL(site.origin).host, new URL(origin).host);
}

export function VisitorText({ text, site }: { text: string; site: SiteAddress }) {
  return <>{useVisitorText(text, site)}</>;
}

/** A read-only field holding `text`, for copying. */
export function VisitorInput({ id, text, site }: { id: string; text: string; site: SiteAddress }) {
  return <input id={id} type="text" readOnly value={useVisitorText(text, site)} />;
}
