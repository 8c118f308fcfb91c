import type { Metadata } from 'next';
import { WithOrigin } from '@/app/components/site-origin';
import { configuredOrigin } from '@/lib/http/origin';
import { BodyLine, Fields } from './parts';
import { reference, routePath } from './reference';
import styles from './docs.module.css';

export const metadata: Metadata = {
  title: 'API and plugin guide',
  description: 'How editor plugins and the desktop agent send activity, every route of the Codetally API, and how to embed badges.',
};

export default function Docs() {
  const { routes, shapes } = reference();
  const base = '{origin}/main/api/v1';
  const configured = configuredOrigin();
  const site = (text: string) => <WithOrigin text={text} configured={configured} />;
  return (
    <div className={styles.docs}>
      <h1>API and plugin guide</h1>
      <p className="lead">
        For authors of editor plugins, the desktop agent and anything that reads public figures. The machine-readable description is{' '}
        <a href="/main/api/v1/openapi.json">openapi.json</a> (OpenAPI 3.1); this page is made from it.
      </p>
      <nav aria-label="On this page">
        <ul>
          <li><a href="/docs/wakatime">Use your WakaTime plugins</a></li>
          <li><a href="/docs/readme-cards">Your coding time in a README</a></li>
          <li><a href="#clients">Writing a client</a></li>
          <li><a href="#example">A first upload</a></li>
          <li><a href="#badges">Embedding badges</a></li>
          <li><a href="#routes">Every route</a></li>
          <li><a href="#error-bodies">Error answers</a></li>
          <li><a href="/docs/errors">Error codes</a></li>
        </ul>
      </nav>

      <h2 id="clients">Writing a client</h2>
      <ol className="steps">
        <li>Bucket activity on the device by date and hour (the local wall clock), language, project and editor; send seconds per bucket.</li>
        <li>Send compact batches (up to 1000 buckets, 1 MiB) every few seconds to a minute — never per keystroke.</li>
        <li>Never send file contents, diffs or clipboard data. A bucket with a field named content, body, text, diff, patch, clipboard, source, code or snippet is refused.</li>
        <li>Set <code>ide_name</code> so time can be split per editor.</li>
        <li>
          Keep a local queue. Retry network failures, 5xx, 409 and 429 with back-off (honour <code>Retry-After</code>); drop what another 4xx
          refuses — its <code>errors</code> say why. Send an <code>Idempotency-Key</code> per batch so a retry never counts twice.
        </li>
        <li>Cache public chart answers (they carry <code>Cache-Control</code> and an <code>ETag</code>); use these JSON routes, not the HTML pages.</li>
      </ol>
      <p>
        The API address is <code>{site(base)}</code>. A token (<code>ct_…</code>) comes from the <a href="/dashboard">dashboard</a> and goes in{' '}
        <code>Authorization: Bearer</code>.
      </p>

      <h2 id="example">A first upload</h2>
      <pre>{site(`curl -X POST ${base}/sync/activities \\
  -H "Authorization: Bearer $CODETALLY_TOKEN" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -d '{"activities":[{"language":"TypeScript","time":120,"project_name":"codetally","ide_name":"vscode"}]}'`)}</pre>
      <p>
        The answer acknowledges what was stored: <code>{'{"accepted":1,"grouped":1,"rejected":[],"ignored_fields":[]}'}</code>. Without{' '}
        <code>date</code> and <code>hour</code> the bucket goes to the current hour in your timezone.
      </p>

      <h2 id="badges">Embedding badges</h2>
      <p>
        Make a badge in the dashboard (or <code>POST /badges</code> with a token) and paste the Markdown or HTML it gives you into a README. The
        image is an SVG in one of five styles; creating a badge publishes exactly its figure and nothing else, even on a private profile. A
        deleted badge shows “badge not found”, never a broken image. For shields.io, use the <code>shields_url</code> with its endpoint badge.
      </p>
      <pre>{site(`![coded 7d](${base}/public/github/svg/<your-user-id>?badge=<badge-id>)`)}</pre>

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
