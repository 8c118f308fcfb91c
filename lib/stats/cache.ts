// A small in-process cache in which concurrent misses for one key share one computation, so an
// expiring entry never sends a crowd of requests to the database at once.

interface Entry<T> {
  value: Promise<T>;
  expires: number;
}

export class SharedCache<T> {
  private entries = new Map<string, Entry<T>>();

  constructor(private readonly maxEntries = 5000) {}

  get(key: string, ttlMs: number, compute: () => Promise<T>, now = Date.now()): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    const value = compute();
    // A computation in flight is shared however long it takes; a failed one is forgotten.
    const entry = { value, expires: Number.POSITIVE_INFINITY };
    this.entries.set(key, entry);
    value.then(
      () => {
        entry.expires = Date.now() + ttlMs;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    if (this.entries.size > this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
