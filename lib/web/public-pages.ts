// The public pages: the same for every visitor, cached (next.config.ts gives them their
// Cache-Control), and served without Next's client runtime by the service's own server
// (lib/server/front.ts). Nothing on them needs React in the browser: the charts are drawn on the
// server (decision 0015) and what the shell does in a browser is one inline script
// (app/components/shell-script.ts). Decision 0016 says why and what it costs.

/** The public pages, as next.config.ts matches paths. */
export const publicPages = ['/', '/leaderboard', '/pricing', '/docs', '/docs/:path*', '/u/:handle', '/u/:handle/opengraph-image'];

const matchers = publicPages.map((page) => new RegExp(`^${page.replace(/\/:\w+\*/g, '(?:/.*)?').replace(/:\w+/g, '[^/]+')}$`));

/** Whether `path` (a request's path, dot segments resolved) is one of the public pages. */
export const isPublicPage = (path: string): boolean => matchers.some((m) => m.test(path));

/**
 * Whether Next sent a page whose body only the browser fills in: what it answers when a page calls
 * notFound() (Next's issue 62228), where a path no route has gets the not-found page rendered.
 */
export const renderedInBrowser = (html: string): boolean => html.includes('<html id="__next_error__"');

const scripts = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
const scriptPreloads = /<link rel="preload" as="script"[^>]*>/g;
const runtimeChunk = /\bsrc="\/_next\/static\//;
const flightData = /^(?:\(self\.__next_f=self\.__next_f\|\|\[\]\)|self\.__next_f)\.push\(/;
const chunkList = /^\(globalThis\["TURBOPACK"\]/;

/**
 * A page Next rendered, without the client runtime: its script chunks (and their preloads), the
 * data React would hydrate from, and the list of chunks to load; the site's own scripts (marked
 * `data-shell`) stay. Null when the page needs its scripts: one Next made as an error page
 * (rendered in the browser), or any script not known here (React's streamed boundaries, say).
 * React escapes `<` in text, attributes and inline data, so every `<script` is a script element.
 */
export function withoutRuntime(html: string): string | null {
  if (renderedInBrowser(html)) return null;
  let needsScripts = false;
  const stripped = html
    .replace(scripts, (script, attributes: string, body: string) => {
      if (/\sdata-shell\b/.test(attributes)) return script;
      if (body === '' && runtimeChunk.test(attributes)) return '';
      if (attributes === '' && flightData.test(body)) return '';
      if (attributes === ' id="_R_"' && chunkList.test(body)) return '';
      needsScripts = true;
      return script;
    })
    .replace(scriptPreloads, (link) => (link.includes('href="/_next/static/') ? '' : link));
  return needsScripts ? null : stripped;
}
