// The site's only script outside React, inline in every page's <head>. The public pages hold no
// client component (decision 0020), so what the shell does in a browser it does here, the same on
// every page, before React hydrates and whether or not it does:
// - the colour scheme the visitor picked (localStorage), applied before the first paint;
// - `data-js` on <html>: the theme switch shows (globals.css), it works with a script only;
// - the theme switch's clicks (one listener on the document: nothing of React's is touched), and
//   the chart images' dark source following the choice;
// - `data-signed-in` on <html> when Auth.js's /auth/session names a user: the header shows
//   "Dashboard" instead of "Sign in" (pages are the same for everyone, so they can be cached);
// - texts that name the site's address ([data-origin-text], app/components/site-origin.tsx) with
//   the address this browser used.
// It changes attributes of <html> (suppressHydrationWarning) and the text of elements that
// suppress hydration warnings, so React, where it runs, finds nothing it minds.

function shell() {
  const root = document.documentElement;
  try {
    const stored = localStorage.getItem('theme');
    if (stored === 'light' || stored === 'dark') root.dataset.theme = stored;
  } catch {
    // storage may be refused (private windows): the system's scheme
  }
  root.dataset.js = '';
  // A chart image's dark source (app/components/chart-images.tsx) follows the choice made here.
  const chartsFollow = () => {
    const media = root.dataset.theme === 'dark' ? 'all' : root.dataset.theme === 'light' ? 'not all' : '(prefers-color-scheme: dark)';
    document.querySelectorAll<HTMLSourceElement>('source[data-dark-chart]').forEach((source) => {
      if (source.media !== media) source.media = media;
    });
  };
  document.addEventListener('click', (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('.theme-switch')) return;
    const dark = (root.dataset.theme ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')) === 'dark';
    root.dataset.theme = dark ? 'light' : 'dark';
    chartsFollow();
    try {
      localStorage.setItem('theme', root.dataset.theme);
    } catch {
      // the choice lasts this page
    }
  });
  fetch('/auth/session', { credentials: 'same-origin', cache: 'no-store' })
    .then((res) => (res.ok ? res.json() : null))
    .then((session: { user?: unknown } | null) => {
      if (session?.user) root.dataset.signedIn = '';
    })
    .catch(() => {});
  document.addEventListener('DOMContentLoaded', () => {
    chartsFollow();
    document.querySelectorAll<HTMLElement>('[data-origin-text]').forEach((element) => {
      element.textContent = element.dataset.originText!.replaceAll('{origin}', location.origin).replaceAll('{host}', location.host);
    });
  });
}

/** The script's source, as the layout puts it in <head>. */
export const shellScript = `(${shell.toString()})()`;
