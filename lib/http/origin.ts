import { config } from '../config';

// Who and where a client is, from the headers a request carries. X-Forwarded-* headers are
// anybody's to send: they count only when the operator says how many proxies stand in front
// (TRUST_PROXY). The service's own server (scripts/serve.ts) replaces them with what the socket
// says whenever no proxy is trusted.

const hostPattern = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The last value of a header that proxies may have appended to. */
const lastValue = (value: string | null) => value?.split(',').pop()?.trim() || null;

/**
 * The origin clients use to reach the site (`https://codetally.example`): SITE_URL when set, else
 * the request's Host (or, behind trusted proxies, the forwarded host and protocol). Never the
 * address the server listens on.
 */
export function siteOrigin(headers: Headers): string {
  const { SITE_URL, TRUST_PROXY } = config();
  if (SITE_URL) return SITE_URL;
  const forwardedHost = TRUST_PROXY > 0 ? lastValue(headers.get('x-forwarded-host')) : null;
  const host = [forwardedHost, headers.get('host')].find((h): h is string => !!h && hostPattern.test(h)) ?? 'localhost';
  const forwardedProto = TRUST_PROXY > 0 ? lastValue(headers.get('x-forwarded-proto')) : null;
  return `${forwardedProto === 'https' ? 'https' : 'http'}://${host}`;
}

/**
 * The origin of pages rendered without a request (cached for everyone, social images): SITE_URL,
 * else the local address `npm start` serves on.
 */
export function configuredOrigin(): string {
  const { SITE_URL, PORT } = config();
  return SITE_URL ?? `http://localhost:${PORT}`;
}

/**
 * The client's address: the X-Forwarded-For entry that the nearest trusted proxy (or, with none
 * trusted, the service's own server) added. "unknown" when nobody recorded it.
 */
export function clientAddress(headers: Headers): string {
  const chain = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const hops = config().TRUST_PROXY;
  return chain[Math.max(0, chain.length - 1 - hops)] ?? 'unknown';
}
