import type { Metadata } from 'next';
import { openApiDocument } from '@/lib/openapi';
import { WithOrigin } from '@/app/components/site-origin';
import { configuredOrigin } from '@/lib/http/origin';

export const metadata: Metadata = {
  title: 'API and plugin guide',
  description: 'How editor plugins and the desktop agent send activity, every route of the Codetally API, and how to embed badges.',
};

interface Operation {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses?: Record<string, { description?: string }>;
}

const methods = ['get', 'post', 'patch', 'delete'] as const;
const anchor = (method: string, path: string) => `${method}-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`;

const schemeNames: Record<string, (scopes: string[]) => string> = {
  bearer: (scopes) => `token with ${scopes.join(', ')}`,
  admin: () => 'ADMIN_TOKEN',
  session: () => 'dashboard session',
  wakatimeBasic: (scopes) => `key with ${scopes.join(', ')} as Basic user name`,
  wakatimeQuery: () => '?api_key=',
};

function auth(op: Operation): string {
  if (!op.security) return 'public, no token';
  return op.security
    .map((s) => Object.entries(s).map(([name, scopes]) => schemeNames[name]?.(scopes) ?? name))
    .flat()
    .join(' or ');
}

export default function Docs() {
  const doc = openApiDocument() as { paths: Record<string, Partial<Record<(typeof methods)[number], Operation>> & { servers?: { url: string }[] }> };
  const base = '{origin}/main/api/v1';
  const configured = configuredOrigin();
  const site = (text: string) => <WithOrigin text={text} configured={configured} />;
  // A path names its own server when it is not under /main/api/v1 (the WakaTime-compatible routes).
  const routes = Object.entries(doc.paths).flatMap(([relative, ops]) =>
    methods.filter((m) => ops[m]).map((m) => ({ path: relative, shown: `${ops.servers?.[0]?.url ?? '/main/api/v1'}${relative}`, method: m, op: ops[m]! })),
  );
  return (
    <>
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
      <ul>
        {routes.map((r) => (
          <li key={anchor(r.method, r.path)}>
            <a href={`#${anchor(r.method, r.path)}`}>
              <code>
                {r.method.toUpperCase()} {r.shown}
              </code>
            </a>{' '}
            — {r.op.summary}
          </li>
        ))}
      </ul>
      {routes.map(({ path, shown, method, op }) => (
        <section key={anchor(method, path)} id={anchor(method, path)} aria-labelledby={`${anchor(method, path)}-h`}>
          <h3 id={`${anchor(method, path)}-h`}>
            <code>
              {method.toUpperCase()} {shown}
            </code>
          </h3>
          <p>
            <strong>{op.summary}.</strong> <span className="muted">Auth: {auth(op)}.</span>
          </p>
          {op.description && <p>{op.description}</p>}
          {op.parameters && op.parameters.length > 0 && (
            <p>
              Parameters:{' '}
              {op.parameters.map((p, i) => (
                <span key={p.name}>
                  {i > 0 && ', '}
                  <code>{p.name}</code> ({p.in}
                  {p.required ? ', required' : ''})
                </span>
              ))}
            </p>
          )}
          {op.requestBody && (
            <p>
              Body: <code>{Object.values(op.requestBody.content)[0]?.schema.$ref?.split('/').at(-1)}</code> (see openapi.json).
            </p>
          )}
          {op.responses && (
            <p className="muted">
              Answers:{' '}
              {Object.entries(op.responses)
                .map(([code, r]) => `${code} ${r.description ?? ''}`.trim())
                .join(' · ')}
            </p>
          )}
        </section>
      ))}
    </>
  );
}
