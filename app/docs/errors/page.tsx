import type { Metadata } from 'next';
import { errorCatalog, errorCodes, fieldCodes } from '@/lib/http/errors';

export const metadata: Metadata = { title: 'Error codes', description: 'Every error code of the Codetally API, what it means and what a client should do.' };

// Problem answers link here: `type` is /docs/errors#<code>. Everything below comes from the catalog.
export default function Errors() {
  return (
    <>
      <h1>Error codes</h1>
      <p className="lead">
        Every answer that is not 2xx is <code>application/problem+json</code> (RFC 9457) with a stable <code>code</code>. Per-field problems are in{' '}
        <code>errors[]</code> with <code>path</code>, <code>code</code> and a message.
      </p>
      {errorCodes.map((code) => {
        const entry = errorCatalog[code];
        return (
          <section key={code} id={code} aria-labelledby={`${code}-h`}>
            <h2 id={`${code}-h`}>
              <code>{code}</code> <span className="muted">({entry.status} {entry.title})</span>
            </h2>
            <p>{entry.meaning}</p>
            <p className="muted">What to do: {entry.action}</p>
          </section>
        );
      })}
      <section id="field-codes" aria-labelledby="field-codes-h">
        <h2 id="field-codes-h">Field codes</h2>
        <p>
          Besides zod&apos;s own (<code>required</code>, <code>invalid_type</code>, <code>too_small</code>, <code>too_big</code>, <code>invalid_format</code>,{' '}
          <code>invalid_value</code>), an entry of <code>errors[]</code> may carry:
        </p>
        <dl>
          {Object.entries(fieldCodes).map(([code, meaning]) => (
            <div key={code} id={code}>
              <dt>
                <code>{code}</code>
              </dt>
              <dd>{meaning}</dd>
            </div>
          ))}
        </dl>
      </section>
    </>
  );
}
