import type { z } from 'zod';
import { getDb } from '../db/client';
import { publicJson, publicResponse, type PublicCachePolicy } from '../http/public';
import { localDateHour } from '../local-time';
import { publishedBadge } from '../sharing/gate';
import { ProcessCache } from '../process-cache';
import { parseQuery } from '../http/query';
import { badgeQuerySchema, shieldsSchema } from './schemas';
import { badgeFace, notFoundFace, renderSvg, styleOf, type BadgeFace } from './render';

// The public badge routes: an SVG image, or the same figure as shields.io endpoint JSON.

const faces = new ProcessCache<BadgeFace>();
const FACE_TTL_MS = 10 * 60_000;
// A badge can be deleted (or its figure change) at any moment: shared caches (CDNs, GitHub's image
// proxy) keep it at most a minute, plus a minute stale while they ask again (an ETag makes that
// cheap). The dashboard says so where a badge is deleted.
const badgeCache: PublicCachePolicy = { maxAge: 60, sMaxAge: 60, staleWhileRevalidate: 60 };
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

const queryOf = (request: Request) => parseQuery(badgeQuerySchema, new URL(request.url).searchParams);

export async function badgeSvg(request: Request, ownerId: string): Promise<Response> {
  const { badge, style } = queryOf(request);
  const found = await lookup(ownerId, badge ?? null);
  if (!found) return publicResponse(request, renderSvg(notFoundFace, 'flat'), svgType, missingCache, 404);
  return publicResponse(request, renderSvg(found.face, styleOf(style ?? null, found.style)), svgType, badgeCache);
}

export async function badgeShields(request: Request, ownerId: string): Promise<Response> {
  const face = (await lookup(ownerId, queryOf(request).badge ?? null))?.face;
  const body: z.input<typeof shieldsSchema> = face
    ? { schemaVersion: 1, label: face.label, message: face.message, color: face.color, cacheSeconds: badgeCache.sMaxAge }
    : { schemaVersion: 1, ...notFoundFace, isError: true, cacheSeconds: missingCache.sMaxAge };
  if (face) return publicJson(request, body, badgeCache);
  const response = publicJson(request, body, missingCache);
  return new Response(response.body, { status: 404, headers: response.headers });
}
