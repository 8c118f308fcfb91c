import type { Metadata } from 'next';

// Answered with status 404; Next adds noindex to every not-found answer.
export const metadata: Metadata = { title: 'Not found' };

export default function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p className="lead">There is nothing public here. The page may not exist, or its owner keeps it private.</p>
      <p>
        <a href="/">Back to the start page</a>
      </p>
    </>
  );
}
