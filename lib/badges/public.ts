import { getDb } from '../db/client';
import { publicJson, publicResponse, type PublicCachePolicy } from '../http/cache';
import { localDateHour } from '../ingest/local-time';
import { publishedBadge } from '../sharing/gate';
import { SharedCache } from '../stats/cache';
import { badgeFace, notFoundFace, renderSvg, styleOf, type BadgeFace } from './render';

// The public badge routes: an SVG image, or the same figure as shields.io endpoint JSON.

const faces = new SharedCache<BadgeFace>();
const FACE_TTL_MS = 10 * 60_000;
const badgeCache: PublicCachePolicy = { maxAge: 300, sMaxAge: 300, staleWhileRevalidate: 86_400 };
const missingCache: PublicCachePolicy = { maxAge: 60, sMaxAge: 60, staleWhileRevalidate: 60 };
const svgType = 'image/svg+xml; charset=utf-8';

/**
 * The badge's face and stored style. The face is recomputed when its owner's data changes, when
 * it is refreshed, or when the owner's day turns; a deleted badge is simply not found.
 */
async function lookup(ownerId: string, badgeId: string | null): Promise<{ face: BadgeFace; style: string } | null> {
  const db = await getDb();
  const published = await publishedBadge(db, ownerId, badgeId);
  if (!published) return null;
  const { badge, statsVersion, timezone } = published;
  const key = [badge.id, statsVersion, new Date(badge.refreshedAt).getTime(), localDateHour(timezone).date, badge.label, badge.color].join('|');
  return { face: await faces.get(key, FACE_TTL_MS, () => badgeFace(db, published)), style: badge.style };
}

export async function badgeSvg(request: Request, ownerId: string): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const found = await lookup(ownerId, params.get('badge'));
  if (!found) return publicResponse(request, renderSvg(notFoundFace, 'flat'), svgType, missingCache, 404);
  return publicResponse(request, renderSvg(found.face, styleOf(params.get('style'), found.style)), svgType, badgeCache);
}

export async function badgeShields(request: Request, ownerId: string): Promise<Response> {
  const face = (await lookup(ownerId, new URL(request.url).searchParams.get('badge')))?.face;
  const body = face
    ? { schemaVersion: 1, label: face.label, message: face.message, color: face.color, cacheSeconds: badgeCache.sMaxAge }
    : { schemaVersion: 1, ...notFoundFace, isError: true, cacheSeconds: missingCache.sMaxAge };
  if (face) return publicJson(request, body, badgeCache);
  const response = publicJson(request, body, missingCache);
  return new Response(response.body, { status: 404, headers: response.headers });
}
