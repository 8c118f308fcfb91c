import type { Metadata } from 'next';
import { Fragment } from 'react';
import { openApiDocument } from '@/lib/openapi';
import { WithOrigin } from '@/app/components/site-origin';
import { configuredOrigin } from '@/lib/http/origin';
import { docsModel, shapeAnchor, type DocBody, type DocParameter, type DocResponse, type OpenApiDocument } from '@/lib/docs/routes';
import type { FieldRow } from '@/lib/docs/schema';
import { Markdown } from '@/lib/web/markdown';
import styles from './docs.module.css';

export const metadata: Metadata = {
  title: 'API and plugin guide',
  description: 'How editor plugins and the desktop agent send activity, every route of the Codetally API, and how to embed badges.',
};

const depthClass = [undefined, styles.d1, styles.d2, styles.d3, styles.d4];

/**
 * A field's path with its parents muted, so the field's own name stands out; a narrow column
 * breaks it after a dot rather than inside a name.
 */
function FieldName({ name }: { name: string }) {
  const cut = name.lastIndexOf('.') + 1;
  const parents = name.slice(0, cut).split('.').slice(0, -1);
  return (
    <code>
      {parents.length > 0 && (
        <span className={styles.parent}>
          {parents.map((parent, i) => (
            <Fragment key={i}>
              {parent}.<wbr />
            </Fragment>
          ))}
        </span>
      )}
      {name.slice(cut)}
    </code>
  );
}

/** A name that may break where a narrow column needs it: after `/` or `.`, and between words of CamelCase. */
function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[/.])|(?<=[a-z])(?=[A-Z])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/** Rules as one line of Markdown phrases. */
function Rules({ rules }: { rules: string[] }) {
  if (rules.length === 0) return null;
  return (
    <span className={styles.rules}>
      <Markdown text={rules.join('; ')} inline />
    </span>
  );
}

function Fields({ rows, caption }: { rows: FieldRow[]; caption: string }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          <col className={styles.colName} />
          <col className={styles.colType} />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={`${row.name}-${i}`}>
              <td className={depthClass[Math.min(row.depth, depthClass.length - 1)]}>
                <FieldName name={row.name} />
                {row.form && <span className={styles.note}>form {row.form}</span>}
                {row.required && !row.form && <span className={styles.note}>required</span>}
              </td>
              <td>
                <Breakable text={row.type} />
              </td>
              <td>
                {row.description && <Markdown text={row.description} inline />}
                <Rules rules={row.rules} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Parameters({ parameters }: { parameters: DocParameter[] }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className="sr-only">Parameters</caption>
        <colgroup>
          <col className={styles.colName} />
          <col className={styles.colType} />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Parameter</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {parameters.map((p) => (
            <tr key={`${p.in}-${p.name}`}>
              <td>
                <code>{p.name}</code>
                <span className={styles.note}>
                  in {p.in}
                  {p.required ? ', required' : ''}
                </span>
              </td>
              <td>
                <Breakable text={p.type} />
              </td>
              <td>
                {p.description && <Markdown text={p.description} inline />}
                <Rules rules={p.rules} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What a body is in one line: its type, rules and description. */
function BodyLine({ body }: { body: DocBody }) {
  return (
    <p>
      <code>{body.mediaType}</code>, {body.type}
      {body.rules.length > 0 && <>, <Markdown text={body.rules.join('; ')} inline /></>}
      {body.description && (
        <>
          : <Markdown text={body.description} inline />
        </>
      )}
    </p>
  );
}

function Example({ text, label }: { text: string; label: string }) {
  return (
    <details className={styles.more}>
      <summary>{label}</summary>
      <pre className={styles.wrap}>
        <code>{text}</code>
      </pre>
    </details>
  );
}

function BodyCell({ response }: { response: DocResponse }) {
  if (response.shape) {
    return (
      <a href={`#${shapeAnchor(response.shape.name)}`}>
        <Breakable text={response.shape.name} />
      </a>
    );
  }
  if (!response.body) return <span className="muted">none</span>;
  return (
    <>
      <Breakable text={response.body.type} />{' '}
      <span className={styles.note}>
        <Breakable text={response.body.mediaType} />
      </span>
    </>
  );
}

function Responses({ responses, anchor }: { responses: DocResponse[]; anchor: string }) {
  return (
    <>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption className="sr-only">Answers by status</caption>
          <colgroup>
            <col className={styles.colStatus} />
            <col />
            <col className={styles.colBody} />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Meaning</th>
              <th scope="col">Body</th>
            </tr>
          </thead>
          <tbody>
            {responses.map((r) => (
              <tr key={r.status}>
                <td>{r.status}</td>
                <td>
                  {r.description && <Markdown text={r.description} inline />}
                  {r.headers.length > 0 && (
                    <ul className={styles.headers}>
                      {r.headers.map((h) => (
                        <li key={h.name}>
                          Header <code>{h.name}</code>
                          {h.description && (
                            <>
                              : <Markdown text={h.description} inline />
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  <BodyCell response={r} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {responses.map(
        (r) =>
          r.body &&
          (r.body.fields.length > 0 || r.body.example) && (
            <div key={`${anchor}-${r.status}`}>
              {r.body.fields.length > 0 && (
                <details className={styles.more}>
                  <summary>
                    Fields of the {r.status} answer ({r.body.type})
                  </summary>
                  <Fields rows={r.body.fields} caption={`Fields of the ${r.status} answer`} />
                </details>
              )}
              {r.body.example && <Example text={r.body.example} label={`Example ${r.status} answer`} />}
            </div>
          ),
      )}
    </>
  );
}

export default function Docs() {
  const { routes, shapes } = docsModel(openApiDocument() as unknown as OpenApiDocument);
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
      <pre className={styles.wrap}>{site(`curl -X POST ${base}/sync/activities \\
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
      <pre className={styles.wrap}>{site(`![coded 7d](${base}/public/github/svg/<your-user-id>?badge=<badge-id>)`)}</pre>

      <h2 id="routes">Every route</h2>
      <p>
        Each route with its parameters, the fields of what it takes and answers, and examples made from the same schemas that check requests.
        Errors are described once, under <a href="#error-bodies">error answers</a>.
      </p>
      <ul className={styles.toc}>
        {routes.map((r) => (
          <li key={r.anchor}>
            <a href={`#${r.anchor}`}>
              <code>
                {r.method} {r.shown}
              </code>
            </a>{' '}
            — {r.summary}
          </li>
        ))}
      </ul>
      {routes.map((route) => (
        <section key={route.anchor} id={route.anchor} aria-labelledby={`${route.anchor}-h`} className={styles.route}>
          <h3 id={`${route.anchor}-h`}>
            <code>
              {route.method} {route.shown}
            </code>
          </h3>
          <p>
            <strong>{route.summary}.</strong> <span className="muted">Auth: {route.auth}.</span>
          </p>
          {route.description && <Markdown text={route.description} />}
          {route.parameters.length > 0 && (
            <>
              <h4>Parameters</h4>
              <Parameters parameters={route.parameters} />
            </>
          )}
          {route.requestBody && (
            <>
              <h4>Request body</h4>
              <BodyLine body={route.requestBody} />
              {route.requestBody.fields.length > 0 && <Fields rows={route.requestBody.fields} caption="Fields of the request body" />}
              {route.requestBody.example && <Example text={route.requestBody.example} label="Example request body" />}
            </>
          )}
          <h4>Answers</h4>
          <Responses responses={route.responses} anchor={route.anchor} />
        </section>
      ))}

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
            <pre className={styles.wrap}>
              <code>{shape.body.example}</code>
            </pre>
          )}
        </section>
      ))}
    </div>
  );
}
