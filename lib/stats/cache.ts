// A small in-process cache for computed answers. Concurrent misses for one key share one
// computation, and an entry is recomputed in the background shortly before it expires (while the
// current value is still served), so expiry never sends a crowd of requests to the database and
// never makes a caller wait for a recomputation when a previous answer exists.

interface Entry<T> {
  value: Promise<T>;
  settled: boolean;
  refreshing: boolean;
  storedAt: number;
  expires: number;
}

/** Recompute in the background once an entry has lived this share of its time. */
const REFRESH_AHEAD = 0.8;

export class SharedCache<T> {
  private entries = new Map<string, Entry<T>>();

  constructor(private readonly maxEntries = 5000) {}

  get(key: string, ttlMs: number, compute: () => Promise<T>, now = Date.now()): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && !hit.settled) return hit.value; // a computation in flight is shared however long it takes
    if (hit && ttlMs > 0) {
      if (now >= hit.storedAt + ttlMs * REFRESH_AHEAD && !hit.refreshing) this.refresh(key, hit, ttlMs, compute);
      // Past its time the previous answer is served only while its successor is being computed.
      if (now < hit.expires || hit.refreshing) return hit.value;
    }
    return this.store(key, ttlMs, compute());
  }

  private store(key: string, ttlMs: number, value: Promise<T>): Promise<T> {
    const entry: Entry<T> = { value, settled: false, refreshing: false, storedAt: 0, expires: 0 };
    this.entries.set(key, entry);
    value.then(
      () => {
        entry.settled = true;
        entry.storedAt = Date.now();
        entry.expires = entry.storedAt + ttlMs;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value; // Maps iterate in insertion order
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return value;
  }

  private refresh(key: string, current: Entry<T>, ttlMs: number, compute: () => Promise<T>): void {
    current.refreshing = true;
    compute().then(
      (fresh) => {
        if (this.entries.get(key) !== current) return;
        const now = Date.now();
        this.entries.set(key, { value: Promise.resolve(fresh), settled: true, refreshing: false, storedAt: now, expires: now + ttlMs });
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
