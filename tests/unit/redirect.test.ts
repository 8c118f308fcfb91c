import { describe, expect, it } from 'vitest';
import { sameOriginPath } from '@/lib/http/url';
import { safeCallback } from '@/lib/web/account/forms';

// Where a sign-in, a sign-out or Auth.js may send the browser when the address comes from the
// request: a path of the site, or nowhere (the caller's default).

const origin = 'https://codetally.example';

describe('a return address taken from a request', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/dashboard?welcome=1', '/dashboard?welcome=1'],
    ['/u/alice#top', '/u/alice#top'],
    ['/a/../dashboard', '/dashboard'],
    ['https://codetally.example/dashboard', '/dashboard'],
    ['//codetally.example/dashboard', '/dashboard'],
    ['dashboard', '/dashboard'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    // The site's own scheme without slashes is a relative path, to browsers as to the URL parser.
    ['https:evil.example', '/evil.example'],
  ])('%j is the path %j', (candidate, path) => {
    expect(sameOriginPath(candidate, origin)).toBe(path);
  });

  it.each([
    '//evil.example',
    '//evil.example/x',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    '/%5Cevil.example',
    '/%5c/evil.example',
    '/\t/evil.example/x',
    '/%09/evil.example/x',
    '/%0a/evil.example/x',
    '/%0d%0aSet-Cookie:%20x=1',
    '/\n/evil.example',
    '/\r\nLocation: //evil.example',
    '%0a',
    '\u0000/dashboard',
    '/dash\u007fboard',
    '/\u0085/evil.example',
    ' //evil.example',
    '/.//evil.example',
    '/./../..//evil.example',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http://evil.example',
    'https://evil.example/dashboard',
    'https://codetally.example.evil.example/',
    'https://codetally.example@evil.example/',
    'http://codetally.example/dashboard',
    'https://codetally.example:8443/dashboard',
    'http:evil.example',
    '/%E0%A4%A',
    '',
  ])('%j is refused', (candidate) => {
    expect(sameOriginPath(candidate, origin)).toBeNull();
  });

  it('is refused when it is no string', () => {
    for (const candidate of [undefined, null, 3, ['/dashboard'], { toString: () => '/dashboard' }]) expect(sameOriginPath(candidate, origin)).toBeNull();
  });

  it('after signing in, anything refused goes to the dashboard', () => {
    expect(safeCallback('/u/alice', origin)).toBe('/u/alice');
    expect(safeCallback('/%09/evil.example/x', origin)).toBe('/dashboard');
    expect(safeCallback(['/u/alice', '/u/bob'], origin)).toBe('/dashboard');
  });
});
