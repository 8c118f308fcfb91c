// A small in-process cache for computed answers. Concurrent misses for one key share one
// computation, and an entry is recomputed in the background shortly before it expires (while the
// current value is still served), so expiry never sends a crowd of requests to the database and
// never makes a caller wait for a recomputation when a previous answer exists. Past its bound
// the least recently used entry goes (lru-cache keeps the order).

import { LRUCache } from 'lru-cache';
import { cacheTally, type CacheTally } from './metrics/tally';

interface Entry<T> {
  value: Promise<T>;
  settled: boolean;
  /** The value itself once settled, for callers that want it without a promise. */
  result?: T;
  refreshing: boolean;
  storedAt: number;
  expires: number;
}

/** Recompute in the background once an entry has lived this share of its time. */
const REFRESH_AHEAD = 0.8;

export class ProcessCache<T> {
  private readonly entries: LRUCache<string, Entry<T>>;
  private readonly tally: CacheTally;

  /** `name`: the cache's name in the metrics (lib/metrics), which count its hits and misses. */
  constructor(name: string, maxEntries = 5000) {
    this.entries = new LRUCache({ max: maxEntries });
    this.tally = cacheTally(name);
  }

  get(key: string, ttlMs: number, compute: () => Promise<T>, now = Date.now()): Promise<T> {
    const hit = this.entries.get(key);
    // A computation in flight is shared however long it takes: a hit, as it costs no computation.
    if (hit && (!hit.settled || this.servable(key, hit, ttlMs, compute, now))) {
      this.tally.hit++;
      return hit.value;
    }
    this.tally.miss++;
    return this.store(key, ttlMs, compute());
  }

  /**
   * The answer `get` would give at once, as a value, or undefined when `get` would have to wait
   * (nothing stored, a computation in flight, or expired). A hit costs no promise: the hot path
   * of a busy public route.
   */
  peek(key: string, ttlMs: number, compute: () => Promise<T>, now = Date.now()): T | undefined {
    const hit = this.entries.get(key);
    if (!hit?.settled || !this.servable(key, hit, ttlMs, compute, now)) return undefined; // counted by the `get` that follows
    this.tally.hit++;
    return hit.result;
  }

  /** Whether a settled entry may be served now; starts its background refresh when it is due. */
  private servable(key: string, hit: Entry<T>, ttlMs: number, compute: () => Promise<T>, now: number): boolean {
    if (ttlMs <= 0) return false;
    if (now >= hit.storedAt + ttlMs * REFRESH_AHEAD && !hit.refreshing) this.refresh(key, hit, ttlMs, compute);
    // Past its time the previous answer is served only while its successor is being computed.
    return now < hit.expires || hit.refreshing;
  }

  private store(key: string, ttlMs: number, value: Promise<T>): Promise<T> {
    const entry: Entry<T> = { value, settled: false, refreshing: false, storedAt: 0, expires: 0 };
    this.entries.set(key, entry);
    value.then(
      (result) => {
        entry.settled = true;
        entry.result = result;
        entry.storedAt = Date.now();
        entry.expires = entry.storedAt + ttlMs;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  private refresh(key: string, current: Entry<T>, ttlMs: number, compute: () => Promise<T>): void {
    current.refreshing = true;
    compute().then(
      (fresh) => {
        if (this.entries.get(key) !== current) return;
        const now = Date.now();
        this.entries.set(key, { value: Promise.resolve(fresh), settled: true, result: fresh, refreshing: false, storedAt: now, expires: now + ttlMs });
      },
      (err) => {
        current.refreshing = false; // keep the previous answer until it expires; the next caller tries again
        console.error('[codetally] background refresh failed:', (err as Error)?.message);
      },
    );
  }

  clear(): void {
    this.entries.clear();
  }
}
