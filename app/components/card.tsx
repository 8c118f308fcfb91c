import type { CSSProperties, ReactNode } from 'react';

/** A panel of the pages: a section named by its heading (`h2`, or `h3` under a page's own `h2`). */
export function Card({ id, title, level = 'h2', style, children }: { id: string; title: string; level?: 'h2' | 'h3'; style?: CSSProperties; children: ReactNode }) {
  const Heading = level;
  return (
    <section className="card" aria-labelledby={id} style={style}>
      <Heading id={id}>{title}</Heading>
      {children}
    </section>
  );
}
