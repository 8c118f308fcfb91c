// Lookups of the in-process caches, counted per cache by name: plain numbers on globalThis, so
// that Next's cache handler (lib/cache/next-handler.mjs, plain JavaScript outside the app's
// bundles, keeping its own copy of these lines) and every bundled copy of the app's modules count
// into one place, which the metrics registry (./registry.ts) reads at each scrape. A lookup costs
// an increment.

export interface CacheTally {
  hit: number;
  miss: number;
}

const key = Symbol.for('codetally.cache-lookups');
const slot = globalThis as typeof globalThis & { [key]?: Map<string, CacheTally> };

/** Every cache's counts so far, by cache name. */
export function cacheTallies(): Map<string, CacheTally> {
  return (slot[key] ??= new Map());
}

/** The counts of one cache, made on first use; a cache keeps it and increments `hit` or `miss`. */
export function cacheTally(name: string): CacheTally {
  const tallies = cacheTallies();
  let tally = tallies.get(name);
  if (!tally) tallies.set(name, (tally = { hit: 0, miss: 0 }));
  return tally;
}
