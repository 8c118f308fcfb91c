'use client';

import { useSyncExternalStore } from 'react';

// The colour scheme: the system's unless the visitor picked one here (kept in localStorage and
// applied before the first paint by the script in app/layout.tsx).

type Theme = 'light' | 'dark';

const dark = () => matchMedia('(prefers-color-scheme: dark)');
const current = (): Theme => (document.documentElement.dataset.theme as Theme | undefined) ?? (dark().matches ? 'dark' : 'light');

function subscribe(changed: () => void): () => void {
  const media = dark();
  const observer = new MutationObserver(changed);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  media.addEventListener('change', changed);
  return () => {
    observer.disconnect();
    media.removeEventListener('change', changed);
  };
}

export function ThemeSwitch() {
  const theme = useSyncExternalStore<Theme | null>(subscribe, current, () => null);
  if (theme === null) return null; // rendered on the server, and nothing to switch without JavaScript
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="secondary theme-switch"
      onClick={() => {
        document.documentElement.dataset.theme = next;
        try {
          localStorage.setItem('theme', next);
        } catch {
          // storage may be refused (private windows): the choice lasts this page
        }
      }}
    >
      {next === 'dark' ? 'Dark mode' : 'Light mode'}
    </button>
  );
}

/** Runs in <head> before the page paints: the stored choice, if any. */
export const themeScript = `try{var t=localStorage.getItem('theme');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;
