import type { z } from 'zod';
import { getDb } from '../db/client';
import { atVersion, onReplica } from '../db/replicas';
import { publicJson, publicResponse, type PublicCachePolicy } from '../http/public';
import { localDateHour } from '../local-time';
import { publishedBadge } from '../sharing/gate';
import { ProcessCache } from '../process-cache';
import { parseQuery } from '../http/query';
import { badgeQuerySchema, shieldsSchema } from './schemas';
import { dayTag } from '../cache/tags';
import { isUuid } from '../ids';
import { badgeFace, notFoundFace, renderSvg, styleOf, type BadgeFace } from './render';

// The public badge routes: an SVG image, or the same figure as shields.io endpoint JSON.

const faces = new ProcessCache<BadgeFace>('badge-faces');
const FACE_TTL_MS = 10 * 60_000;
// A badge can be deleted (or its figure change) at any moment: shared caches (CDNs, GitHub's image
// proxy) keep it at most a minute, plus a minute stale while they ask again (an ETag makes that
// cheap). The dashboard says so where a badge is deleted.
export const badgeCache: PublicCachePolicy = { maxAge: 60, sMaxAge: 60, staleWhileRevalidate: 60 };
export const missingCache: PublicCachePolicy = { maxAge: 60, sMaxAge: 60, staleWhileRevalidate: 60 };
export const svgType = 'image/svg+xml; charset=utf-8';

/** Which badge and style a request asks for. */
export interface BadgeQuery {
  badge?: string;
  style?: string;
}

/** Tags an answer cached by Next with what it was made from (app/cached-badge): its owner and their date. */
type Tagger = (tags: string[]) => Promise<void>;

/**
 * The badge's face and stored style. The face is recomputed when its owner's data changes, when
 * it is refreshed, or when the owner's day turns; a deleted badge is simply not found.
 */
async function lookup(ownerId: string, badgeId: string | null, tag?: Tagger): Promise<{ face: BadgeFace; style: string } | null> {
  const db = await getDb();
  const published = await publishedBadge(db, ownerId, badgeId);
  // A badge made later shows under the same URL.
  if (tag && isUuid(ownerId)) await tag(published ? [ownerId, dayTag(published.timezone)] : [ownerId]);
  if (!published) return null;
  const { badge, statsVersion, timezone } = published;
  const key = [badge.id, statsVersion, new Date(badge.refreshedAt).getTime(), localDateHour(timezone).date, badge.label, badge.color].join('|');
  // The badge and its owner came from the primary (the gate); the figure may come from a replica
  // that has replayed the owner's every change known here (lib/db/replicas.ts).
  const face = () => onReplica(db, { user: badge.userId }, (reader) => badgeFace(reader, published), atVersion(badge.userId, statsVersion));
  return { face: await faces.get(key, FACE_TTL_MS, face), style: badge.style };
}

/** The query of a badge URL; never refused (lib/badges/schemas.ts). */
export const badgeQueryOf = (request: Request): BadgeQuery => parseQuery(badgeQuerySchema, new URL(request.url).searchParams);

/**
 * The badge as SVG. `request`: the request whose conditional headers are answered (null in a
 * route Next caches, where the front server answers them, lib/server/front.ts).
 */
export async function badgeSvg(request: Request | null, ownerId: string, { badge, style }: BadgeQuery, tag?: Tagger): Promise<Response> {
  const found = await lookup(ownerId, badge ?? null, tag);
  if (!found) return publicResponse(request, renderSvg(notFoundFace, 'flat'), svgType, missingCache, 404);
  return publicResponse(request, renderSvg(found.face, styleOf(style ?? null, found.style)), svgType, badgeCache);
}

/** The badge's figure as shields.io endpoint JSON; arguments as badgeSvg's. */
export async function badgeShields(request: Request | null, ownerId: string, { badge }: BadgeQuery, tag?: Tagger): Promise<Response> {
  const face = (await lookup(ownerId, badge ?? null, tag))?.face;
  const body: z.input<typeof shieldsSchema> = face
    ? { schemaVersion: 1, label: face.label, message: face.message, color: face.color, cacheSeconds: badgeCache.sMaxAge }
    : { schemaVersion: 1, ...notFoundFace, isError: true, cacheSeconds: missingCache.sMaxAge };
  if (face) return publicJson(request, body, badgeCache);
  const response = publicJson(request, body, missingCache);
  return new Response(response.body, { status: 404, headers: response.headers });
}
