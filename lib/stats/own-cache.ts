import { LRUCache } from 'lru-cache';
import { localDateHour } from '../local-time';
import { cacheTally } from '../metrics/tally';

// The owner's own figures over long ranges (a year, all time: years of buckets read and summed on
// every call) kept in this process as their JSON text, keyed by what they are made of: the user,
// their data version (users.stats_version, moved by every change of their figures: a write, an
// import, a project renamed, merged, split or hidden, a change of plan), their timezone and handle,
// today's date in their timezone (every such range ends today) and what was asked. The version is
// the one the statement that authenticated the request read (lib/auth/principal.ts), so a change
// answered before is always seen, in every process; a key that went stale is never asked again
// and ages out. Concurrent asks of one key share one computation.
//
// Not a ProcessCache (lib/process-cache.ts): these answers run from a few bytes to megabytes (an
// all-time answer lists every project), so this cache is bounded by their size, not their number;
// and a version's answer never goes stale, so nothing is computed again ahead of its expiry.

/** The most text the cache holds (UTF-16 code units: about twice as many bytes). */
const MAX_CHARS = 32 * 1024 * 1024;
/** One answer bigger than this is answered but not kept. */
const MAX_ENTRY_CHARS = 4 * 1024 * 1024;
/** An entry is dropped this long after it was made, asked or not (today's date in the key moves anyway). */
const ENTRY_MS = 10 * 60_000;

const kept = new LRUCache<string, string>({ maxSize: MAX_CHARS, maxEntrySize: MAX_ENTRY_CHARS, sizeCalculation: (text) => Math.max(1, text.length), ttl: ENTRY_MS });
const inFlight = new Map<string, Promise<string>>();
const tally = cacheTally('own-figures');

/** Whose figures: the owner and, when the request's authentication read it, their data version. */
export interface OwnerVersion {
  id: string;
  handle: string;
  timezone: string;
  /** Undefined: not known fresh (nothing is cached, the figures are computed). */
  statsVersion?: number;
}

/** The JSON text of `compute()`'s answer for the owner's `what`, from memory while the owner's data version stays. */
export async function ownFiguresText(owner: OwnerVersion, what: string, compute: () => Promise<unknown>): Promise<string> {
  if (owner.statsVersion === undefined) return JSON.stringify(await compute());
  const key = [owner.id, owner.statsVersion, owner.timezone, owner.handle, localDateHour(owner.timezone).date, what].join('\u0000');
  const hit = kept.get(key) ?? inFlight.get(key);
  if (hit !== undefined) {
    tally.hit++;
    return hit;
  }
  tally.miss++;
  const computing = compute()
    .then((answer) => {
      const text = JSON.stringify(answer);
      kept.set(key, text);
      return text;
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, computing);
  return computing;
}
