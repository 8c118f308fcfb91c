// Next's incremental cache on a Node host (next.config.ts `cacheHandler`; Vercel keeps its own).
// Plain JavaScript: Next loads this file itself, outside the app's bundles.
//
// What pages and routes rendered while the server runs are kept in this process's memory, at most
// MAX_BYTES, the least recently used going first. An entry is served only while the cache clock
// (lib/cache/clock.ts, made by the server's boot) says none of its tags changed since its render
// began, in any process; otherwise Next renders it again before answering. Without a clock (during the build, or
// before boot) nothing is kept or served, so the build's prerenders, made without the database,
// are never served.

import { LRUCache } from 'lru-cache';

const MAX_BYTES = 64 * 1024 * 1024;
const TAGS_HEADER = 'x-next-cache-tags';
/** Renders begun and not yet stored, remembered at most (a render that fails stores nothing). */
const MAX_PENDING = 10_000;

const entries = new LRUCache({ maxSize: MAX_BYTES, sizeCalculation: (entry) => entry.size });
/** Cache key -> when the render that will store it began (the lookup that found it missing or due). */
const pending = new Map();

const clock = () => globalThis[Symbol.for('codetally.cache-clock')];

// Hits and misses for the metrics, where lib/metrics/tally.ts keeps every cache's (the same lines:
// this file imports nothing of the app).
const tallies = (globalThis[Symbol.for('codetally.cache-lookups')] ??= new Map());
if (!tallies.has('page-cache')) tallies.set('page-cache', { hit: 0, miss: 0 });
const tally = tallies.get('page-cache');

function sizeOf(value) {
  if (value == null) return 0;
  if (typeof value === 'string') return value.length * 2;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Map) return [...value.values()].reduce((n, v) => n + sizeOf(v), 0);
  if (typeof value === 'object') return Object.values(value).reduce((n, v) => n + sizeOf(v), 64);
  return 8;
}

function tagsOf(data, ctx) {
  if (data.kind === 'FETCH') return ctx.tags ?? data.tags ?? [];
  const header = data.headers?.[TAGS_HEADER];
  return typeof header === 'string' && header !== '' ? header.split(',') : [];
}

/** Whether Next will render the entry again in the background (its revalidate time has passed). */
function due(entry, now) {
  const revalidate = entry.cacheControl?.revalidate ?? entry.value.revalidate;
  return typeof revalidate === 'number' && now >= entry.lastModified + revalidate * 1000;
}

/**
 * Only what a GET renders is kept: a page or route answer is 200 or 404. Next also stores what
 * another method got from a cached route (its 405) and would serve it to every GET after; a
 * failure (the database away) is answered, never kept; nor is a route's answer that says
 * `no-store` (a problem+json, such as the cached badge route's 404 to a path of no badge URL).
 */
function cacheable(data) {
  if (data.kind !== 'APP_PAGE' && data.kind !== 'APP_ROUTE') return true;
  if (data.kind === 'APP_ROUTE' && /\bno-store\b/i.test(String(data.headers?.['cache-control'] ?? ''))) return false;
  return data.status === undefined || data.status === 200 || data.status === 404;
}

function renderBegins(key, now) {
  if (pending.size >= MAX_PENDING) pending.clear();
  pending.set(key, now);
}

export default class CodetallyCacheHandler {
  async get(key) {
    const c = clock();
    if (!c) return null;
    const now = Date.now();
    const entry = entries.get(key);
    if (entry && (await c.servable(entry.tags, entry.since))) {
      if (due(entry, now)) renderBegins(key, now);
      tally.hit++;
      return { lastModified: entry.lastModified, value: entry.value, cacheControl: entry.cacheControl };
    }
    if (entry) entries.delete(key);
    renderBegins(key, now);
    tally.miss++;
    return null;
  }

  async set(key, data, ctx) {
    const now = Date.now();
    const since = pending.get(key) ?? now;
    pending.delete(key);
    const c = clock();
    if (!c || !c.serving || !data || !cacheable(data)) return;
    const tags = tagsOf(data, ctx);
    // A change received while the render ran: what it rendered may predate the change.
    if (c.changedSince(tags, since, now)) return;
    const entry = { value: data, tags, since, lastModified: now, cacheControl: ctx.cacheControl, size: sizeOf(data) + 256 };
    if (entry.size <= MAX_BYTES / 8) entries.set(key, entry);
  }

  /** Next's own revalidateTag / revalidatePath in this process. */
  async revalidateTag(tags) {
    clock()?.mark(typeof tags === 'string' ? [tags] : tags);
  }

  resetRequestCache() {}
}
