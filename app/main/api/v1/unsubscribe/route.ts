// POST /main/api/v1/unsubscribe?token=… — one-click unsubscribe from the weekly report (RFC 8058); a POST to /unsubscribe comes here (proxy.ts)
import { getDb } from '@/lib/db/client';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { errorResponse } from '@/lib/http/problem';
import { parseQuery } from '@/lib/http/query';
import { unsubscribe, unsubscribeQuerySchema } from '@/lib/mail/unsubscribe';

export const dynamic = 'force-dynamic';

// No session: the token is the proof. Mail providers post `List-Unsubscribe=One-Click`; the
// /unsubscribe page's button posts `then=page` as well, and is sent back to the page.
async function post(request: Request): Promise<Response> {
  try {
    const { token } = parseQuery(unsubscribeQuerySchema, new URL(request.url).searchParams);
    await unsubscribe(await getDb(), token);
    const form = await request.formData().catch(() => null);
    if (form?.get('then') === 'page') return new Response(null, { status: 303, headers: { location: '/unsubscribe?done=1', 'cache-control': 'no-store' } });
    return json({ weekly_report: false }, { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    return errorResponse(err);
  }
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/unsubscribe' });
