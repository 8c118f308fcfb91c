// Headers the site's answers carry whoever answers them: Next (next.config.ts `headers()`) or the
// front server's own routes (lib/server/direct.ts). Pages may be framed by no one and load
// nothing from elsewhere; the API's answers (badges and charts included) stay embeddable
// anywhere. Scripts and styles allow 'unsafe-inline': Next's server-rendered pages carry their
// data in inline scripts, and a per-request nonce would make every page dynamic. HSTS is added by
// the server when the request came over HTTPS (lib/server/front.ts).

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

/** On every answer. */
export const everyAnswerHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/** On every answer outside /main/api/. */
export const outsideMainApiHeaders: Record<string, string> = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Frame-Options': 'DENY',
};

/** What an answer on this path carries. */
export function siteHeaders(path: string): Record<string, string> {
  return path.startsWith('/main/api/') ? everyAnswerHeaders : { ...everyAnswerHeaders, ...outsideMainApiHeaders };
}
