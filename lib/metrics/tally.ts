// Lookups of the in-process caches, counted per cache by name, and failed statements, counted per
// class of their code: plain numbers on globalThis, so
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

/**
 * The label of a failed statement's code: a SQLSTATE's class (its first two characters), or a
 * driver's or the service's own code (ECONNREFUSED, CONNECTION_CLOSED, DEADLINE_EXCEEDED: a set
 * the drivers fix), else `other`.
 */
export function failureClass(code: string | undefined): string {
  if (code === undefined) return 'other';
  // Every SQLSTATE holds a digit; EPIPE, five letters, is the driver's.
  if (/^[0-9A-Z]{5}$/.test(code) && /\d/.test(code)) return code.slice(0, 2);
  return /^[A-Z][A-Z_]{2,40}$/.test(code) ? code : 'other';
}

const failuresKey = Symbol.for('codetally.statement-failures');
const failuresSlot = globalThis as typeof globalThis & { [failuresKey]?: Map<string, number> };

/** Failed statements so far, by class (failureClass). */
export function failureTallies(): Map<string, number> {
  return (failuresSlot[failuresKey] ??= new Map());
}

/**
 * A statement's failure, when it becomes a QueryFailed (lib/db/errors.ts): once per failure. A
 * tally and not a prom-client counter: the errors module is in proxy.ts's graph, which must not
 * load prom-client.
 */
export function countStatementFailure(code: string | undefined): void {
  const tallies = failureTallies();
  const klass = failureClass(code);
  tallies.set(klass, (tallies.get(klass) ?? 0) + 1);
}
