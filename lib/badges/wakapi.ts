import type { z } from 'zod';
import { addDays } from '../dates';
import { getDb, type Db } from '../db/client';
import { atVersion, onReplica } from '../db/replicas';
import { canonicalEditor, editorNames, isAiAgentEditor } from '../editors';
import { ApiError } from '../http/problem';
import { publicJson, publicResponse } from '../http/public';
import { localDateHour } from '../local-time';
import { ProcessCache } from '../process-cache';
import { publicOwner } from '../sharing/gate';
import type { PublicOwner } from '../sharing/owner';
import { filterKey, secondsByName, type FilterColumn, type Span } from './wakapi-figures';
import { nameProblem } from '../text';
import { badgeCache, missingCache, svgType } from './public';
import { notFoundFace, renderSvg, type BadgeFace } from './render';
import { createBadgeSchema, type shieldsSchema } from './schemas';
import { isPublicProjectBadge } from './wakapi-projects';
import { wakapiInterval, wakapiSpan, type WakapiInterval } from './wakapi-ranges';

// Wakapi's badge URLs, for README badges that outlive a switch from Wakapi:
//   GET /api/badge/{user}/interval:{name}[/{filter}:{value}]               an SVG
//   GET /api/compat/shields/v1/{user}/interval:{name}[/{filter}:{value}]   shields.io endpoint JSON
// `{user}` is the handle (Wakapi's user id is its user name). The figure is the owner's coding
// time over the interval, that of one language, editor, operating system or project when the URL
// names one, in Wakapi's words ("3 hrs 12 mins"). What the owner shares, as every public surface
// of theirs (lib/sharing/gate.ts): the total while the profile is public; a language with "share
// languages"; an editor or operating system with "share editors" (an AI agent's plugin as an
// editor with "share AI-assisted coding" too); a project only when the owner has made its badge
// public (lib/badges/wakapi-projects.ts). Anything else (an unknown user, a private profile, a
// figure not shared, a filter Codetally has no figure of) answers exactly as an unknown user
// does: the badge-not-found 404 of Codetally's own badges, so an embed never breaks and nobody
// learns which of these it was.
// Caching: shared caches and browsers keep an answer as they keep Codetally's badges (a minute,
// ETag, any origin); this process keeps each owner's figures per span and dimension until their
// data changes. Unlike Codetally's badge URLs these are not rewritten to a route Next caches
// (proxy.ts): their paths are open-ended (any name, label or colour), and each would be an entry.

/** Wakapi's look: its colour, and durations always in hours and minutes. */
const WAKAPI_COLOR = '2F855A';
const LABEL = 'codetally';

/** Wakapi's way of writing a duration (its FmtWakatimeDuration): "0 hrs 5 mins", "12 hrs 0 mins". */
export function wakapiDuration(totalSeconds: number): string {
  const minutes = Math.round(Math.max(0, totalSeconds) / 60);
  return `${Math.floor(minutes / 60)} hrs ${minutes % 60} mins`;
}

/** The filters Wakapi's URLs may name, and the bucket column of those Codetally has a figure of. */
const filterColumns: Record<string, FilterColumn | null> = { language: 'language', editor: 'editor', os: 'os', project: 'project', machine: null, label: null };

/** The longest name a filter may give: a project's, the longest of the names stored. */
const MAX_NAME = 255;

export interface WakapiBadgeQuery {
  user: string;
  interval: WakapiInterval;
  filter?: { name: string; value: string };
}

/**
 * What a badge URL asks, from its path segments after the route's base (still percent-encoded):
 * the user, then Wakapi's `interval:{name}` and `{filter}:{value}` segments, the first of each,
 * in any order (Wakapi finds them anywhere in the path); other segments are ignored, as there.
 * Null for a path that names nobody.
 */
export function wakapiBadgeQuery(segments: string[]): WakapiBadgeQuery | null {
  let decoded: string[];
  try {
    decoded = segments.map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  const [user, ...rest] = decoded;
  if (!user) return null;
  let interval: string | undefined;
  let filter: WakapiBadgeQuery['filter'];
  for (const segment of rest) {
    const colon = segment.indexOf(':');
    const [key, value] = [segment.slice(0, colon), segment.slice(colon + 1)];
    if (colon <= 0 || value === '') continue;
    if (key === 'interval') interval ??= value;
    else if (key in filterColumns) filter ??= { name: key, value };
  }
  // A name no write could have stored (a NUL, a control character, too long) names nothing.
  if (filter && (filter.value.length > MAX_NAME || nameProblem(filter.value))) return null;
  return { user, interval: wakapiInterval(interval), filter };
}

/** Whether the owner shares the figure the filter names (a project: lib/badges/wakapi-projects.ts). */
async function shared(owner: PublicOwner, filter: WakapiBadgeQuery['filter']): Promise<boolean> {
  if (!filter) return true;
  const { shares } = owner;
  switch (filter.name) {
    case 'language':
      return shares.languages;
    case 'os':
      return shares.editors;
    case 'editor':
      return shares.editors && (shares.ai || !isAiAgentEditor(canonicalEditor(filter.value)));
    case 'project':
      return isPublicProjectBadge(await getDb(), owner.user.id, filter.value);
    default:
      return false;
  }
}

const figures = new ProcessCache<Map<string, number>>('wakapi-badges');
const aiAgentEditors = () => editorNames().filter(isAiAgentEditor);
const FIGURE_TTL_MS = 10 * 60_000;

/** The seconds the URL shows, or null when it shows nothing (answered as an unknown user). */
async function wakapiSeconds({ user, interval, filter }: WakapiBadgeQuery): Promise<number | null> {
  const db = await getDb();
  let owner: PublicOwner;
  try {
    owner = await publicOwner(db, user);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
  if (!(await shared(owner, filter))) return null;
  const now = localDateHour(owner.timezone);
  const span: Span = wakapiSpan(interval, now.date, now.hour);
  // No day before the owner's plan's window of history.
  const first = owner.historyDays ? addDays(now.date, 1 - owner.historyDays) : null;
  if (first && span.from < first) Object.assign(span, { from: first, fromHour: undefined });
  if (span.from > span.to) return 0;
  const column = filter ? filterColumns[filter.name]! : undefined;
  // Without share_ai, no AI agent's plugin counts as an editor, however the name is spelled.
  const exceptEditors = column === 'editor' && !owner.shares.ai ? aiAgentEditors() : [];
  // Keyed by what the figures are made of: the owner's data version (a write moves it), the span
  // and the dimension; never the name asked, so that a URL per made-up name costs no statement.
  const key = [owner.user.id, owner.statsVersion, exceptEditors.length, span.from, span.to, span.fromHour ?? '', column ?? ''].join('|');
  // The owner and what they share came from the primary (the gate); the figures may come from a
  // replica that has replayed the owner's every change known here (lib/db/replicas.ts).
  const read = (reader: Db) => secondsByName(reader, owner.user.id, span, column, exceptEditors);
  const byName = await figures.get(key, FIGURE_TTL_MS, () => onReplica(db, { user: owner.user.id }, read, atVersion(owner.user.id, owner.statsVersion)));
  return byName.get(column ? filterKey(column, filter!.value) : '') ?? 0;
}

const labelField = createBadgeSchema.shape.label;
const colorField = createBadgeSchema.shape.color;

/**
 * The badge as SVG. `label` and `color` in the query draw it so, as on Wakapi; one that is no
 * badge's label or colour (lib/badges/schemas.ts) is ignored, since an embed must not break.
 */
export async function wakapiBadgeSvg(request: Request, query: WakapiBadgeQuery | null): Promise<Response> {
  const seconds = query && (await wakapiSeconds(query));
  if (seconds === null) return publicResponse(request, renderSvg(notFoundFace, 'flat'), svgType, missingCache, 404);
  const params = new URL(request.url).searchParams;
  const label = labelField.safeParse(params.get('label') ?? undefined).data;
  const color = colorField.safeParse(params.get('color') ?? undefined).data;
  const face: BadgeFace = { label: label ?? LABEL, message: wakapiDuration(seconds), color: color?.replace(/^#/, '') ?? WAKAPI_COLOR };
  return publicResponse(request, renderSvg(face, 'flat'), svgType, badgeCache);
}

/** The figure as shields.io endpoint JSON (`{schemaVersion, label, message, color}`, as Wakapi's). */
export async function wakapiShields(request: Request, query: WakapiBadgeQuery | null): Promise<Response> {
  const seconds = query && (await wakapiSeconds(query));
  if (seconds === null) {
    const missing: z.input<typeof shieldsSchema> = { schemaVersion: 1, ...notFoundFace, isError: true, cacheSeconds: missingCache.sMaxAge };
    const response = publicJson(request, missing, missingCache);
    return new Response(response.body, { status: 404, headers: response.headers });
  }
  const body: z.input<typeof shieldsSchema> = { schemaVersion: 1, label: LABEL, message: wakapiDuration(seconds), color: WAKAPI_COLOR, cacheSeconds: badgeCache.sMaxAge };
  return publicJson(request, body, badgeCache);
}
