import { NextResponse, type NextRequest } from 'next/server';
import { CACHED_BADGE_ROOT, cachedBadgePath } from './lib/badges/urls';
import { CACHED_CHART_ROOT, cachedChartPath } from './lib/charts/urls';
import { isApiPath } from './lib/http/api-paths';
import { ApiError, problemResponse } from './lib/http/problem';

// Runs before these requests only (the matcher below):
// - a POST to /unsubscribe (a mail client's one-click unsubscribe, RFC 8058, or the page's
//   button) goes to the API route that does it; a GET there is the page;
// - a badge URL: a GET as embeds make it goes to the route Next caches (lib/badges/urls.ts),
//   unless it is conditional; a chart image URL likewise (lib/charts/urls.ts);
// - the cached badge and chart routes themselves, asked from outside: 404. It is reached by the rewrite above
//   only (the proxy runs once, on the path the client asked for), so that what Next keeps is
//   what a badge URL makes; the proxy runs before Next's cache, here and on Vercel alike;
// - another method than GET or HEAD on one of Next's image routes (a profile's social image, the
//   icons): a 405 problem with Allow, where Next's own 405 names nothing allowed;
// - a form action whose Origin is no URL or names another host than the request's: 403. A form
//   action is a POST with Next-Action (sent by the page's script) or, from a form posted without
//   JavaScript, any multipart/form-data POST to a page (Next reads the action from the body). Next
//   refuses those too (its check against cross-site form actions), but with a 500 and error lines
//   in the log, and one whose Origin is no URL makes it fail;
// - a form post to a page that sends multipart/form-data: a form posted without JavaScript reaches
//   Next as such a body, and Next answers 500 when it cannot be read. Here it gets a 400 problem
//   instead; a readable body goes on to the page untouched.
// The API's paths (lib/http/api-paths.ts) are their routes' to answer: none of the form rules apply.
export async function proxy(request: NextRequest): Promise<Response> {
  if (request.nextUrl.pathname === '/unsubscribe' && request.method === 'POST') return NextResponse.rewrite(new URL(`/main/api/v1/unsubscribe${request.nextUrl.search}`, request.url));
  if (isCachedPath(request.nextUrl.pathname)) return problemResponse(new ApiError('not_found', 'No such page.'));
  if (isImagePath(request.nextUrl.pathname) && request.method !== 'GET' && request.method !== 'HEAD') {
    return problemResponse(new ApiError('method_not_allowed', `${request.method} is not allowed here; this image allows ${imageMethods}.`, { headers: { allow: imageMethods } }));
  }
  // A conditional request stays on the route answered per request, which compares the ETag
  // (304): Next serves its cached answers whole, whatever If-None-Match says.
  const cached = request.headers.has('if-none-match') ? null : (cachedBadgePath(request.method, request.nextUrl) ?? cachedChartPath(request.method, request.nextUrl));
  if (cached) return NextResponse.rewrite(new URL(cached, request.url));
  if (request.method !== 'POST' || isApiPath(request.nextUrl.pathname)) return NextResponse.next();
  const multipart = /^multipart\/form-data/i.test(request.headers.get('content-type') ?? '');
  if ((multipart || request.headers.has('next-action')) && !sameOriginAction(request.headers)) {
    return problemResponse(new ApiError('forbidden', 'A form is taken only from a page of this site: its Origin names another one.'));
  }
  if (!multipart) return NextResponse.next();
  try {
    await request.formData();
    return NextResponse.next();
  } catch {
    return problemResponse(new ApiError('malformed_form', 'The form could not be read: its multipart body is cut short or does not match its boundary.'));
  }
}

const isCachedPath = (path: string) => [CACHED_BADGE_ROOT, CACHED_CHART_ROOT].some((root) => path === root || path.startsWith(`${root}/`));
const imageMethods = 'GET, HEAD';

/**
 * Next's own rule for form actions (its action handler): an Origin, when sent, names the host of
 * the request, the first of X-Forwarded-Host or Host.
 */
function sameOriginAction(headers: Headers): boolean {
  const origin = headers.get('origin');
  if (origin === null) return true;
  let host: string;
  try {
    host = origin === 'null' ? 'null' : new URL(origin).host;
  } catch {
    return false;
  }
  return host === headers.get('x-forwarded-host')?.split(',')[0].trim() || host === headers.get('host');
}
const isImagePath = (path: string) => path === '/icon.svg' || path === '/favicon.ico' || /^\/u\/[^/]+\/opengraph-image$/.test(path);

export const config = {
  matcher: [
    '/main/api/v1/public/:site/svg/:owner',
    '/main/api/v1/public/:site/shields/:owner',
    '/main/api/v1/public/charts/:owner/:chart',
    '/cached-badge',
    '/cached-badge/:path*',
    '/cached-chart',
    '/cached-chart/:path*',
    '/icon.svg',
    '/favicon.ico',
    '/u/:handle/opengraph-image',
    '/unsubscribe',
    { source: '/((?!main/api/).*)', has: [{ type: 'header', key: 'content-type', value: 'multipart/form-data.*' }] },
    { source: '/((?!main/api/).*)', has: [{ type: 'header', key: 'next-action' }] },
  ],
};
