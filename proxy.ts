import { NextResponse, type NextRequest } from 'next/server';
import { CACHED_BADGE_ROOT, cachedBadgePath } from './lib/badges/urls';
import { ApiError, problemResponse } from './lib/http/problem';

// Runs before three kinds of request only (the matcher below):
// - a badge URL: a GET as embeds make it goes to the route Next caches (lib/badges/urls.ts);
// - the cached badge route itself, asked from outside: 404. It is reached by the rewrite above
//   only (the proxy runs once, on the path the client asked for), so that what Next keeps is
//   what a badge URL makes; the proxy runs before Next's cache, here and on Vercel alike;
// - a form post to a page that sends multipart/form-data: a form posted without JavaScript reaches
//   Next as such a body, and Next answers 500 when it cannot be read. Here it gets a 400 problem
//   instead; a readable body goes on to the page untouched.
export async function proxy(request: NextRequest): Promise<Response> {
  if (isCachedBadgePath(request.nextUrl.pathname)) return problemResponse(new ApiError('not_found', 'No such page.'));
  const badge = cachedBadgePath(request.method, request.nextUrl);
  if (badge) return NextResponse.rewrite(new URL(badge, request.url));
  if (request.method !== 'POST' || request.nextUrl.pathname.startsWith('/main/api/')) return NextResponse.next();
  try {
    await request.formData();
    return NextResponse.next();
  } catch {
    return problemResponse(new ApiError('malformed_form', 'The form could not be read: its multipart body is cut short or does not match its boundary.'));
  }
}

const isCachedBadgePath = (path: string) => path === CACHED_BADGE_ROOT || path.startsWith(`${CACHED_BADGE_ROOT}/`);

export const config = {
  matcher: [
    '/main/api/v1/public/:site/svg/:owner',
    '/main/api/v1/public/:site/shields/:owner',
    '/cached-badge',
    '/cached-badge/:path*',
    { source: '/((?!main/api/).*)', has: [{ type: 'header', key: 'content-type', value: 'multipart/form-data.*' }] },
  ],
};
