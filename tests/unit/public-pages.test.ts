import { describe, expect, it } from 'vitest';
import { isPublicPage, withoutRuntime } from '../../lib/web/public-pages';

// What the public pages lose on the way out (lib/web/public-pages.ts): the shapes below are those
// Next 16 writes; the black-box suite checks the real pages (tests/e2e/public-pages.test.ts).

const shell = `<script data-shell="true">(function(){document.documentElement.dataset.js=""})()</script>`;
const head =
  `<head><meta charSet="utf-8"/><link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/a1.js"/>` +
  `<script src="/_next/static/chunks/b2.js" async=""></script>${shell}<style data-precedence="next">body{margin:0}</style>` +
  `<link rel="preload" as="font" href="/fonts/inter.woff2" crossorigin=""/><link rel="icon" href="/icon.svg"/>` +
  `<script src="/_next/static/chunks/c3.js" noModule=""></script></head>`;
const body =
  `<body><div hidden=""><!--$--><!--/$--></div><main><h1>Ada &lt;script&gt;</h1><p>a &lt;/script&gt; in text</p></main>` +
  `<script id="_R_">(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/a1.js"]});</script>` +
  `<script src="/_next/static/chunks/a1.js" async=""></script><script>(self.__next_f=self.__next_f||[]).push([0])</script>` +
  `<script>self.__next_f.push([1,"0:{\\"b\\":\\"\\u003c/script\\u003e\\"}\\n"])</script></body>`;
const page = `<!DOCTYPE html><html lang="en">${head}${body}</html>`;

describe('a public page without the client runtime', () => {
  it('loses the script chunks, their preloads, the inline data and the chunk list, and keeps the rest as it was', () => {
    expect(withoutRuntime(page)).toBe(
      `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>${shell}<style data-precedence="next">body{margin:0}</style>` +
        `<link rel="preload" as="font" href="/fonts/inter.woff2" crossorigin=""/><link rel="icon" href="/icon.svg"/></head>` +
        `<body><div hidden=""><!--$--><!--/$--></div><main><h1>Ada &lt;script&gt;</h1><p>a &lt;/script&gt; in text</p></main></body></html>`,
    );
  });

  it('is left whole when it needs its scripts: an error page the browser renders, or a script it does not know', () => {
    expect(withoutRuntime(page.replace('<html lang="en">', '<html id="__next_error__">'))).toBeNull();
    // React's streamed boundary: the content waits hidden until the script moves it in.
    const streamed = page.replace('</main>', '</main><div hidden id="S:0"><p>late</p></div><script>$RC("B:0","S:0")</script>');
    expect(withoutRuntime(streamed)).toBeNull();
    expect(withoutRuntime(page.replace('</main>', '</main><script src="https://elsewhere.example/x.js"></script>'))).toBeNull();
  });
});

describe('the public pages', () => {
  it('are the home page, the leaderboard, pricing, the docs and profiles; not the dashboard, sign-in or the API', () => {
    for (const path of ['/', '/leaderboard', '/pricing', '/docs', '/docs/wakatime', '/docs/api/post-sync-activities', '/u/ada', '/u/ada/opengraph-image']) {
      expect([path, isPublicPage(path)]).toEqual([path, true]);
    }
    for (const path of ['/dashboard', '/signin', '/signup', '/docsx', '/leaderboard/view', '/u', '/u/ada/other', '/main/api/v1/health', '/u/ada/']) {
      expect([path, isPublicPage(path)]).toEqual([path, false]);
    }
  });
});
