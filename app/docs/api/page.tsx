import type { Metadata } from 'next';
import { BodyLine, Fields } from '../parts';
import { reference, routePath } from '../reference';
import styles from '../docs.module.css';

// The API reference: every route (a page each, app/docs/api/[route]) and the error answers they
// share, made from openapi.json at build time.

export const metadata: Metadata = {
  title: 'API reference',
  description: 'Every route of the Codetally API, with the error answers they share.',
};

export default function ApiReference() {
  const { routes, shapes } = reference();
  return (
    <div className={styles.docs}>
      <p>
        <a href="/docs">← Documentation</a>
      </p>
      <h1>API reference</h1>
      <p className="lead">
        The machine-readable description is <a href="/main/api/v1/openapi.json">openapi.json</a> (OpenAPI 3.1); these pages are made from it.
        Writing a client? Start with <a href="/docs#clients">its rules</a>.
      </p>
      <h2 id="routes">Every route</h2>
      <p>
        Each route&apos;s page gives its parameters, the fields of what it takes and answers, and examples made from the same schemas that
        check requests. Errors are described once, under <a href="#error-bodies">error answers</a>.
      </p>
      <ul className={styles.toc}>
        {routes.map((r) => (
          <li key={r.anchor} id={r.anchor}>
            <a href={routePath(r.anchor)}>
              <code>
                {r.method} {r.shown}
              </code>
            </a>{' '}
            — {r.summary} <span className="muted">({r.auth})</span>
          </li>
        ))}
      </ul>
      <h2 id="error-bodies">Error answers</h2>
      <p>
        The error answers of many routes share a body, described here once; each route&apos;s answers link to it. Each{' '}
        <code>code</code> is explained under <a href="/docs/errors">error codes</a>.
      </p>
      {shapes.map((shape) => (
        <section key={shape.anchor} id={shape.anchor} aria-labelledby={`${shape.anchor}-h`} className={styles.route}>
          <h3 id={`${shape.anchor}-h`}>
            <code>{shape.name}</code>
          </h3>
          <BodyLine body={shape.body} />
          <p className="muted">With status {shape.statuses.join(', ')}.</p>
          <Fields rows={shape.body.fields} caption={`Fields of ${shape.name}`} />
          {shape.body.example && (
            <pre>
              <code>{shape.body.example}</code>
            </pre>
          )}
        </section>
      ))}
    </div>
  );
}
