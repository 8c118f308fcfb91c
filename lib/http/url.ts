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
