import type { Metadata } from 'next';
import { wakatimeCfgLines, WithOrigin } from '@/app/components/site-origin';
import { configuredOrigin } from '@/lib/http/origin';
import styles from './docs.module.css';

export const metadata: Metadata = {
  title: 'Documentation',
  description: 'Connect the WakaTime plugins you already run, put your coding time in a README, embed badges, write a client, and every route of the Codetally API.',
};

export default function Docs() {
  const base = '{origin}/main/api/v1';
  const configured = configuredOrigin();
  const site = (text: string) => <WithOrigin text={text} configured={configured} />;
  return (
    <div className={styles.docs}>
      <h1>Documentation</h1>
      <p className="lead">
        Codetally counts time from the WakaTime plugins already in your editors: connecting one is the place to start. The rest is for README
        authors, and for anyone writing a client or reading the API.
      </p>
      <nav aria-label="Guides">
        <ul>
          <li><a href="/docs/wakatime">Use your WakaTime plugins</a>: connect an editor, what is kept, importing your history</li>
          <li><a href="/docs/readme-cards">Your coding time in a README</a></li>
          <li><a href="#badges">Embedding badges</a></li>
          <li><a href="#clients">Writing a client</a> and <a href="#example">a first upload</a></li>
          <li><a href="/docs/api">Every route of the API</a> and its <a href="/docs/api#error-bodies">error answers</a></li>
          <li><a href="/docs/errors">Error codes</a></li>
        </ul>
      </nav>

      <h2 id="connect">Connect your editor</h2>
      <p>
        Make a key in your <a href="/dashboard/settings#editor">settings</a> (<strong>Make a key for my editor</strong>) and put these lines in{' '}
        <code>~/.wakatime.cfg</code> under <code>[settings]</code>; every WakaTime plugin reads them. The{' '}
        <a href="/docs/wakatime">plugin guide</a> says more, coming from WakaTime, Wakapi or Hackatime too.
      </p>
      <pre>{site(wakatimeCfgLines)}</pre>

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
        The API address is <code>{site(base)}</code>. A token (<code>ct_…</code>) comes from your <a href="/dashboard/settings#tokens">settings, under Keys</a>, and goes in{' '}
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

    </div>
  );
}
