import { describe, expect, it } from 'vitest';
import { ProcessCache } from '../../lib/process-cache';

const tick = () => new Promise((r) => setTimeout(r, 0));

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('ProcessCache', () => {
  it('shares one computation among concurrent misses', async () => {
    const cache = new ProcessCache<number>('test');
    let calls = 0;
    const d = deferred<number>();
    const compute = () => (calls++, d.promise);
    const all = Promise.all(Array.from({ length: 10 }, () => cache.get('k', 1000, compute)));
    d.resolve(7);
    expect(await all).toEqual(Array(10).fill(7));
    expect(calls).toBe(1);
  });

  it('recomputes ahead of expiry in the background while serving the current answer', async () => {
    const cache = new ProcessCache<number>('test');
    let n = 0;
    const slow = deferred<number>();
    await cache.get('k', 1000, async () => ++n);
    const t0 = Date.now();
    // Past 80 % of its life: the current answer is returned at once, and one refresh starts.
    expect(await cache.get('k', 1000, () => (n++, slow.promise), t0 + 900)).toBe(1);
    // Past expiry, while the refresh still runs: still the previous answer, and no second computation.
    expect(await cache.get('k', 1000, async () => ++n, t0 + 1500)).toBe(1);
    expect(n).toBe(2);
    slow.resolve(2);
    await tick();
    expect(await cache.get('k', 1000, async () => 99)).toBe(2);
  });

  it('never serves a stale answer when the time to live is 0', async () => {
    const cache = new ProcessCache<number>('test');
    let n = 0;
    await cache.get('k', 0, async () => ++n);
    await tick();
    expect(await cache.get('k', 0, async () => ++n)).toBe(2);
  });

  it('forgets a failed computation', async () => {
    const cache = new ProcessCache<number>('test');
    await expect(cache.get('k', 1000, () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    await tick();
    expect(await cache.get('k', 1000, async () => 5)).toBe(5);
  });

  it('peeks at a settled answer without waiting, and never at one it would have to wait for', async () => {
    const cache = new ProcessCache<number>('test');
    let n = 0;
    const first = deferred<number>();
    expect(cache.peek('k', 1000, async () => ++n)).toBeUndefined(); // nothing stored; peeking computes nothing
    expect(n).toBe(0);
    const pending = cache.get('k', 1000, () => first.promise);
    expect(cache.peek('k', 1000, async () => ++n)).toBeUndefined(); // in flight
    first.resolve(1);
    await pending;
    await tick();
    const t0 = Date.now();
    expect(cache.peek('k', 1000, async () => ++n, t0)).toBe(1);
    // Due for its refresh: served, and the refresh starts as with get.
    const slow = deferred<number>();
    expect(cache.peek('k', 1000, () => (n++, slow.promise), t0 + 900)).toBe(1);
    expect(n).toBe(1);
    slow.resolve(2);
    await tick();
    expect(cache.peek('k', 1000, async () => ++n)).toBe(2);
    // Expired: exactly as get, the previous answer while its successor is computed.
    expect(cache.peek('k', 1000, async () => ++n, Date.now() + 5000)).toBe(2);
    expect(n).toBe(2);
    // A time to live of 0 never serves a stored answer.
    expect(cache.peek('k', 0, async () => ++n)).toBeUndefined();
  });
});
