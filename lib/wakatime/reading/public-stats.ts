import { categoryName } from '../../activity';
import { getDb } from '../../db/client';
import { atVersion, onReplica } from '../../db/replicas';
import { corsHeaders, publicSerialized, serialize, type PublicCachePolicy, type Serialized } from '../../http/public';
import { json } from '../../http/body';
import { siteOrigin } from '../../http/origin';
import { ApiError } from '../../http/problem';
import { localDateHour } from '../../local-time';
import { ProcessCache } from '../../process-cache';
import { publicEditorName, publicOwner } from '../../sharing/gate';
import type { PublicOwner } from '../../sharing/owner';
import { publicWakatime, wakatimeKey, withWakatimeKey } from '../api-key';
import { statsHandler, userHandler } from '../handlers';
import { DEFAULT_STATS_RANGE, publicUserFields, stats, statsFilterNames } from './reads';
import { duration, withoutAiFigures, type WakaDuration } from './summaries';

// GET users/{user}/stats[/{range}], as README cards and profile generators ask for it
// (github-readme-stats' WakaTime card with `api_domain`, lowlighter/metrics, waka-readme,
// waka-readme-stats). With a key (any form wakatime-cli sends) or for `current`: the key owner's
// own figures, every list whole, `private, no-store`. Without a key, or with the key of someone
// else than the user named: the named user's public figures, through the sharing gate (private
// and unknown: the same 404, in WakaTime's `{"error"}` shape), readable from any origin and
// cacheable like a badge (a filter, `project=` or `language=`, is the owner's only: 400):
// - the totals: whenever the profile is public (`is_coding_activity_visible`);
// - `languages`: only with share_languages;
// - `editors`, `operating_systems`, `categories`: only with share_editors (what the owner works
//   with, as WakaTime groups them under "other usage"); an AI agent's own plugin as an editor
//   only with share_ai too (lib/sharing/gate.ts: publicEditorName);
// - `projects`: never (a project's name can say what the owner works on for whom);
// - AI-assisted coding (the AI Coding category, and the AI figures, AI_FIGURES: the AI and human
//   line changes, tokens, sessions, prompts and models, in `grand_total` and flat on `data`): only
//   with share_ai; without it AI Coding counts as Coding and the AI figures are left out, all of
//   them by the one rule (withoutAiFigures);
// - `machines`: only with share_machines (a machine's name is never public otherwise);
// - the owner's timezone: left out, and `start` and `end` are the range's first and last dates at
//   UTC midnight and the second before the next one (the instants of the owner's own midnights
//   would give their UTC offset away).
// An unshared list is empty and its `is_*_visible` flag false.

/** As a badge's: shared caches keep an answer a minute, plus a minute stale while they ask again (an ETag makes that cheap). */
export const publicStatsCache: PublicCachePolicy = { maxAge: 60, sMaxAge: 60, staleWhileRevalidate: 60 };

// Keyed by what the answer is made of: the owner's data version (a write moves it; the gate's
// owner cache hears every change), what they share, their handle and their date. A stale key is
// never asked again, so an entry may live until evicted.
const answers = new ProcessCache<Serialized>('readme-stats');
const ENTRY_MS = 10 * 60_000;

type OwnStats = Awaited<ReturnType<typeof stats>>;

/**
 * A list with each name as the public may see it (`rename`): the time of names that become one
 * (e.g. "Other") is added up, percentages stay those of the total.
 */
function renamed(list: WakaDuration[], total: number, rename: (name: string) => string): WakaDuration[] {
  if (list.every((d) => rename(d.name) === d.name)) return list;
  const merged = new Map<string, number>();
  for (const d of list) {
    const name = rename(d.name);
    merged.set(name, (merged.get(name) ?? 0) + d.total_seconds);
  }
  return [...merged].map(([name, seconds]) => duration(name, seconds, total)).sort((a, b) => b.total_seconds - a.total_seconds || a.name.localeCompare(b.name));
}

/** Categories as the public sees them without share_ai: AI Coding is Coding. */
const categoryWithoutAi = (name: string) => (name === categoryName('ai coding') ? categoryName('coding') : name);

/** A system no client named ("Unknown" to its owner) counts in "Other", never a figure of its own. */
const systemName = (name: string) => (name === 'Unknown' ? 'Other' : name);

/** The owner's figures as the public may see them, list by list. */
export function publicStatsBody({ data }: OwnStats, shares: PublicOwner['shares']) {
  const { timezone, grand_total: grand, ...own } = data;
  const figures = shares.ai ? own : withoutAiFigures(own);
  const date = (instant: string) => localDateHour(timezone, new Date(instant)).date;
  return {
    data: {
      ...figures,
      grand_total: shares.ai ? grand : withoutAiFigures(grand),
      start: `${date(figures.start)}T00:00:00Z`,
      end: `${date(figures.end)}T23:59:59Z`,
      languages: shares.languages ? figures.languages : [],
      editors: shares.editors ? renamed(figures.editors, figures.total_seconds, (name) => publicEditorName(name, shares)) : [],
      operating_systems: shares.editors ? renamed(figures.operating_systems, figures.total_seconds, systemName) : [],
      categories: !shares.editors ? [] : shares.ai ? figures.categories : renamed(figures.categories, figures.total_seconds, categoryWithoutAi),
      machines: shares.machines ? figures.machines : [],
      projects: [],
      is_coding_activity_visible: true,
      is_other_usage_visible: shares.languages && shares.editors,
      is_language_usage_visible: shares.languages,
      is_editor_usage_visible: shares.editors,
      is_os_usage_visible: shares.editors,
      is_category_usage_visible: shares.editors,
    },
  };
}

/** The public answer for `ref` (a handle in any case, or an id) over `range`. */
async function publicStats(request: Request, ref: string, range: string): Promise<Response> {
  const db = await getDb();
  const owner = await publicOwner(db, ref);
  const { user, timezone, shares, statsVersion } = owner;
  const today = localDateHour(timezone).date;
  const key = [user.id, statsVersion, shares.languages, shares.editors, shares.ai, shares.machines, timezone, user.handle, range, today].join('|');
  // The owner came from the primary (the gate); the figures may come from a replica that has
  // replayed the owner's every change known here (lib/db/replicas.ts).
  const serialized = await answers.get(key, ENTRY_MS, async () =>
    serialize(publicStatsBody(await onReplica(db, { user: user.id }, (reader) => stats(reader, { id: user.id, timezone, handle: user.handle }, range), atVersion(user.id, statsVersion)), shares)),
  );
  return publicSerialized(request, serialized, publicStatsCache);
}

/** The public answer of users/{user}/stats[/{range}]: the filters are the owner's (a project is never public), so a 400 naming the one sent. */
function publicStatsAnswer(request: Request, params: Record<string, string>): Promise<Response> {
  return publicWakatime(async () => {
    const filter = statsFilterNames.find((name) => new URL(request.url).searchParams.has(name));
    if (filter) throw new ApiError('invalid_query', `${filter} filters the owner's own stats only: send their key.`);
    return publicStats(request, params.user ?? '', params.range ?? DEFAULT_STATS_RANGE);
  });
}

const ownStats = withWakatimeKey('stats', statsHandler, { others: publicStatsAnswer });

/** GET users/{user}/stats and users/{user}/stats/{range} (lib/wakatime/routes.ts). */
export async function statsGet(request: Request, context?: { params?: Promise<Record<string, string>> }): Promise<Response> {
  const params = (await context?.params) ?? {};
  // `current` names whoever holds the key: without one it is nobody (401, as wakatime.com answers).
  if (wakatimeKey(request) !== null || (params.user ?? 'current') === 'current') return ownStats(request, context);
  return publicStatsAnswer(request, params);
}

/** The public answer of users/{user}: what /u/{handle} shows (no timezone, no dates), 404 for a private or unknown one. */
const publicUser = (request: Request, params: Record<string, string>) =>
  publicWakatime(async () => {
    const owner = await publicOwner(await getDb(), params.user ?? '');
    return json({ data: publicUserFields(owner.user, siteOrigin(request.headers)) }, { headers: { 'cache-control': 'public, max-age=60, s-maxage=60', ...corsHeaders } });
  });

const ownUser = withWakatimeKey('stats', userHandler, { others: publicUser });

/**
 * GET users/{user}: with the key of the user named or for `current`, the key's owner; without
 * one, or with someone else's, the named user's public profile (publicUser).
 */
export async function userGet(request: Request, context?: { params?: Promise<Record<string, string>> }): Promise<Response> {
  const params = (await context?.params) ?? {};
  if (wakatimeKey(request) !== null || (params.user ?? 'current') === 'current') return ownUser(request, context);
  return publicUser(request, params);
}
