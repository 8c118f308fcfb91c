// Reading what a client put in a URL or a cookie: malformed percent-encoding is the client's
// mistake (a 4xx or "not found"), never an exception.

/** A percent-decoded path segment or cookie value; null when its encoding is malformed. */
export function decodedSegment(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** C0 controls, DEL and C1 controls, and the backslash: browsers drop or reinterpret them in a URL. */
const unsafeInUrl = /[\u0000-\u001f\u007f-\u009f\\]/;

/**
 * Where a redirect taken from a request (a `callbackUrl` in a query, a form or a cookie) may go:
 * the path, query and fragment of a URL at `origin`, or null. The candidate is resolved as a
 * browser would (`new URL(candidate, origin)`), and refused when it lands elsewhere, when it holds
 * a control character or a backslash, as is or percent-encoded (a browser drops a tab and reads
 * `\` as `/`: `/%09/evil.example` and `/\evil.example` lead off the site), and when its path
 * starts with `//` (`/.//evil.example` resolves to one, which a Location would read as a host).
 */
export function sameOriginPath(candidate: unknown, origin: string): string | null {
  if (typeof candidate !== 'string' || candidate === '') return null;
  const decoded = decodedSegment(candidate);
  if (decoded === null || unsafeInUrl.test(candidate) || unsafeInUrl.test(decoded)) return null;
  let url: URL;
  try {
    url = new URL(candidate, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin || url.pathname.startsWith('//')) return null;
  return url.pathname + url.search + url.hash;
}
