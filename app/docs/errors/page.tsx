import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Error codes', description: 'Every error code of the Codetally API, what it means and what a client should do.' };

// Problem answers link here: `type` is /docs/errors#<code>.
const codes: { code: string; status: number; meaning: string; action: string }[] = [
  { code: 'malformed_json', status: 400, meaning: 'The body is not JSON, not an object, or lacks the activities array.', action: 'Fix the client; do not retry.' },
  { code: 'invalid_query', status: 400, meaning: 'A query parameter is wrong (unknown range, bad date, span too long); errors names it.', action: 'Fix the parameter.' },
  { code: 'unauthorized', status: 401, meaning: 'The token is missing, malformed, unknown or revoked (or no session).', action: 'Ask the user for a new token.' },
  { code: 'forbidden', status: 403, meaning: 'The token lacks the scope the route needs, or a session change came from another site.', action: 'Use a token with the right scope.' },
  { code: 'not_found', status: 404, meaning: 'No such resource, or one its owner has not made public: the two look the same.', action: 'Do not retry.' },
  { code: 'method_not_allowed', status: 405, meaning: 'The route exists but not with this method.', action: 'Fix the client.' },
  { code: 'idempotency_in_progress', status: 409, meaning: 'A request with the same Idempotency-Key is still running.', action: 'Retry after a moment.' },
  { code: 'payload_too_large', status: 413, meaning: 'The body is over 1 MiB or has more than 1000 activities.', action: 'Split the batch.' },
  { code: 'unsupported_media_type', status: 415, meaning: 'The body is not application/json.', action: 'Send JSON with Content-Type: application/json.' },
  { code: 'invalid_payload', status: 422, meaning: 'Nothing in the request was valid; errors lists each field and rule.', action: 'Drop or fix the buckets.' },
  { code: 'idempotency_key_reused', status: 422, meaning: 'The same Idempotency-Key came with a different body.', action: 'Use a new key for a new batch.' },
  { code: 'rate_limited', status: 429, meaning: 'Too many write requests for this token this minute.', action: 'Wait Retry-After seconds; batch more.' },
  { code: 'internal', status: 500, meaning: 'Something failed on the server; nothing about it is in the answer.', action: 'Retry with back-off.' },
  { code: 'unavailable', status: 503, meaning: 'The database did not answer; nothing was written.', action: 'Retry after Retry-After seconds.' },
];

export default function Errors() {
  return (
    <>
      <h1>Error codes</h1>
      <p className="lead">
        Every answer that is not 2xx is <code>application/problem+json</code> (RFC 9457) with a stable <code>code</code>. Per-field problems are in{' '}
        <code>errors[]</code> with <code>path</code>, <code>code</code> and a message.
      </p>
      {codes.map((c) => (
        <section key={c.code} id={c.code} aria-labelledby={`${c.code}-h`}>
          <h2 id={`${c.code}-h`}>
            <code>{c.code}</code> <span className="muted">({c.status})</span>
          </h2>
          <p>{c.meaning}</p>
          <p className="muted">What to do: {c.action}</p>
        </section>
      ))}
    </>
  );
}
