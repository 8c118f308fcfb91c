import { NextResponse, type NextRequest } from 'next/server';
import { cachedBadgePath } from './lib/badges/urls';
import { ApiError, problemResponse } from './lib/http/problem';

// Runs before two kinds of request only (the matcher below):
// - a badge URL: a GET as embeds make it goes to the route Next caches (lib/badges/urls.ts);
// - a form post to a page that sends multipart/form-data: a form posted without JavaScript reaches
//   Next as such a body, and Next answers 500 when it cannot be read. Here it gets a 400 problem
//   instead; a readable body goes on to the page untouched.
export async function proxy(request: NextRequest): Promise<Response> {
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

export const config = {
  matcher: [
    '/main/api/v1/public/:site/svg/:owner',
    '/main/api/v1/public/:site/shields/:owner',
    { source: '/((?!main/api/).*)', has: [{ type: 'header', key: 'content-type', value: 'multipart/form-data.*' }] },
  ],
};
