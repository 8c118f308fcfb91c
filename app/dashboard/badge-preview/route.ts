// GET /dashboard/badge-preview — the signed-in user's badge as it would look, before creating it
import { sessionUser } from '@/lib/auth/session';
import { createBadgeSchema } from '@/lib/badges/schemas';
import { RequestCookies } from '@edge-runtime/cookies';
import { badgeFace, renderSvg, styleOf } from '@/lib/badges/render';
import { badgeValues, type BadgeRow } from '@/lib/badges/store';
import { getDb } from '@/lib/db/client';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';

async function get(request: Request): Promise<Response> {
  const user = await sessionUser(new RequestCookies(request.headers));
  if (!user) return new Response('Sign in first.', { status: 401 });
  const params = Object.fromEntries([...new URL(request.url).searchParams].filter(([, v]) => v.trim() !== ''));
  if (params.metric !== 'language') delete params.language;
  const parsed = createBadgeSchema.safeParse(params);
  const headers = { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'private, no-store' };
  if (!parsed.success) {
    return new Response(renderSvg({ label: 'preview', message: parsed.error.issues[0].path.join('.') + ' missing or invalid', color: 'lightgrey' }, 'flat'), { headers });
  }
  const values = badgeValues(user.id, parsed.data);
  const draft = { ...values, id: crypto.randomUUID(), createdAt: new Date(), refreshedAt: new Date() } as BadgeRow;
  const face = await badgeFace(await getDb(), { badge: draft, timezone: user.timezone, statsVersion: Number(user.statsVersion) });
  return new Response(renderSvg(face, styleOf(values.style, 'flat')), { headers });
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/dashboard/badge-preview' });
