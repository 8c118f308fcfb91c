import { NextResponse, type NextRequest } from 'next/server';
import { ApiError, problemResponse } from './lib/http/problem';

// Runs before a page only when a form post sends multipart/form-data (the matcher below): a form
// posted without JavaScript reaches Next as such a body, and Next answers 500 when it cannot be
// read. Here it gets a 400 problem instead; a readable body goes on to the page untouched.
export async function proxy(request: NextRequest): Promise<Response> {
  if (request.method !== 'POST') return NextResponse.next();
  try {
    await request.formData();
    return NextResponse.next();
  } catch {
    return problemResponse(new ApiError('malformed_form', 'The form could not be read: its multipart body is cut short or does not match its boundary.'));
  }
}

export const config = {
  matcher: [{ source: '/((?!main/api/).*)', has: [{ type: 'header', key: 'content-type', value: 'multipart/form-data.*' }] }],
};
