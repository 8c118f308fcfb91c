import { describe, expect, it } from 'vitest';
import { cacheControl, matchesEtag, weakEtag } from '../../lib/http/public';

describe('HTTP caching helpers', () => {
  it('compares ETags weakly, in lists and with *', () => {
    const tag = weakEtag('hello');
    expect(matchesEtag(tag, tag)).toBe(true);
    expect(matchesEtag(tag.replace('W/', ''), tag)).toBe(true);
    expect(matchesEtag(`W/"other", ${tag}`, tag)).toBe(true);
    expect(matchesEtag('*', tag)).toBe(true);
    expect(matchesEtag('W/"other"', tag)).toBe(false);
    expect(matchesEtag(null, tag)).toBe(false);
    expect(weakEtag('hello')).toBe(tag);
    expect(weakEtag('hello!')).not.toBe(tag);
  });

  it('writes Cache-Control for shared caches', () => {
    expect(cacheControl({ sMaxAge: 300, staleWhileRevalidate: 600 })).toBe('public, max-age=300, s-maxage=300, stale-while-revalidate=600');
    expect(cacheControl({ maxAge: 0, sMaxAge: 60, staleWhileRevalidate: 60 })).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=60');
  });
});
